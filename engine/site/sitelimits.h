#pragma once

#include <QtGlobal>

namespace berth {

// What a visitor may send to a site, in one place (the per-address rate limits are in domain/ratelimits.h). The
// front door refuses a larger body with 413 from the request's head, before reading it.
inline constexpr qint64 kMaxSubmissionBytes = 10 * 1024; // POST /_submit
inline constexpr qint64 kMaxSiteBodyBytes = 64 * 1024; // any other request to a site (its files never read one)
// An Accept-Encoding longer than this, or with more items (empty ones not counted), is disregarded: the file is sent
// as it is. Browsers send a few dozen bytes; the bound keeps its parse on the serving thread short.
inline constexpr qsizetype kMaxAcceptEncodingBytes = 1024;
inline constexpr int kMaxAcceptEncodingItems = 32;
// Password checks of the private gates waiting for a worker (site/gatechecks.h), per site and for all sites together.
// Beyond either bound the attempt is answered 503 with Retry-After: kGateBusyRetrySeconds, and no check is made.
inline constexpr int kMaxGateChecksQueuedPerSite = 8;
inline constexpr int kMaxGateChecksQueued = 32;
inline constexpr int kGateBusyRetrySeconds = 2;

} // namespace berth
