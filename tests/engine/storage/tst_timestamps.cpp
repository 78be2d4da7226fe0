#include "storage/timestamps.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;

class TestTimestamps final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void writesUtcWithMillisecondsAndZ()
    {
        const QDateTime local(QDate(2024, 3, 10), QTime(12, 34, 56, 7), Qt::OffsetFromUTC, 5 * 3600);
        QCOMPARE(toStorageTime(local), u"2024-03-10T07:34:56.007Z"_s);
    }

    void readsBackAsUtc()
    {
        const QDateTime time = fromStorageTime(u"2024-03-10T07:34:56.007Z"_s);
        QVERIFY(time.isValid());
        QCOMPARE(time.timeSpec(), Qt::UTC);
        QCOMPARE(time, QDateTime(QDate(2024, 3, 10), QTime(7, 34, 56, 7), Qt::UTC));
    }

    void roundTripsNow()
    {
        const QDateTime now = QDateTime::currentDateTimeUtc();
        QCOMPARE(fromStorageTime(toStorageTime(now)), now);
    }

    void sortsAsTextInTimeOrder()
    {
        const QDateTime earlier(QDate(2023, 12, 31), QTime(23, 59, 59, 999), Qt::UTC);
        QVERIFY(toStorageTime(earlier) < toStorageTime(earlier.addMSecs(1)));
    }

    void nullMapsToNull()
    {
        QVERIFY(toStorageTime(QDateTime()).isNull());
        QVERIFY(!fromStorageTime(QString()).isValid());
        QVERIFY(!fromStorageTime(u"not a time"_s).isValid());
    }

    void readsOtherIsoFormsAndRefusesImpossibleDates()
    {
        QCOMPARE(fromStorageTime(u"2024-03-10T07:34:56Z"_s), QDateTime(QDate(2024, 3, 10), QTime(7, 34, 56), Qt::UTC));
        QCOMPARE(fromStorageTime(u"2024-03-10T08:34:56.007+01:00"_s),
            QDateTime(QDate(2024, 3, 10), QTime(7, 34, 56, 7), Qt::UTC));
        QVERIFY(!fromStorageTime(u"2024-02-30T07:34:56.007Z"_s).isValid());
        QVERIFY(!fromStorageTime(u"2024-03-10T25:34:56.007Z"_s).isValid());
        QVERIFY(!fromStorageTime(u"2024-03-1xT07:34:56.007Z"_s).isValid());
    }
};

QTEST_APPLESS_MAIN(TestTimestamps)
#include "tst_timestamps.moc"
