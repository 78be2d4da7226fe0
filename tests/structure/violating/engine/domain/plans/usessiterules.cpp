// Plans know nothing of how sites behave: the layering check must refuse this include.
#include "domain/siterules/sitetable.h"
