// The QR wrapper: the matrix libqrencode makes, and its terminal text, decode (with zbarimg) to the exact text.
#include "qrscan.h"

#include <QTest>
#include <qr/qrcode.h>

using namespace Qt::StringLiterals;
using berth::QrCode;
using berth::test::QrScan::decodeHalfBlocks;

class TestQrCode : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void smallestSymbol()
    {
        const auto code = QrCode::encode(u"http://a.test/"_s);
        QVERIFY(code);
        QCOMPARE(code->size(), 21); // version 1 holds 14 bytes at level M
        // The finder pattern's corner module is dark; outside the symbol is the light quiet zone.
        QVERIFY(code->isDark(0, 0));
        QVERIFY(!code->isDark(-1, 0));
        QVERIFY(!code->isDark(21, 20));
    }

    void halfBlocksDecode_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("site") << u"http://blog.localhost:8080"_s;
        QTest::newRow("share link") << u"https://notes.example.test/?_token=AbC-123_xyz987QWERTYuiop"_s;
        QTest::newRow("lan port") << u"http://192.168.1.20:8101/"_s;
        QTest::newRow("long") << u"https://a-rather-long-site-name.example.test/?_token="_s + QString(200, u'k');
    }

    void halfBlocksDecode()
    {
        QFETCH(QString, text);
        const auto code = QrCode::encode(text);
        QVERIFY(code);
        const QString blocks = code->toHalfBlocks();
        // Quiet zone included: every line is size + 8 modules wide, two rows of modules per line.
        const QStringList lines = blocks.split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.first().size(), code->size() + 2 * QrCode::kQuietZone);
        QCOMPARE(lines.size(), (code->size() + 2 * QrCode::kQuietZone + 1) / 2);
        QCOMPARE(lines.first(), QString(lines.first().size(), QChar(0x2588))); // the top of the quiet zone
        QCOMPARE(decodeHalfBlocks(blocks), std::optional<QString>(text));
    }

    void tooLong() { QVERIFY(!QrCode::encode(QString(4000, u'x'))); }
};

QTEST_GUILESS_MAIN(TestQrCode)
#include "tst_qrcode.moc"
