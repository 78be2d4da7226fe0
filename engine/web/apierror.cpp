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
    HttpResponse response = HttpResponse::jsonError(httpStatusFor(error.kind), error.message);
    if (response.status == 401)
        response.setHeader("WWW-Authenticate", bearerChallenge());
    return response;
}

QByteArray bearerChallenge(const QByteArray &errorCode, const QString &description)
{
    QByteArray challenge = R"(Bearer realm="berth")";
    if (errorCode.isEmpty())
        return challenge;
    QByteArray text;
    for (const QChar c : description) {
        if (c.unicode() >= 0x20 && c.unicode() <= 0x7e && c != u'"' && c != u'\\')
            text += char(c.unicode());
    }
    return challenge + R"(, error=")" + errorCode + R"(", error_description=")" + text + '"';
}

} // namespace berth
