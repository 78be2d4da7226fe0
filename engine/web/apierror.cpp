#include "web/apierror.h"

namespace berth {

int httpStatusFor(Error::Kind kind)
{
    switch (kind) {
    case Error::Kind::BadRequest:
        return 400;
    case Error::Kind::Unauthorized:
        return 401;
    case Error::Kind::Forbidden:
        return 403;
    case Error::Kind::NotFound:
        return 404;
    case Error::Kind::Conflict:
        return 409;
    case Error::Kind::TooLarge:
        return 413;
    case Error::Kind::RateLimited:
        return 429;
    case Error::Kind::Unavailable:
        return 503;
    case Error::Kind::InsufficientStorage:
        return 507;
    case Error::Kind::Internal:
        break;
    }
    return 500;
}

HttpResponse errorResponse(const Error &error)
{
    return HttpResponse::jsonError(httpStatusFor(error.kind), error.message);
}

} // namespace berth
