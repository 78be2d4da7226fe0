// Site rules know nothing of what visitors leave: the layering check must refuse this include.
#include "domain/visitors/counterservice.h"
