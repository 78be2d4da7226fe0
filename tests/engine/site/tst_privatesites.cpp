// Private sites over real HTTP: share links, the access cookie and its scope, the password gate and
// its rate limit, and that changing protection retires old links and cookies.
#include "engine/http/rawclient.h"
#include "enginefixture.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::EngineFixture;
using berth::test::RawClient;
using berth::test::RawResponse;

class TestPrivateSites : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineFixture> m_fixture;

    QJsonObject deploy(const QJsonObject &body) { return m_fixture->deployAsOwner(body).json(); }
    int put(const QString &id, const QJsonObject &body)
    {
        return m_fixture->client().api("PUT", u"/deploy/"_s + id, m_fixture->ownerKey(), body).status;
    }
    RawResponse request(const QString &slug, const QByteArray &method, const QByteArray &target,
        const QByteArray &headers = {}, const QByteArray &body = {},
        const QHostAddress &source = QHostAddress(QHostAddress::LocalHost))
    {
        RawClient client;
        RawResponse response;
        client.socket().bind(source);
        if (!client.connectTo(m_fixture->client().port()))
            return response;
        QByteArray message = method + ' ' + target + " HTTP/1.1\r\nHost: " + slug.toLatin1()
            + ".localhost:" + QByteArray::number(m_fixture->client().port()) + "\r\n" + headers;
        if (!body.isEmpty())
            message += "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: "
                + QByteArray::number(body.size()) + "\r\n";
        client.send(message + "\r\n" + body);
        client.waitResponse(&response, false, 30000);
        return response;
    }
    static QByteArray tokenOf(const QJsonObject &created)
    {
        const QString shareUrl = created[u"share_url"_s].toString();
        return shareUrl.mid(shareUrl.indexOf(u"_token="_s) + 7).toLatin1();
    }
    static QByteArray cookieHeader(const RawResponse &response)
    {
        const QByteArray setCookie = response.header("set-cookie");
        return "Cookie: " + setCookie.left(setCookie.indexOf(';')) + "\r\n";
    }
    static QJsonArray files()
    {
        return {QJsonObject {{u"path"_s, u"index.html"_s}, {u"content"_s, u"<h1>Inside</h1>"_s}},
            QJsonObject {{u"path"_s, u"docs/index.html"_s}, {u"content"_s, u"docs"_s}},
            QJsonObject {{u"path"_s, u"css/site.css"_s}, {u"content"_s, u"h1{}"_s}}};
    }

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<EngineFixture>();
        QVERIFY(m_fixture->start());
    }
    void cleanup() { m_fixture.reset(); }

    void withoutAccessEverythingIs403()
    {
        deploy({{u"slug"_s, u"secret-site"_s}, {u"protect"_s, true}, {u"files"_s, files()}});
        for (const QByteArray target : {"/", "/css/site.css", "/docs/", "/missing"}) {
            const RawResponse response = request(u"secret-site"_s, "GET", target);
            QCOMPARE(response.status, 403);
            QVERIFY(response.body.contains("This site is private"));
            QVERIFY(!response.body.contains("Inside"));
        }
        // The built-in endpoints need the same access as the pages.
        QCOMPARE(request(u"secret-site"_s, "POST", "/_submit", {}, "name=x").status, 403);
        QCOMPARE(request(u"secret-site"_s, "GET", "/?_token=wrong-token").status, 403);
    }

    void shareLinkSetsAHostOnlyCookieAndDropsTheToken()
    {
        const QJsonObject created
            = deploy({{u"slug"_s, u"secret-site"_s}, {u"protect"_s, true}, {u"files"_s, files()}});
        const QByteArray token = tokenOf(created);
        QVERIFY(token.size() >= 22); // at least 128 random bits

        const RawResponse redirect = request(u"secret-site"_s, "GET", "/docs/?x=1&_token=" + token + "&y=2");
        QCOMPARE(redirect.status, 302);
        QCOMPARE(redirect.header("location"), QByteArray("/docs/?x=1&y=2"));
        const QByteArray setCookie = redirect.header("set-cookie");
        QVERIFY(setCookie.startsWith("berth_access="));
        QVERIFY(setCookie.contains("; HttpOnly"));
        QVERIFY(setCookie.contains("; SameSite=Lax"));
        QVERIFY(setCookie.contains("; Path=/"));
        QVERIFY(!setCookie.toLower().contains("domain=")); // host-only: this site alone

        const QByteArray cookie = cookieHeader(redirect);
        QCOMPARE(request(u"secret-site"_s, "GET", "/", cookie).body, QByteArray("<h1>Inside</h1>"));
        QCOMPARE(request(u"secret-site"_s, "GET", "/css/site.css", cookie).status, 200);
        QCOMPARE(request(u"secret-site"_s, "GET", "/", "Cookie: berth_access=1999999999.forged\r\n").status, 403);
    }

    void aCookieOpensNoOtherSite()
    {
        const QJsonObject first = deploy({{u"slug"_s, u"first-secret"_s}, {u"protect"_s, true}, {u"files"_s, files()}});
        deploy({{u"slug"_s, u"second-secret"_s}, {u"protect"_s, true}, {u"files"_s, files()}});
        const QByteArray cookie = cookieHeader(request(u"first-secret"_s, "GET", "/?_token=" + tokenOf(first)));
        QCOMPARE(request(u"first-secret"_s, "GET", "/", cookie).status, 200);
        QCOMPARE(request(u"second-secret"_s, "GET", "/", cookie).status, 403);
        // Nor does a token of one site open another.
        QCOMPARE(request(u"second-secret"_s, "GET", "/?_token=" + tokenOf(first)).status, 403);
    }

    void passwordGate()
    {
        const QJsonObject created = deploy({{u"slug"_s, u"gated-site"_s}, {u"protect"_s, true},
            {u"password"_s, u"open sesame"_s}, {u"files"_s, files()}});
        RawResponse gate = request(u"gated-site"_s, "GET", "/docs/?page=2");
        QCOMPARE(gate.status, 401);
        QVERIFY(gate.body.contains("action=\"/_gate\""));
        QVERIFY(gate.body.contains("name=\"next\" value=\"/docs/?page=2\""));
        QVERIFY(!gate.body.contains("Inside"));

        gate = request(u"gated-site"_s, "POST", "/_gate", {}, "password=wrong&next=%2Fdocs%2F");
        QCOMPARE(gate.status, 401);
        QVERIFY(gate.body.contains("not right"));
        QVERIFY(gate.header("set-cookie").isEmpty());

        const RawResponse passed
            = request(u"gated-site"_s, "POST", "/_gate", {}, "password=open+sesame&next=%2Fdocs%2F");
        QCOMPARE(passed.status, 303);
        QCOMPARE(passed.header("location"), QByteArray("/docs/"));
        QCOMPARE(request(u"gated-site"_s, "GET", "/docs/", cookieHeader(passed)).body, QByteArray("docs"));

        // An offsite "next" never leaves the site.
        const RawResponse offsite
            = request(u"gated-site"_s, "POST", "/_gate", {}, "password=open+sesame&next=%2F%2Fevil.example%2F");
        QCOMPARE(offsite.header("location"), QByteArray("/"));
        // The share link works too, password or not.
        QCOMPARE(request(u"gated-site"_s, "GET", "/?_token=" + tokenOf(created)).status, 302);
    }

    void shareLinkRedirectStaysOnTheSite_data()
    {
        QTest::addColumn<QByteArray>("path");
        QTest::addColumn<QByteArray>("location");
        QTest::newRow("scheme-relative") << QByteArray("//evil.example/") << QByteArray("/");
        QTest::newRow("backslash") << QByteArray("/\\evil.example/") << QByteArray("/");
        QTest::newRow("three slashes") << QByteArray("///evil.example/") << QByteArray("/");
        QTest::newRow("backslash later") << QByteArray("/a\\b") << QByteArray("/");
        QTest::newRow("encoded slashes") << QByteArray("/%2F%2Fevil.example/") << QByteArray("/");
        QTest::newRow("dot, encoded slash") << QByteArray("/.%2F/evil.example/") << QByteArray("/");
        QTest::newRow("a path") << QByteArray("/docs/") << QByteArray("/docs/");
    }
    void shareLinkRedirectStaysOnTheSite()
    {
        QFETCH(QByteArray, path);
        QFETCH(QByteArray, location);
        const QJsonObject created
            = deploy({{u"slug"_s, u"secret-site"_s}, {u"protect"_s, true}, {u"files"_s, files()}});
        const RawResponse redirect = request(u"secret-site"_s, "GET", path + "?_token=" + tokenOf(created));
        QCOMPARE(redirect.status, 302);
        QCOMPARE(redirect.header("location"), location);
        QCOMPARE(request(u"secret-site"_s, "GET", "/", cookieHeader(redirect)).status, 200); // the link still opens
    }

    void gateNextStaysOnTheSite_data()
    {
        QTest::addColumn<QByteArray>("next"); // as the form posts it
        QTest::addColumn<QByteArray>("location");
        QTest::newRow("tab hides a slash") << QByteArray("%2F%09%2Fevil.example") << QByteArray("/");
        QTest::newRow("newline hides a slash") << QByteArray("%2F%0A%2Fevil.example") << QByteArray("/");
        QTest::newRow("header injection") << QByteArray("%2Fa%0D%0ASet-Cookie%3A+x%3D1") << QByteArray("/");
        QTest::newRow("scheme-relative") << QByteArray("%2F%2Fx") << QByteArray("/");
        QTest::newRow("backslash") << QByteArray("%2F%5Cx") << QByteArray("/");
        QTest::newRow("absolute") << QByteArray("http%3A%2F%2Fevil.example%2F") << QByteArray("/");
        QTest::newRow("leading space") << QByteArray("+%2F%2Fx") << QByteArray("/");
        QTest::newRow("NEL") << QByteArray("%2F%C2%85%2Fx") << QByteArray("/");
        QTest::newRow("the gate") << QByteArray("%2F_gate") << QByteArray("/");
        QTest::newRow("encoded tab stays a path") << QByteArray("%2F%2509%2Fx") << QByteArray("/%09/x");
        QTest::newRow("path and query") << QByteArray("%2Fdocs%2F%3Fa%3D1") << QByteArray("/docs/?a=1");
    }
    void gateNextStaysOnTheSite()
    {
        QFETCH(QByteArray, next);
        QFETCH(QByteArray, location);
        deploy({{u"slug"_s, u"gated-site"_s}, {u"protect"_s, true}, {u"password"_s, u"pw"_s}, {u"files"_s, files()}});
        const RawResponse passed = request(u"gated-site"_s, "POST", "/_gate", {}, "password=pw&next=" + next);
        QCOMPARE(passed.status, 303);
        QCOMPARE(passed.header("location"), location);
        // The gate page puts the same value back into its form.
        const RawResponse page = request(u"gated-site"_s, "GET", "//evil.example/");
        QCOMPARE(page.status, 401);
        QVERIFY(page.body.contains("name=\"next\" value=\"/\""));
    }

    void cookieInALaterCookieHeader()
    {
        const QJsonObject created
            = deploy({{u"slug"_s, u"secret-site"_s}, {u"protect"_s, true}, {u"files"_s, files()}});
        const QByteArray cookie = cookieHeader(request(u"secret-site"_s, "GET", "/?_token=" + tokenOf(created)));
        // Proxies split cookies over several fields: the access cookie counts in any of them.
        const RawResponse response
            = request(u"secret-site"_s, "GET", "/", "Cookie: theme=dark\r\n" + cookie + "Cookie: lang=en\r\n");
        QCOMPARE(response.status, 200);
        QCOMPARE(response.body, QByteArray("<h1>Inside</h1>"));
        QCOMPARE(request(u"secret-site"_s, "GET", "/", "Cookie: theme=dark\r\nCookie: lang=en\r\n").status, 403);
    }

    void privateAnswersAreForTheVisitorAlone()
    {
        const QJsonObject created
            = deploy({{u"slug"_s, u"secret-site"_s}, {u"protect"_s, true}, {u"files"_s, files()}});
        const QByteArray cookie = cookieHeader(request(u"secret-site"_s, "GET", "/?_token=" + tokenOf(created)));
        const auto verifyPrivate = [](const RawResponse &response, int status, const QByteArray &policy) {
            QCOMPARE(response.status, status);
            QCOMPARE(response.header("cache-control"), policy);
            QVERIFY2(response.header("vary").contains("Cookie"), response.header("vary").constData());
        };
        verifyPrivate(request(u"secret-site"_s, "GET", "/", cookie), 200, "private, no-store");
        verifyPrivate(request(u"secret-site"_s, "GET", "/docs/", cookie), 200, "private, no-store");
        const RawResponse asset = request(u"secret-site"_s, "GET", "/css/site.css", cookie);
        verifyPrivate(asset, 200, "private, max-age=300");
        verifyPrivate(request(u"secret-site"_s, "GET", "/css/site.css",
                          cookie + "If-None-Match: " + asset.header("etag") + "\r\n"),
            304, "private, max-age=300");
        verifyPrivate(request(u"secret-site"_s, "GET", "/css/site.css", cookie + "Range: bytes=0-1\r\n"), 206,
            "private, max-age=300");
        // The built-in endpoints too: counter reads are not public, and their errors are not stored.
        verifyPrivate(request(u"secret-site"_s, "GET", "/_counter/visits", cookie), 200, "private, max-age=10");
        verifyPrivate(request(u"secret-site"_s, "POST", "/_counter/visits/increment", cookie), 200, "no-store");
        verifyPrivate(request(u"secret-site"_s, "GET", "/_submit", cookie), 405, "no-store");
        verifyPrivate(request(u"secret-site"_s, "POST", "/_submit", cookie + "Accept: application/json\r\n", "a=1"),
            200, "no-store");

        // A public site's files stay cacheable by anyone.
        deploy({{u"slug"_s, u"open-site"_s}, {u"files"_s, files()}});
        const RawResponse open = request(u"open-site"_s, "GET", "/css/site.css");
        QCOMPARE(open.header("cache-control"), QByteArray("public, max-age=300"));
        QVERIFY(!open.header("vary").contains("Cookie"));
        QCOMPARE(request(u"open-site"_s, "GET", "/_counter/visits").header("cache-control"),
            QByteArray("public, max-age=10"));
    }

    void rateLimitedGateIsAPage()
    {
        deploy(
            {{u"slug"_s, u"gated-site"_s}, {u"protect"_s, true}, {u"password"_s, u"right"_s}, {u"files"_s, files()}});
        const QHostAddress visitor(u"127.0.0.3"_s);
        for (int attempt = 0; attempt < 10; ++attempt)
            QCOMPARE(request(u"gated-site"_s, "POST", "/_gate", {}, "password=nope", visitor).status, 401);
        const RawResponse page
            = request(u"gated-site"_s, "POST", "/_gate", {}, "password=right&next=%2Fdocs%2F", visitor);
        QCOMPARE(page.status, 429);
        QVERIFY(page.header("content-type").startsWith("text/html"));
        QVERIFY(page.header("retry-after").toInt() > 0);
        QVERIFY(page.body.contains("Too many tries"));
        QVERIFY(page.body.contains("<a id=\"back\" href=\"/docs/\">"));
        const RawResponse json
            = request(u"gated-site"_s, "POST", "/_gate", "Accept: application/json\r\n", "password=right", visitor);
        QCOMPARE(json.status, 429);
        QVERIFY(json.header("content-type").startsWith("application/json"));
    }

    void wrongPasswordsAreRateLimitedPerIp()
    {
        deploy(
            {{u"slug"_s, u"gated-site"_s}, {u"protect"_s, true}, {u"password"_s, u"right"_s}, {u"files"_s, files()}});
        for (int attempt = 0; attempt < 10; ++attempt)
            QCOMPARE(request(u"gated-site"_s, "POST", "/_gate", {}, "password=nope").status, 401);
        const RawResponse limited = request(u"gated-site"_s, "POST", "/_gate", {}, "password=right");
        QCOMPARE(limited.status, 429);
        QVERIFY(limited.header("retry-after").toInt() > 0);
        // Another address is unaffected.
        QCOMPARE(
            request(u"gated-site"_s, "POST", "/_gate", {}, "password=right", QHostAddress(u"127.0.0.2"_s)).status, 303);
    }

    void changingProtectionRetiresLinksAndCookies()
    {
        const QJsonObject created = deploy(
            {{u"slug"_s, u"secret-site"_s}, {u"protect"_s, true}, {u"password"_s, u"first"_s}, {u"files"_s, files()}});
        const QString id = created[u"id"_s].toString();
        const QByteArray oldToken = tokenOf(created);
        const QByteArray cookie = cookieHeader(request(u"secret-site"_s, "GET", "/?_token=" + oldToken));
        QCOMPARE(request(u"secret-site"_s, "GET", "/", cookie).status, 200);

        QCOMPARE(put(id, {{u"password"_s, u"second"_s}}), 200); // a new password: old cookies stop working
        QCOMPARE(request(u"secret-site"_s, "GET", "/", cookie).status, 401);
        QCOMPARE(request(u"secret-site"_s, "GET", "/?_token=" + oldToken).status, 302); // the link still works

        QCOMPARE(put(id, {{u"remove_password"_s, true}}), 200); // share link only: no gate, a 403
        QCOMPARE(request(u"secret-site"_s, "GET", "/").status, 403);

        QCOMPARE(put(id, {{u"protect"_s, false}}), 200); // public
        QCOMPARE(request(u"secret-site"_s, "GET", "/").status, 200);
        QCOMPARE(put(id, {{u"protect"_s, true}}), 200); // private again, with a new token
        QCOMPARE(request(u"secret-site"_s, "GET", "/?_token=" + oldToken).status, 403);
        QCOMPARE(request(u"secret-site"_s, "GET", "/", cookie).status, 403);
        const auto fresh = m_fixture->client().api("GET", u"/deploy/"_s + id, m_fixture->ownerKey()).json();
        QCOMPARE(request(u"secret-site"_s, "GET", "/?_token=" + tokenOf(fresh)).status, 302);
    }
};

QTEST_GUILESS_MAIN(TestPrivateSites)
#include "tst_privatesites.moc"
