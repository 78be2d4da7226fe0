// The rate limiter knows nothing of deploying: the layering check must refuse this include.
#include "domain/deploy/deployrequest.h"
