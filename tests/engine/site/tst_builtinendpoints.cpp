// The built-in endpoints of a site (/_submit, /_counter) against hostile and careless clients, over real HTTP:
// Upgrade requests run nothing, form posts redirect only within the site, and form posts that are refused get a
// page, not JSON. Time is a ManualClock.
#include "engine/http/rawclient.h"
#include "enginefixture.h"
#include "sourceclient.h"

#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::EngineFixture;
using berth::test::RawClient;
using berth::test::RawResponse;
using berth::test::SourceClient;
using berth::test::TestReply;

namespace {
const QDateTime kStart(QDate(2026, 11, 23), QTime(9, 0), Qt::UTC);
const QString kSlug = u"endpoint-site"_s;
const QByteArray kForm = "application/x-www-form-urlencoded";
constexpr qint64 kSubmitSpacingMs = 6'000; // under the per-IP limit of 10 a minute
} // namespace

class TestBuiltinEndpoints : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineFixture> m_fixture;
    QString m_id;

    QByteArray head(const QByteArray &method, const QByteArray &target, const QByteArray &headers = {},
        const QByteArray &body = {}) const
    {
        return method + ' ' + target + " HTTP/1.1\r\nHost: " + m_fixture->siteHost(kSlug).toLatin1() + "\r\n" + headers
            + "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
    }
    qint64 counterValue()
    {
        return m_fixture->client()
            .request("GET", m_fixture->siteHost(kSlug), u"/_counter/x"_s)
            .json()[u"value"_s]
            .toInteger(-1);
    }
    TestReply submit(const QByteArray &body, const QByteArray &contentType = kForm,
        QList<QPair<QByteArray, QByteArray>> headers = {}, const QString &slug = kSlug)
    {
        m_fixture->clock().advance(kSubmitSpacingMs);
        headers.append({"Content-Type", contentType});
        return m_fixture->client().request("POST", m_fixture->siteHost(slug), u"/_submit"_s, body, headers);
    }
    static void verifyPage(const TestReply &reply, int status, const QByteArray &words)
    {
        QCOMPARE(reply.status, status);
        QVERIFY(reply.header("content-type").startsWith("text/html"));
        QCOMPARE(reply.header("cache-control"), QByteArray("no-store"));
        QVERIFY2(reply.body.contains(words), reply.body.constData());
        QVERIFY(reply.body.contains("<a id=\"back\" href=\"/\">"));
        QVERIFY(!reply.body.contains("{{"));
    }
    int submissionCount()
    {
        return m_fixture->client()
            .api("GET", u"/deploy/%1/submissions"_s.arg(m_id), m_fixture->ownerKey())
            .json()[u"total"_s]
            .toInt(-1);
    }

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<EngineFixture>();
        QVERIFY(m_fixture->startWithClock(kStart));
        m_id = m_fixture->deploySite(m_fixture->ownerKey(), kSlug);
        QVERIFY(!m_id.isEmpty());
    }
    void cleanup() { m_fixture.reset(); }

    // QtHttpServer 6.4 replays a request that asks for an upgrade: it must never get that far.
    void upgradeRequestRunsNothing_data()
    {
        QTest::addColumn<QByteArray>("upgradeHeaders");
        QTest::newRow("websocket") << QByteArray("Connection: Upgrade\r\nUpgrade: websocket\r\n");
        QTest::newRow("h2c") << QByteArray("Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
                                           "HTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n");
        QTest::newRow("upgrade only") << QByteArray("Upgrade: anything\r\n");
    }
    void upgradeRequestRunsNothing()
    {
        QFETCH(QByteArray, upgradeHeaders);
        RawClient client;
        QVERIFY(client.connectTo(m_fixture->client().port()));
        client.send(head("POST", "/_counter/x/increment", upgradeHeaders)
            + head("POST", "/_submit", upgradeHeaders + "Content-Type: application/json\r\n", R"({"a":"b"})")
            + head("POST", "/_counter/x/increment"));
        RawResponse response;
        QVERIFY(client.waitResponse(&response));
        QCOMPARE(response.status, 501);
        QVERIFY(response.body.contains("Upgrade"));
        QCOMPARE(response.header("connection"), QByteArray("close"));
        // Nothing after the refusal is read: the connection closes cleanly, with no second answer.
        QVERIFY(client.waitClosed());
        QVERIFY(!client.takeResponse(&response));
        QCOMPARE(counterValue(), 0);
        QCOMPARE(submissionCount(), 0);

        // The same request without Upgrade counts once, and what follows it on the connection is answered.
        RawClient plain;
        QVERIFY(plain.connectTo(m_fixture->client().port()));
        plain.send(head("POST", "/_counter/x/increment") + head("GET", "/_counter/x"));
        QVERIFY(plain.waitResponse(&response));
        QCOMPARE(response.status, 200);
        QVERIFY(plain.waitResponse(&response));
        QCOMPARE(response.status, 200);
        QVERIFY(response.body.contains("\"value\":1"));
        QCOMPARE(counterValue(), 1);
    }

    // Every redirect after a form post is a path on the same site; anything else gets the thank-you page.
    void nextStaysOnTheSite_data()
    {
        QTest::addColumn<QString>("next"); // SITE stands for this site's host and port
        QTest::addColumn<QByteArray>("location"); // empty: no redirect, the thank-you page
        QTest::newRow("path") << u"/thanks?a=1"_s << QByteArray("/thanks?a=1");
        QTest::newRow("same site absolute") << u"http://SITE/done"_s << QByteArray("/done");
        QTest::newRow("scheme-relative") << u"//evil.example/"_s << QByteArray();
        QTest::newRow("backslash") << u"/\\evil.example/"_s << QByteArray();
        QTest::newRow("tab") << u"/\t/evil.example"_s << QByteArray();
        QTest::newRow("encoded slash") << u"/%2F/evil.example"_s << QByteArray();
        // Nothing that comes to "//" once decoded and its dot segments resolved.
        QTest::newRow("dot, encoded slash") << u"/.%2F/evil.example"_s << QByteArray();
        QTest::newRow("dot, slash") << u"/.//evil.example"_s << QByteArray();
        QTest::newRow("dot-dot, slash") << u"/a/..//evil.example"_s << QByteArray();
        QTest::newRow("encoded dot-dot") << u"/%2e%2E//evil.example"_s << QByteArray();
        QTest::newRow("dot, encoded backslash") << u"/.%5C/evil.example"_s << QByteArray();
        QTest::newRow("dot segments on the site") << u"/a/./b/../c"_s << QByteArray("/a/./b/../c");
        QTest::newRow("same site, path //") << u"http://SITE//evil.example/"_s << QByteArray();
        QTest::newRow("same site, encoded slash") << u"http://SITE/%2F/evil.example"_s << QByteArray();
        QTest::newRow("other host") << u"https://evil.example/"_s << QByteArray();
        QTest::newRow("javascript") << u"javascript:alert(1)"_s << QByteArray();
    }
    void nextStaysOnTheSite()
    {
        QFETCH(QString, next);
        QFETCH(QByteArray, location);
        next.replace(u"SITE"_s, m_fixture->siteHost(kSlug));
        const TestReply reply = submit("a=1&_next=" + QUrl::toPercentEncoding(next));
        if (location.isEmpty()) {
            QCOMPARE(reply.status, 200);
            QVERIFY(reply.body.contains("Thank you"));
            QVERIFY(reply.header("location").isEmpty());
        } else {
            QCOMPARE(reply.status, 303);
            QCOMPARE(reply.header("location"), location);
        }
    }

    void formRefusalsArePages()
    {
        verifyPage(submit("name=x&_hp=spam"), 400, "Submission rejected.");
        verifyPage(submit("_hp=&_next=%2F"), 400, "Submission is empty.");
        verifyPage(submit(""), 400, "Submission is empty.");
        verifyPage(submit("a=b", "text/plain"), 400, "Unsupported Content-Type");
        // A script asking for JSON keeps JSON, whatever it posts; so does a JSON body.
        const TestReply json = submit("name=x&_hp=spam", kForm, {{"Accept", "application/json"}});
        QCOMPARE(json.status, 400);
        QCOMPARE(json.error(), u"Submission rejected"_s);
        QCOMPARE(submit("{}", "application/json", {{"Accept", "text/html"}}).error(), u"Submission is empty"_s);
        // The back link is the form's page when the browser says where it was.
        const TestReply back
            = submit("", kForm, {{"Referer", "http://" + m_fixture->siteHost(kSlug).toLatin1() + "/contact"}});
        QVERIFY(back.body.contains("<a id=\"back\" href=\"/contact\">"));
        QCOMPARE(submissionCount(), 0);
    }

    void rateLimitedFormPostIsAPage()
    {
        SourceClient visitor(m_fixture->client().port(), QHostAddress(u"127.0.0.2"_s));
        const auto post = [&](const QByteArray &accept) {
            QList<QPair<QByteArray, QByteArray>> headers {{"Content-Type", kForm}};
            if (!accept.isEmpty())
                headers.append({"Accept", accept});
            return visitor.site("POST", kSlug, u"/_submit"_s, "a=1", headers);
        };
        for (int i = 0; i < 10; ++i)
            QCOMPARE(post("text/html").status, 200);
        const TestReply page = post("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8");
        verifyPage(page, 429, "Rate limit exceeded. Try again in 60 seconds.");
        QCOMPARE(page.header("retry-after"), QByteArray("60"));
        const TestReply json = post("application/json");
        QCOMPARE(json.status, 429);
        QCOMPARE(json.error(), u"Rate limit exceeded"_s);
    }

    void dailyLimitForFormPostIsAPage()
    {
        // An Agent-plan owner: 50 submissions a day.
        const QString id
            = m_fixture->deploySite(m_fixture->keyFor(u"agent@example.com"_s, u"agent"_s), u"agent-form"_s);
        QVERIFY(!id.isEmpty());
        for (int i = 0; i < 50; ++i)
            QCOMPARE(submit(R"({"n":1})", "application/json", {}, u"agent-form"_s).status, 200);
        const TestReply page = submit("n=51", kForm, {}, u"agent-form"_s);
        verifyPage(page, 429, "Daily submission limit reached. Try again in 15 hours.");
        QVERIFY(page.header("retry-after").toInt() > 14 * 3600);
    }

    void builtinPagesCarryNoTemplateText()
    {
        const TestReply thanks = submit("a=1");
        QCOMPARE(thanks.status, 200);
        const TestReply missing = m_fixture->client().site(kSlug, u"/missing"_s);
        QCOMPARE(missing.status, 404);
        const TestReply noSite = m_fixture->client().site(u"nothing-here"_s);
        QCOMPARE(noSite.status, 404);
        for (const TestReply &page : {thanks, missing, noSite}) {
            QVERIFY(page.header("content-type").startsWith("text/html"));
            QVERIFY(page.body.contains("color-scheme")); // the shared stylesheet is there
            QVERIFY2(!page.body.contains("{{") && !page.body.contains("page.css"), page.body.constData());
        }
    }
};

QTEST_GUILESS_MAIN(TestBuiltinEndpoints)
#include "tst_builtinendpoints.moc"
