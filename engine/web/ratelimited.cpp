#include "web/ratelimited.h"

namespace berth {

HttpResponse rateLimited(const RateDecision &decision, const QString &message)
{
    HttpResponse response = HttpResponse::jsonError(429, message);
    response.setHeader("Retry-After", QByteArray::number(qMax(1, decision.retryAfterSeconds)));
    return response;
}

} // namespace berth
