// A site file that reaches across into the API: the layering check must refuse it.
#include "api/apirouter.h"
