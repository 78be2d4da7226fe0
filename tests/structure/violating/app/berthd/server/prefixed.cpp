// Engine headers are named from engine/, never from the top: the layering check must refuse this form.
#include "engine/domain/deploy/deployrequest.h"
