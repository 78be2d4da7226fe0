#pragma once

#include "core/error.h"
#include "http/httpresponse.h"

namespace berth {

// The one place a domain Error becomes an HTTP status and a {"error": "..."} body.
int httpStatusFor(Error::Kind kind);
HttpResponse errorResponse(const Error &error);

} // namespace berth
