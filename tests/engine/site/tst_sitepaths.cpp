// File paths from deploy to request, over real HTTP: invisible characters are refused at deploy with a 400 naming
// the path, names are stored and looked up in Unicode NFC (a decomposed link finds a composed file and the other
// way round, two names equal in NFC are one name), and the password gate's "next" never resolves to another host.
#include "common/deployfiles.h"
#include "enginefixture.h"

#include <QJsonArray>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::base64File;
using berth::test::EngineFixture;
using berth::test::TestReply;

class TestSitePaths : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineFixture> m_fixture;

    TestReply deploy(const QString &slug, const QJsonArray &files, const QJsonObject &extra = {})
    {
        QJsonObject body = extra;
        body.insert(u"slug"_s, slug);
        body.insert(u"files"_s, files);
        return m_fixture->client().api("POST", u"/deploy"_s, m_fixture->ownerKey(), body);
    }
    TestReply request(const QString &slug, const QByteArray &method, const QString &target, const QByteArray &body = {})
    {
        return m_fixture->client().request(
            method, m_fixture->siteHost(slug), target, body, {{"Content-Type", "application/x-www-form-urlencoded"}});
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_fixture = std::make_unique<EngineFixture>();
        QVERIFY(m_fixture->start());
        QCOMPARE(deploy(u"unicode-paths"_s,
                     {base64File(u"index.html"_s, "home"), base64File(u"caf\u00e9.html"_s, "coffee"),
                         base64File(u"\u00e9t\u00e9/index.html"_s, "summer")})
                     .status,
            200);
        QCOMPARE(deploy(u"gated-paths"_s, {base64File(u"index.html"_s, "inside")},
                     {{u"protect"_s, true}, {u"password"_s, u"pw"_s}})
                     .status,
            200);
    }
    void cleanupTestCase() { m_fixture.reset(); }

    // Both ends of every range of Unicode's Default_Ignorable_Code_Point, a few inside, and the line and paragraph
    // separators (tst_filepath checks every single code point).
    void invisibleCharactersAreRefused_data()
    {
        QTest::addColumn<uint>("codePoint");
        const uint codePoints[] = {0xAD, 0x34F, 0x61C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180E, 0x180F, 0x200B,
            0x200F, 0x2028, 0x2029, 0x202A, 0x202E, 0x2060, 0x2064, 0x2065, 0x206F, 0x3164, 0xFE00, 0xFE0F, 0xFEFF,
            0xFFA0, 0xFFF0, 0xFFF8, 0x1BCA0, 0x1BCA3, 0x1D173, 0x1D17A, 0xE0000, 0xE0041, 0xE007F, 0xE0100, 0xE0FFF};
        for (const uint codePoint : codePoints)
            QTest::newRow(qPrintable(u"U+%1"_s.arg(codePoint, 4, 16, QChar(u'0')).toUpper())) << codePoint;
    }
    void invisibleCharactersAreRefused()
    {
        QFETCH(uint, codePoint);
        // Not QString::fromUcs4, which drops a byte order mark.
        const QString hidden = QStringView(QChar::fromUcs4(codePoint)).toString();
        const QString path = u"docs/re"_s + hidden + u"port.html"_s;
        const TestReply reply = deploy(u"invisible-path"_s,
            {base64File(u"index.html"_s, "home"), base64File(path, "hidden"), base64File(u"docs/report.html"_s, "x")});
        QCOMPARE(reply.status, 400);
        const QString error = reply.error();
        QVERIFY2(error.startsWith(u"file path \"docs/re\\"_s), qPrintable(error)); // names the path, escaped
        QVERIFY2(error.contains(u"port.html\" contains an invisible character (U+%1)"_s.arg(
                     QString::number(codePoint, 16).toUpper().rightJustified(4, u'0'))),
            qPrintable(error));
        QVERIFY(!error.contains(hidden));
        QCOMPARE(m_fixture->client().site(u"invisible-path"_s).status, 404); // nothing was published
    }

    void visibleNeighboursAreAccepted()
    {
        // Letters next to the refused ranges, and a variation selector's neighbour, stay usable.
        const QJsonArray files {base64File(u"index.html"_s, "home"), base64File(u"\u00ACnot.html"_s, "not sign"),
            base64File(u"\u1161a.html"_s, "jamo"), base64File(u"\u3163b.html"_s, "hangul"),
            base64File(u"\U0001F600.html"_s, "emoji")};
        const TestReply reply = deploy(u"visible-path"_s, files);
        QCOMPARE(reply.status, 200);
        QCOMPARE(request(u"visible-path"_s, "GET", u"/%C2%ACnot.html"_s).body, QByteArray("not sign"));
        QCOMPARE(request(u"visible-path"_s, "GET", u"/%F0%9F%98%80.html"_s).body, QByteArray("emoji"));
    }

    void aDecomposedRequestFindsAComposedFile_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("decomposed") << u"/cafe%CC%81.html"_s << QByteArray("coffee");
        QTest::newRow("composed") << u"/caf%C3%A9.html"_s << QByteArray("coffee");
        QTest::newRow("decomposed clean URL") << u"/cafe%CC%81"_s << QByteArray("coffee");
        QTest::newRow("decomposed folder") << u"/e%CC%81te%CC%81/"_s << QByteArray("summer");
        QTest::newRow("composed folder") << u"/%C3%A9t%C3%A9/"_s << QByteArray("summer");
    }
    void aDecomposedRequestFindsAComposedFile()
    {
        QFETCH(QString, target);
        QFETCH(QByteArray, body);
        const TestReply response = request(u"unicode-paths"_s, "GET", target);
        QCOMPARE(response.status, 200);
        QCOMPARE(response.body, body);
    }

    void aDecomposedDeployIsStoredComposed()
    {
        const TestReply reply = deploy(u"macos-names"_s,
            {base64File(u"index.html"_s, "home"), base64File(u"cafe\u0301.html"_s, "written on a Mac")});
        QCOMPARE(reply.status, 200);
        QCOMPARE(request(u"macos-names"_s, "GET", u"/caf%C3%A9.html"_s).body, QByteArray("written on a Mac"));
        QCOMPARE(request(u"macos-names"_s, "GET", u"/cafe%CC%81.html"_s).body, QByteArray("written on a Mac"));
        // ASCII paths and what is not a file are as before.
        QCOMPARE(request(u"macos-names"_s, "GET", u"/"_s).body, QByteArray("home"));
        QCOMPARE(request(u"macos-names"_s, "GET", u"/cafe.html"_s).status, 404);
    }

    void twoNamesEqualInNfcAreOneName()
    {
        const TestReply reply = deploy(u"twin-names"_s,
            {base64File(u"index.html"_s, "home"), base64File(u"caf\u00e9.html"_s, "composed"),
                base64File(u"cafe\u0301.html"_s, "decomposed")});
        QCOMPARE(reply.status, 400);
        QVERIFY2(reply.error().contains(u"duplicate file path \"caf\u00e9.html\""_s), qPrintable(reply.error()));
        QCOMPARE(m_fixture->client().site(u"twin-names"_s).status, 404);
    }

    void gateNextIsResolvedBeforeItIsFollowed_data()
    {
        QTest::addColumn<QByteArray>("next"); // as the form posts it
        QTest::addColumn<QByteArray>("location");
        QTest::newRow("dot, encoded slash") << QByteArray("%2F.%252F%2Fevil.example") << QByteArray("/");
        QTest::newRow("dot, slash") << QByteArray("%2F.%2F%2Fevil.example") << QByteArray("/");
        QTest::newRow("dot-dot, slash") << QByteArray("%2Fa%2F..%2F%2Fevil.example") << QByteArray("/");
        QTest::newRow("encoded dot-dot") << QByteArray("%2F%252e%252e%2F%2Fevil.example") << QByteArray("/");
        QTest::newRow("dot, encoded backslash") << QByteArray("%2F.%255C%2Fevil.example") << QByteArray("/");
        QTest::newRow("dot segments on the site") << QByteArray("%2Fa%2F.%2Fb%2F..%2Fc") << QByteArray("/a/./b/../c");
    }
    void gateNextIsResolvedBeforeItIsFollowed()
    {
        QFETCH(QByteArray, next);
        QFETCH(QByteArray, location);
        const TestReply passed = request(u"gated-paths"_s, "POST", u"/_gate"_s, "password=pw&next=" + next);
        QCOMPARE(passed.status, 303);
        QCOMPARE(passed.header("location"), location);
    }
};

QTEST_GUILESS_MAIN(TestSitePaths)
#include "tst_sitepaths.moc"
