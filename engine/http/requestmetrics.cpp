#include "http/requestmetrics.h"

namespace berth {

namespace {

// The bucket bounds in nanoseconds, so that a request's bucket is found with integer comparisons.
constexpr std::array<qint64, RequestTotals::kBucketSeconds.size()> bucketNanos()
{
    std::array<qint64, RequestTotals::kBucketSeconds.size()> bounds {};
    for (std::size_t i = 0; i < bounds.size(); ++i)
        bounds[i] = qint64(RequestTotals::kBucketSeconds[i] * 1e9);
    return bounds;
}
constexpr auto kBucketNanos = bucketNanos();

} // namespace

void RequestCounters::count(RequestKind kind, int status, qint64 durationNanos, qint64 bytesSent)
{
    const auto k = std::size_t(kind);
    const auto statusClass = std::size_t(qBound(0, status / 100 - 1, RequestTotals::kStatusClasses - 1));
    std::size_t bucket = 0;
    while (bucket < kBucketNanos.size() && durationNanos > kBucketNanos[bucket])
        ++bucket;
    add(m_requests[k][statusClass], 1);
    add(m_durations[k][bucket], 1);
    add(m_durationNanos[k], quint64(qMax<qint64>(0, durationNanos)));
    add(m_bytesSent[k], quint64(qMax<qint64>(0, bytesSent)));
}

void RequestCounters::addTo(RequestTotals &totals) const
{
    for (int k = 0; k < RequestTotals::kKinds; ++k) {
        for (int c = 0; c < RequestTotals::kStatusClasses; ++c)
            totals.requests[k][c] += m_requests[k][c].load(std::memory_order_relaxed);
        for (int b = 0; b < RequestTotals::kBuckets; ++b)
            totals.durations[k][b] += m_durations[k][b].load(std::memory_order_relaxed);
        totals.durationNanos[k] += m_durationNanos[k].load(std::memory_order_relaxed);
        totals.bytesSent[k] += m_bytesSent[k].load(std::memory_order_relaxed);
    }
}

RequestCounters *RequestMetrics::newThreadCounters()
{
    const QMutexLocker locker(&m_mutex);
    return &m_counters.emplace_back();
}

RequestTotals RequestMetrics::totals() const
{
    RequestTotals totals;
    const QMutexLocker locker(&m_mutex);
    for (const RequestCounters &counters : m_counters)
        counters.addTo(totals);
    return totals;
}

} // namespace berth
