#pragma once

#include "http/httprequest.h"

#include <QMutex>
#include <array>
#include <atomic>
#include <list>

namespace berth {

// Answered requests summed over every serving thread: by kind and status class, their durations as a histogram,
// and the bytes sent. Indexes: kind by RequestKind, class 0 for 1xx up to 4 for 5xx.
struct RequestTotals
{
    static constexpr int kKinds = 4;
    static constexpr int kStatusClasses = 5;
    // Upper bounds of the duration buckets, in seconds; a last bucket (+Inf) takes the rest.
    static constexpr std::array<double, 12> kBucketSeconds {
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5};
    static constexpr int kBuckets = int(kBucketSeconds.size()) + 1;

    std::array<std::array<quint64, kStatusClasses>, kKinds> requests {};
    std::array<std::array<quint64, kBuckets>, kKinds> durations {}; // per bucket, not cumulative
    std::array<quint64, kKinds> durationNanos {};
    std::array<quint64, kKinds> bytesSent {};
};

// One serving thread's counts. Only that thread writes them, so an increment is a relaxed load and store (no locked
// instruction, no lock); any thread may read them at any time. Aligned to a cache line of its own, so that two
// threads' counting never shares one.
class alignas(64) RequestCounters final
{
public:
    RequestCounters() = default;
    Q_DISABLE_COPY_MOVE(RequestCounters)

    // On the owning thread only. durationNanos: from the request's head to the start of its answer.
    void count(RequestKind kind, int status, qint64 durationNanos, qint64 bytesSent);
    // From any thread.
    void addTo(RequestTotals &totals) const;

private:
    using Counter = std::atomic<quint64>;
    static void add(Counter &counter, quint64 amount)
    {
        counter.store(counter.load(std::memory_order_relaxed) + amount, std::memory_order_relaxed);
    }

    std::array<std::array<Counter, RequestTotals::kStatusClasses>, RequestTotals::kKinds> m_requests {};
    std::array<std::array<Counter, RequestTotals::kBuckets>, RequestTotals::kKinds> m_durations {};
    std::array<Counter, RequestTotals::kKinds> m_durationNanos {};
    std::array<Counter, RequestTotals::kKinds> m_bytesSent {};
};

// Every serving thread's counters: a slot for each thread as it starts, summed when someone asks.
class RequestMetrics final
{
public:
    RequestMetrics() = default;
    Q_DISABLE_COPY_MOVE(RequestMetrics)

    // A new thread's counters, alive as long as this object.
    RequestCounters *newThreadCounters();
    RequestTotals totals() const;

private:
    mutable QMutex m_mutex; // guards the list only: taken when a thread starts and when the totals are read
    std::list<RequestCounters> m_counters; // stable addresses; only ever added to
};

} // namespace berth
