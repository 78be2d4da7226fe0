// Site rules know nothing of deploying: the layering check must refuse a site rule that includes a deploy header.
#include "domain/deploy/deployrequest.h"
