// An include that names no folder: the layering check must refuse it, since it cannot tell where it points.
#include "deployrequest.h"
