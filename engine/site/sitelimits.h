#pragma once

#include <QtGlobal>

namespace berth {

// What a visitor may send to a site, in one place (the per-address rate limits are in domain/ratelimits.h). The
// front door refuses a larger body with 413 from the request's head, before reading it.
inline constexpr qint64 kMaxSubmissionBytes = 10 * 1024; // POST /_submit
inline constexpr qint64 kMaxSiteBodyBytes = 64 * 1024; // any other request to a site (its files never read one)

} // namespace berth
