#include "domain/common/clock.h"

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
    // Qt::ISODate leaves out milliseconds and writes a UTC time with "Z". Written here digit by digit for the years
    // it covers in that form (listings write one per row; QDateTime::toString formats through printf).
    const QDateTime time = utc.timeSpec() == Qt::UTC ? utc : utc.toUTC();
    const QDate date = time.date();
    const QTime clock = time.time();
    if (date.year() < 0 || date.year() > 9999)
        return time.toString(Qt::ISODate);
    char16_t text[20];
    const auto put = [&text](int at, int value, int count) {
        for (int i = count - 1; i >= 0; --i, value /= 10)
            text[at + i] = char16_t(u'0' + value % 10);
    };
    put(0, date.year(), 4);
    text[4] = u'-';
    put(5, date.month(), 2);
    text[7] = u'-';
    put(8, date.day(), 2);
    text[10] = u'T';
    put(11, clock.hour(), 2);
    text[13] = u':';
    put(14, clock.minute(), 2);
    text[16] = u':';
    put(17, clock.second(), 2);
    text[19] = u'Z';
    return QString(reinterpret_cast<const QChar *>(text), 20);
}

} // namespace berth
