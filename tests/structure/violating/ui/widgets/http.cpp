// The dashboard talks to the engine's C++ API, never to its HTTP layer: the layering check must refuse it.
#include "http/httpservice.h"
