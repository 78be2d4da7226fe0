// Deploying lies beneath accounts (an agent claims deployments, not the reverse): the layering check must refuse it.
#include "domain/accounts/accountservice.h"
