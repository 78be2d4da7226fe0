#pragma once

#include <QtGlobal>

namespace berth {

// One limit: at most `limit` requests in any `windowMs` per key.
struct RateRule
{
    int limit = 0;
    qint64 windowMs = 0;
};

// Every rate limit of the service, in one place (docs/configuration.md). Keys are per client IP unless noted.
// Each is asked through RateLimitService: counted by this server alone, or with shared limits by all on the database.
namespace RateLimits {

constexpr qint64 kMinuteMs = 60'000;

constexpr RateRule kSubmitPerIp {10, kMinuteMs}; // POST /_submit
constexpr RateRule kCounterIncrementsPerIp {60, kMinuteMs}; // POST /_counter/:name/increment
constexpr RateRule kPasswordAttemptsPerIp {10, kMinuteMs}; // the password gate of a private site
constexpr RateRule kPasswordAttemptsPerSite {30, kMinuteMs}; // the same, per site: all addresses together
constexpr RateRule kAuthSession {5, kMinuteMs}; // POST /auth/session
constexpr RateRule kAuthOtp {3, kMinuteMs}; // POST /auth/otp
constexpr RateRule kAuthVerify {10, kMinuteMs}; // POST /auth/verify
constexpr RateRule kAuthLogin {30, kMinuteMs}; // GET /auth/login
constexpr int kDefaultApiRequestsPerMinute = 300; // management API, per API key (configurable)

} // namespace RateLimits
} // namespace berth
