// What visitors leave knows nothing of signing in: the layering check must refuse this include.
#include "domain/accounts/accountservice.h"
