#pragma once

#include "domain/ratelimit/ratelimits.h"

#include <QHash>
#include <QMutex>
#include <QString>
#include <deque>

namespace berth {

class Clock;

// What the limiter says of one request: proceed, or wait this many whole seconds (the Retry-After value).
struct RateDecision
{
    bool allowed = true;
    int retryAfterSeconds = 0;
};

// The one rate limiter behind every limit (site endpoints, password gate, auth endpoints, management API).
//
// An exact sliding window per key: a key keeps the times of its accepted hits within the window, so "at most
// `limit` in any `windowMs`" holds precisely and Retry-After is the moment the oldest hit leaves the window.
// Refused hits are not recorded, so a client that waits Retry-After seconds is let through. Memory is bounded:
// at most maxKeys keys (each holding at most `limit` times); idle keys are swept out as time passes and, when
// the table is full anyway, the least recently used keys make room. In memory only: a restart forgets.
class RateLimiter final
{
public:
    explicit RateLimiter(const Clock &clock, int maxKeys = 100000);
    Q_DISABLE_COPY_MOVE(RateLimiter)

    // Counts this request against (key, limit per window) and says whether it may proceed. Thread-safe.
    RateDecision hit(const QString &key, int limit, qint64 windowMs);
    RateDecision hit(const QString &key, const RateRule &rule) { return hit(key, rule.limit, rule.windowMs); }

    int keyCount() const; // keys currently tracked

private:
    struct Entry
    {
        std::deque<qint64> hits; // accepted hits within the window, oldest first (ms since the epoch)
        qint64 windowMs = 0;
        qint64 lastSeen = 0;
    };

    void sweepIdle(qint64 now);
    void makeRoom(qint64 now);

    const Clock &m_clock;
    const int m_maxKeys;
    mutable QMutex m_mutex;
    QHash<QString, Entry> m_entries;
    qint64 m_lastSweep = 0;
};

} // namespace berth
