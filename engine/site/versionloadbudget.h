#pragma once

#include <QtGlobal>
#include <atomic>

namespace berth {

class Clock;

// How often visitors may make the engine's thread read a version's files from the database: at most kPerSecond
// loads in each second of the clock, for all visitors together. Versions already in memory cost nothing; this bounds
// what asking for many versions, or for versions that do not exist, can cost the engine. Taken on serving threads,
// without a lock: two threads crossing into a new second at once may let a few more through, which is harmless.
class VersionLoadBudget final
{
public:
    static constexpr int kPerSecond = 20;
    static constexpr int kRetryAfterSeconds = 1;

    explicit VersionLoadBudget(const Clock &clock);
    // Whether one more load fits in this second.
    bool take();

private:
    const Clock &m_clock;
    std::atomic<qint64> m_second {-1};
    std::atomic<int> m_used {0};
};

} // namespace berth
