// Base64::decode against Qt's strict decoder, which it replaces on the deploy path for speed: the same answer for
// every text, valid or not.
#include "domain/deploy/base64decoder.h"

#include <QRandomGenerator>
#include <QTest>

using namespace berth;

namespace {

// What the deploy path accepted before Base64::decode: Qt's decoder with AbortOnBase64DecodingErrors.
std::optional<QByteArray> qtDecode(const QByteArray &text)
{
    auto result
        = QByteArray::fromBase64Encoding(text, QByteArray::Base64Encoding | QByteArray::AbortOnBase64DecodingErrors);
    if (!result)
        return std::nullopt;
    return result.decoded;
}

} // namespace

class TestBase64Decoder : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void decodesWhatQtEncodes()
    {
        QRandomGenerator random(7);
        for (qsizetype size = 0; size < 200; ++size) {
            QByteArray bytes(size, Qt::Uninitialized);
            for (char &byte : bytes)
                byte = char(random.bounded(256));
            const QByteArray::Base64Options padded = QByteArray::Base64Encoding;
            for (const QByteArray::Base64Options options : {padded, padded | QByteArray::OmitTrailingEquals}) {
                const QByteArray text = bytes.toBase64(options);
                QCOMPARE(Base64::decode(QByteArrayView(text)), std::optional<QByteArray>(bytes));
                QCOMPARE(Base64::decode(QString::fromLatin1(text)), std::optional<QByteArray>(bytes));
            }
        }
    }

    void agreesWithQtOnEdgeCases_data()
    {
        QTest::addColumn<QByteArray>("text");
        for (const char *text : {"", "Q", "QQ", "QQ=", "QQ==", "QQ===", "QR==", "QUI", "QUI=", "QUJD", "QUJD=", "QU=I",
                 "Q===", "=", "==", "QQ==QQ==", "QUJDRA", "QUJDRA==", "QUJDR", "QUJDR=", "QU JD", "QUJ-", "QUJ_",
                 "QUJ.", "QUJD\n", "\0QUJ", "////", "++++", "QUJD====", "A=B="})
            QTest::newRow(text) << QByteArray(text);
    }
    void agreesWithQtOnEdgeCases()
    {
        QFETCH(QByteArray, text);
        QCOMPARE(Base64::decode(QByteArrayView(text)), qtDecode(text));
        QCOMPARE(Base64::decode(QString::fromLatin1(text)), qtDecode(text));
    }

    void agreesWithQtOnRandomTexts()
    {
        // Short texts over the alphabet's edges, padding and a few strangers, so that every branch is met often.
        const char pool[] = "AZaz09+/=-_ .\n\xff";
        QRandomGenerator random(11);
        int accepted = 0;
        for (int round = 0; round < 20000; ++round) {
            QByteArray text(random.bounded(13), Qt::Uninitialized);
            for (char &c : text)
                c = pool[random.bounded(int(sizeof(pool) - 1))];
            const std::optional<QByteArray> expected = qtDecode(text);
            QCOMPARE(Base64::decode(QByteArrayView(text)), expected);
            accepted += expected.has_value();
        }
        QVERIFY(accepted > 1000); // the texts are not all refusals
    }

    void refusesCharactersBeyondLatin1()
    {
        QCOMPARE(Base64::decode(u"QUJD"_qs), std::optional<QByteArray>("ABC"));
        // U+0141 ('Ł') and U+0241 share their low byte with 'A' (0x41): still refused, not read as 'A'.
        QCOMPARE(Base64::decode(QStringView(u"QUJ\u0141")), std::nullopt);
        QCOMPARE(Base64::decode(QStringView(u"\u0241UJD")), std::nullopt);
    }
};

QTEST_GUILESS_MAIN(TestBase64Decoder)
#include "tst_base64decoder.moc"
