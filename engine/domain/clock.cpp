#include "clock.h"

#include <QMutexLocker>

namespace berth {

QDateTime SystemClock::now() const
{
    return QDateTime::currentDateTimeUtc();
}

ManualClock::ManualClock(QDateTime start)
    : m_now(start.toUTC())
{
}

QDateTime ManualClock::now() const
{
    const QMutexLocker locker(&m_mutex);
    return m_now;
}

void ManualClock::advance(qint64 ms)
{
    const QMutexLocker locker(&m_mutex);
    m_now = m_now.addMSecs(ms);
}

void ManualClock::set(QDateTime time)
{
    const QMutexLocker locker(&m_mutex);
    m_now = time.toUTC();
}

QString isoTimestamp(const QDateTime &utc)
{
    if (!utc.isValid())
        return {};
    // Qt::ISODate leaves out milliseconds and writes a UTC time with "Z".
    return utc.toUTC().toString(Qt::ISODate);
}

} // namespace berth
