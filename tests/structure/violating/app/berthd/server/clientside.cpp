// The server commands stand apart from the API client commands: the layering check must refuse this include.
#include "app/berthd/client/apiclient.h"
