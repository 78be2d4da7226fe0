// What one site can do to its siblings under the shared site domain, over real HTTP: access cookies a sibling
// plants for the whole domain never hide a visitor's own, over HTTPS the cookie is "__Host-" (which no sibling can
// set), and a _headers file cannot send Clear-Site-Data, connection or framing headers, or (on a private site) a
// cache policy that CDNs read before Cache-Control.
#include "common/deployfiles.h"
#include "engine/http/rawclient.h"
#include "enginefixture.h"

#include <QJsonArray>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::base64File;
using berth::test::EngineFixture;
using berth::test::RawClient;
using berth::test::RawResponse;

class TestSiblingSites : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineFixture> m_fixture;
    QByteArray m_siteDomain; // the Host suffix sites are reached under

    berth::test::TestReply deploy(const QString &slug, const QJsonArray &files, bool protect)
    {
        QJsonObject body {{u"slug"_s, slug}, {u"files"_s, files}};
        if (protect)
            body.insert(u"protect"_s, true);
        return m_fixture->deployAsOwner(body);
    }
    RawResponse get(const QString &slug, const QByteArray &target, const QByteArray &headers = {})
    {
        RawClient client;
        RawResponse response;
        if (!client.connectTo(m_fixture->client().port()))
            return response;
        client.send(
            "GET " + target + " HTTP/1.1\r\nHost: " + slug.toLatin1() + '.' + m_siteDomain + "\r\n" + headers + "\r\n");
        client.waitResponse(&response, false, 30000);
        return response;
    }
    // The Set-Cookie a share link answers with.
    QByteArray shareCookie(const QString &slug, const berth::test::TestReply &deployed)
    {
        const QUrl share(deployed.json()[u"share_url"_s].toString());
        const RawResponse redirect
            = get(slug, share.path(QUrl::FullyEncoded).toLatin1() + '?' + share.query(QUrl::FullyEncoded).toLatin1());
        return redirect.header("set-cookie");
    }
    static QByteArray nameAndValue(const QByteArray &setCookie) { return setCookie.left(setCookie.indexOf(';')); }
    static QJsonArray privateFiles() { return {base64File(u"index.html"_s, "inside")}; }

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<EngineFixture>();
        QVERIFY(m_fixture->start());
        m_siteDomain = "localhost:" + QByteArray::number(m_fixture->client().port());
    }
    void cleanup() { m_fixture.reset(); }

    void aPlantedCookieNeverHidesTheVisitorsOwn()
    {
        const QByteArray own
            = nameAndValue(shareCookie(u"secret-site"_s, deploy(u"secret-site"_s, privateFiles(), true)));
        QVERIFY(own.startsWith("berth_access="));
        // A sibling's script set "berth_access=tossed; Domain=<site domain>": browsers send both, in either order,
        // in one Cookie field or (through a proxy) in several.
        QCOMPARE(get(u"secret-site"_s, "/", "Cookie: berth_access=tossed; " + own + "\r\n").status, 200);
        QCOMPARE(get(u"secret-site"_s, "/", "Cookie: berth_access=tossed\r\nCookie: " + own + "\r\n").status, 200);
        QCOMPARE(get(u"secret-site"_s, "/", "Cookie: " + own + "; berth_access=tossed\r\n").body, QByteArray("inside"));
        // A sibling's own valid cookie opens nothing here.
        const QByteArray sibling
            = nameAndValue(shareCookie(u"other-site"_s, deploy(u"other-site"_s, privateFiles(), true)));
        QCOMPARE(get(u"secret-site"_s, "/", "Cookie: " + sibling + "; berth_access=x\r\n").status, 403);
    }

    void cookieValuesTriedAreBounded()
    {
        const QByteArray own
            = nameAndValue(shareCookie(u"secret-site"_s, deploy(u"secret-site"_s, privateFiles(), true)));
        QByteArray planted;
        for (int i = 0; i < 7; ++i)
            planted += "berth_access=" + QByteArray::number(1999999999 + i) + ".forged; ";
        QCOMPARE(get(u"secret-site"_s, "/", "Cookie: " + planted + own + "\r\n").status, 200); // the 8th value
        // A hundred values cost no more than eight signature checks: past them, nothing more is tried.
        QByteArray many;
        for (int i = 0; i < 100; ++i)
            many += "berth_access=" + QByteArray::number(1999999999 + i) + ".forged; ";
        QCOMPARE(get(u"secret-site"_s, "/", "Cookie: " + many + own + "\r\n").status, 403);
    }

    void overHttpsTheCookieIsHostPrefixed()
    {
        m_fixture.reset();
        m_fixture = std::make_unique<EngineFixture>();
        berth::EngineSettings settings;
        settings.baseUrl = u"https://berth.example.test"_s; // behind a TLS proxy
        settings.siteDomain = u"sites.example.test"_s;
        QVERIFY(m_fixture->start(settings));
        m_siteDomain = "sites.example.test";

        const QByteArray setCookie = shareCookie(u"secret-site"_s, deploy(u"secret-site"_s, privateFiles(), true));
        QVERIFY2(setCookie.startsWith("__Host-berth_access="), setCookie.constData());
        QVERIFY(setCookie.contains("; Secure"));
        QVERIFY(setCookie.contains("; Path=/"));
        QVERIFY(!setCookie.toLower().contains("domain="));
        const QByteArray own = nameAndValue(setCookie);
        QCOMPARE(get(u"secret-site"_s, "/", "Cookie: berth_access=tossed; " + own + "\r\n").status, 200);
        // A cookie issued before, under the plain name, still counts.
        const QByteArray plain = own.mid(int(sizeof("__Host-") - 1));
        QVERIFY(plain.startsWith("berth_access="));
        QCOMPARE(get(u"secret-site"_s, "/", "Cookie: " + plain + "\r\n").status, 200);
        QCOMPARE(get(u"secret-site"_s, "/", "Cookie: __Host-berth_access=1999999999.forged\r\n").status, 403);
    }

    void headersCannotReachPastTheSite_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::newRow("Clear-Site-Data") << QByteArray("Clear-Site-Data: \"cookies\"");
        QTest::newRow("Proxy-Connection") << QByteArray("Proxy-Connection: close");
        QTest::newRow("TE") << QByteArray("TE: trailers");
        QTest::newRow("Host") << QByteArray("Host: evil.example");
        QTest::newRow("Status") << QByteArray("Status: 200");
        QTest::newRow("Keep-Alive") << QByteArray("Keep-Alive: timeout=600");
        QTest::newRow("Connection") << QByteArray("Connection: close");
        QTest::newRow("Content-Length") << QByteArray("Content-Length: 0");
        QTest::newRow("Transfer-Encoding") << QByteArray("Transfer-Encoding: chunked");
        QTest::newRow("Upgrade") << QByteArray("Upgrade: websocket");
        QTest::newRow("Trailer") << QByteArray("Trailer: X-Sum");
    }
    void headersCannotReachPastTheSite()
    {
        QFETCH(QByteArray, line);
        const auto reply = deploy(u"rules-site"_s,
            QJsonArray {
                base64File(u"index.html"_s, "home"), base64File(u"_headers"_s, "/*\n  " + line + "\n  X-Fine: yes\n")},
            false);
        QCOMPARE(reply.status, 200);
        const QJsonArray warnings = reply.json()[u"warnings"_s].toArray();
        QCOMPARE(warnings.size(), 1);
        const QString name = QString::fromLatin1(line.left(line.indexOf(':')));
        QVERIFY2(warnings.first().toString().startsWith(u"_headers line 2: "_s + name + u' '),
            qPrintable(warnings.first().toString()));
        const RawResponse page = get(u"rules-site"_s, "/");
        QCOMPARE(page.status, 200);
        QCOMPARE(page.header("x-fine"), QByteArray("yes"));
        // Berth may send some of these names itself (Connection, Content-Length), never with the file's value.
        const QByteArray lower = name.toLower().toLatin1();
        QVERIFY(page.count(lower) <= 1);
        QVERIFY2(!page.header(lower).contains(line.mid(line.indexOf(':') + 2)), page.header(lower).constData());
    }

    void privateSiteSendsNoCdnCachePolicy()
    {
        const QByteArray headers = "/*\n"
                                   "  CDN-Cache-Control: public, max-age=86400\n"
                                   "  Cloudflare-CDN-Cache-Control: max-age=86400\n"
                                   "  Surrogate-Control: max-age=86400\n"
                                   "  Expires: Thu, 01 Jan 2037 00:00:00 GMT\n"
                                   "  Pragma: public\n"
                                   "  Cache-Control: public, max-age=86400\n"
                                   "  X-Frame-Options: DENY\n";
        const QJsonArray files {base64File(u"index.html"_s, "inside"), base64File(u"_headers"_s, headers)};
        const auto reply = deploy(u"private-rules"_s, files, true);
        QCOMPARE(reply.status, 200);
        QVERIFY2(!reply.json().contains(u"warnings"_s), reply.body.constData());
        const QByteArray cookie = "Cookie: " + nameAndValue(shareCookie(u"private-rules"_s, reply)) + "\r\n";
        const RawResponse page = get(u"private-rules"_s, "/", cookie);
        QCOMPARE(page.status, 200);
        QCOMPARE(page.body, QByteArray("inside"));
        QCOMPARE(page.header("cache-control"), QByteArray("private, no-store"));
        for (const QByteArray name :
            {"cdn-cache-control", "cloudflare-cdn-cache-control", "surrogate-control", "expires", "pragma"})
            QVERIFY2(page.count(name) == 0, name.constData());
        QCOMPARE(page.header("x-frame-options"), QByteArray("DENY"));

        // A public site may tell its CDN what it likes.
        QCOMPARE(deploy(u"public-rules"_s, files, false).status, 200);
        const RawResponse open = get(u"public-rules"_s, "/");
        QCOMPARE(open.header("cdn-cache-control"), QByteArray("public, max-age=86400"));
        QCOMPARE(open.header("cloudflare-cdn-cache-control"), QByteArray("max-age=86400"));
        QCOMPARE(open.header("surrogate-control"), QByteArray("max-age=86400"));
        QCOMPARE(open.header("expires"), QByteArray("Thu, 01 Jan 2037 00:00:00 GMT"));
    }
};

QTEST_GUILESS_MAIN(TestSiblingSites)
#include "tst_siblingsites.moc"
