#include "domain/common/clock.h"

#include <QTest>
#include <QTimeZone>

using namespace Qt::StringLiterals;
using namespace berth;

class TestClock final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void systemClockIsUtcNow();
    void manualClock();
    void manualClockConvertsToUtc();
    void isoTimestamp_data();
    void isoTimestamp();
};

void TestClock::systemClockIsUtcNow()
{
    const SystemClock clock;
    const QDateTime now = clock.now();
    QCOMPARE(now.timeSpec(), Qt::UTC);
    QVERIFY(qAbs(now.msecsTo(QDateTime::currentDateTimeUtc())) < 5000);
}

void TestClock::manualClock()
{
    const QDateTime start = QDateTime::fromString(u"2026-11-21T06:00:00Z"_s, Qt::ISODate);
    ManualClock clock(start);
    QCOMPARE(clock.now(), start);
    QCOMPARE(clock.now(), start); // does not move by itself
    clock.advance(1500);
    QCOMPARE(clock.now(), start.addMSecs(1500));
    clock.advance(-500);
    QCOMPARE(clock.now(), start.addSecs(1));
    const QDateTime later = start.addDays(2);
    clock.set(later);
    QCOMPARE(clock.now(), later);

    const Clock &asInterface = clock;
    QCOMPARE(asInterface.now(), later);
}

void TestClock::manualClockConvertsToUtc()
{
    const QDateTime local(QDate(2026, 1, 2), QTime(3, 4, 5), QTimeZone(3600));
    ManualClock clock(local);
    QCOMPARE(clock.now().timeSpec(), Qt::UTC);
    QCOMPARE(clock.now().time(), QTime(2, 4, 5));
}

void TestClock::isoTimestamp_data()
{
    QTest::addColumn<QDateTime>("time");
    QTest::addColumn<QString>("expected");
    QTest::newRow("utc") << QDateTime(QDate(2026, 11, 21), QTime(6, 0), QTimeZone::utc()) << u"2026-11-21T06:00:00Z"_s;
    QTest::newRow("milliseconds dropped")
        << QDateTime(QDate(2026, 11, 21), QTime(6, 0, 1, 999), QTimeZone::utc()) << u"2026-11-21T06:00:01Z"_s;
    QTest::newRow("offset converted") << QDateTime(QDate(2026, 11, 21), QTime(8, 30), QTimeZone(2 * 3600))
                                      << u"2026-11-21T06:30:00Z"_s;
    QTest::newRow("invalid") << QDateTime() << QString();
    QTest::newRow("small fields padded") << QDateTime(QDate(987, 1, 2), QTime(3, 4, 5), QTimeZone::utc())
                                         << u"0987-01-02T03:04:05Z"_s;
    QTest::newRow("last second of a year")
        << QDateTime(QDate(2026, 12, 31), QTime(23, 59, 59, 1), QTimeZone::utc()) << u"2026-12-31T23:59:59Z"_s;
    const QDateTime far(QDate(12026, 5, 6), QTime(7, 8, 9), QTimeZone::utc()); // beyond four digits: Qt's own form
    QTest::newRow("five-digit year") << far << far.toString(Qt::ISODate);
}

void TestClock::isoTimestamp()
{
    QFETCH(QDateTime, time);
    QFETCH(QString, expected);
    QCOMPARE(berth::isoTimestamp(time), expected);
}

QTEST_APPLESS_MAIN(TestClock)
#include "tst_clock.moc"
