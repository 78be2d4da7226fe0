// The domain lies beneath the instance that wires the engine: the layering check must refuse this include.
#include "instance/engine.h"
