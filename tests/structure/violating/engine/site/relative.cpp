// A relative include hides the folder it reaches into: the layering check must refuse it.
#include "../api/apirouter.h"
