#pragma once

#include "core/error.h"
#include "http/httpresponse.h"

namespace berth {

// The one place a domain Error becomes an HTTP status and a {"error": "..."} body. A 401 carries the challenge
// `WWW-Authenticate: Bearer realm="berth"` (RFC 6750 section 3.1: no error code, the request offered no key).
int httpStatusFor(Error::Kind kind);
HttpResponse errorResponse(const Error &error);

// The value of WWW-Authenticate for every 401 of the API: the Bearer scheme in realm "berth", with an RFC 6750 error
// code ("invalid_request", "invalid_token") and its description when the request's key was refused. Characters a
// quoted description may not hold (RFC 6750 section 3: '"', '\\', controls, non-ASCII) are left out.
QByteArray bearerChallenge(const QByteArray &errorCode = {}, const QString &description = {});

} // namespace berth
