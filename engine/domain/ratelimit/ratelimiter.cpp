#include "domain/ratelimit/ratelimiter.h"

#include "domain/common/clock.h"

#include <QMutexLocker>
#include <algorithm>
#include <vector>

namespace berth {

namespace {
constexpr qint64 kSweepIntervalMs = 60'000; // how often idle keys are looked for, at most
constexpr int kEvictionDivisor = 8; // a full table evicts its least recently used eighth at once

int secondsUntil(qint64 ms)
{
    return int(std::max<qint64>(1, (ms + 999) / 1000));
}
} // namespace

RateLimiter::RateLimiter(const Clock &clock, int maxKeys)
    : m_clock(clock)
    , m_maxKeys(std::max(1, maxKeys))
{
}

RateDecision RateLimiter::hit(const QString &key, int limit, qint64 windowMs)
{
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    const QMutexLocker locker(&m_mutex);
    if (now - m_lastSweep >= kSweepIntervalMs)
        sweepIdle(now);

    auto it = m_entries.find(key);
    if (it == m_entries.end()) {
        if (m_entries.size() >= m_maxKeys)
            makeRoom(now);
        it = m_entries.insert(key, Entry());
    }
    Entry &entry = it.value();
    entry.windowMs = windowMs;
    entry.lastSeen = now;
    while (!entry.hits.empty() && entry.hits.front() <= now - windowMs)
        entry.hits.pop_front();
    // A lowered limit (a setting changed at run time) may leave more hits than it allows: keep only the newest.
    while (entry.hits.size() > size_t(std::max(0, limit)))
        entry.hits.pop_front();

    if (int(entry.hits.size()) >= limit) {
        if (entry.hits.empty()) // limit 0: nothing is ever allowed
            return {false, secondsUntil(windowMs)};
        return {false, secondsUntil(entry.hits.front() + windowMs - now)};
    }
    entry.hits.push_back(now);
    return {true, 0};
}

int RateLimiter::keyCount() const
{
    const QMutexLocker locker(&m_mutex);
    return int(m_entries.size());
}

void RateLimiter::sweepIdle(qint64 now)
{
    m_lastSweep = now;
    m_entries.removeIf([now](QHash<QString, Entry>::iterator item) {
        const Entry &entry = item.value();
        return entry.hits.empty() || entry.hits.back() <= now - entry.windowMs;
    });
}

void RateLimiter::makeRoom(qint64 now)
{
    sweepIdle(now);
    if (m_entries.size() < m_maxKeys)
        return;
    // Still full of live keys: forget the least recently seen ones. Evicting a batch keeps this O(n) scan rare.
    std::vector<qint64> seen;
    seen.reserve(size_t(m_entries.size()));
    for (const Entry &entry : std::as_const(m_entries))
        seen.push_back(entry.lastSeen);
    const size_t evict = std::max<size_t>(1, seen.size() / kEvictionDivisor);
    std::nth_element(seen.begin(), seen.begin() + qsizetype(evict - 1), seen.end());
    const qint64 threshold = seen[evict - 1];
    size_t removed = 0;
    m_entries.removeIf([&](QHash<QString, Entry>::iterator item) {
        if (removed >= evict || item.value().lastSeen > threshold)
            return false;
        ++removed;
        return true;
    });
}

} // namespace berth
