// An API file that includes a header storage keeps to itself: the layering check must refuse it.
#include "storage/sqlhelpers.h"
