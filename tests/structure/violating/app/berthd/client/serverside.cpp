// The API client commands stand apart from the server commands: the layering check must refuse this include.
#include "app/berthd/server/tlsoptions.h"
