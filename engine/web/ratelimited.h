#pragma once

#include "domain/ratelimit/ratelimiter.h"
#include "http/httpresponse.h"

namespace berth {

// The one 429 of every limit: {"error": message} with Retry-After in whole seconds (at least 1).
HttpResponse rateLimited(const RateDecision &decision, const QString &message = QStringLiteral("Rate limit exceeded"));

} // namespace berth
