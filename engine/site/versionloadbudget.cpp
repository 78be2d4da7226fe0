#include "site/versionloadbudget.h"

#include "domain/common/clock.h"

#include <QDateTime>

namespace berth {

VersionLoadBudget::VersionLoadBudget(const Clock &clock)
    : m_clock(clock)
{
}

bool VersionLoadBudget::take()
{
    const qint64 second = m_clock.now().toSecsSinceEpoch();
    qint64 seen = m_second.load(std::memory_order_relaxed);
    if (seen != second && m_second.compare_exchange_strong(seen, second, std::memory_order_relaxed))
        m_used.store(0, std::memory_order_relaxed);
    return m_used.fetch_add(1, std::memory_order_relaxed) < kPerSecond;
}

} // namespace berth
