// What every subject uses depends on no subject: the layering check must refuse a plan in common/.
#include "domain/plans/plantable.h"
