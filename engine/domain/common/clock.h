#pragma once

#include <QDateTime>
#include <QMutex>
#include <QString>

namespace berth {

// The time, injected so that tests advance it instead of sleeping (rate limits, daily limits, expiries).
class Clock
{
public:
    virtual ~Clock() = default;
    virtual QDateTime now() const = 0; // UTC
};

class SystemClock final : public Clock
{
public:
    QDateTime now() const override; // UTC, millisecond precision
};

// A clock that moves only when told to; for tests. Safe to read from several threads.
class ManualClock final : public Clock
{
public:
    explicit ManualClock(QDateTime start);

    QDateTime now() const override;
    void advance(qint64 ms);
    void set(QDateTime time);

private:
    mutable QMutex m_mutex;
    QDateTime m_now;
};

// The API's timestamp format: ISO 8601 in UTC with seconds and a "Z", e.g. "2026-11-21T06:00:00Z". Empty for an
// invalid time.
QString isoTimestamp(const QDateTime &utc);

} // namespace berth
