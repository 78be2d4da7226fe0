// Parsing of a single Range header against a file size.
#include "site/byterange.h"

#include <QTest>

using berth::ByteRange;

class TestByteRange : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parses_data()
    {
        QTest::addColumn<QByteArray>("header");
        QTest::addColumn<int>("kind");
        QTest::addColumn<qint64>("first");
        QTest::addColumn<qint64>("length");
        const int none = int(ByteRange::Kind::None);
        const int ok = int(ByteRange::Kind::Satisfiable);
        const int bad = int(ByteRange::Kind::Unsatisfiable);
        QTest::newRow("closed") << QByteArray("bytes=0-99") << ok << qint64(0) << qint64(100);
        QTest::newRow("open") << QByteArray("bytes=900-") << ok << qint64(900) << qint64(100);
        QTest::newRow("suffix") << QByteArray("bytes=-10") << ok << qint64(990) << qint64(10);
        QTest::newRow("suffix longer than file") << QByteArray("bytes=-5000") << ok << qint64(0) << qint64(1000);
        QTest::newRow("end clamped") << QByteArray("bytes=500-5000") << ok << qint64(500) << qint64(500);
        QTest::newRow("last byte") << QByteArray("bytes=999-999") << ok << qint64(999) << qint64(1);
        QTest::newRow("start past end") << QByteArray("bytes=1000-") << bad << qint64(0) << qint64(0);
        QTest::newRow("zero suffix") << QByteArray("bytes=-0") << bad << qint64(0) << qint64(0);
        QTest::newRow("reversed") << QByteArray("bytes=50-10") << none << qint64(0) << qint64(0);
        QTest::newRow("several") << QByteArray("bytes=0-1,5-6") << none << qint64(0) << qint64(0);
        QTest::newRow("other unit") << QByteArray("items=0-1") << none << qint64(0) << qint64(0);
        QTest::newRow("garbage") << QByteArray("bytes=a-b") << none << qint64(0) << qint64(0);
        QTest::newRow("negative") << QByteArray("bytes=-1-5") << none << qint64(0) << qint64(0);
        QTest::newRow("huge") << QByteArray("bytes=0-99999999999999999999") << none << qint64(0) << qint64(0);
    }
    void parses()
    {
        QFETCH(QByteArray, header);
        QFETCH(int, kind);
        QFETCH(qint64, first);
        QFETCH(qint64, length);
        const ByteRange range = ByteRange::parse(header, 1000);
        QCOMPARE(int(range.kind), kind);
        if (range.kind == ByteRange::Kind::Satisfiable) {
            QCOMPARE(range.first, first);
            QCOMPARE(range.length, length);
        }
    }

    void contentRange()
    {
        QCOMPARE(ByteRange::parse("bytes=10-19", 100).contentRange(100), QByteArray("bytes 10-19/100"));
        QCOMPARE(ByteRange::parse("bytes=500-", 100).contentRange(100), QByteArray("bytes */100"));
    }
};

QTEST_APPLESS_MAIN(TestByteRange)
#include "tst_byterange.moc"
