// Exact origins over real HTTP: /mcp and POST /auth/session take a browser page's request only from the API's own
// origin (scheme, host and port: the base URL, or the listening port as localhost, 127.0.0.1 or [::1]); no IP
// literal of another port or scheme, no other name. Requests without Origin (scripts) pass. /mcp also takes only
// Content-Type: application/json, which a page cannot send to another origin without the browser asking first.
#include "domain/accounts/accountservice.h"
#include "enginefixture.h"
#include "sourceclient.h"
#include "testcertificates.h"

#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::EngineFixture;
using berth::test::TestReply;

namespace {

const QDateTime kStart(QDate(2026, 11, 21), QTime(6, 0), Qt::UTC);
const QByteArray kInitialize
    = R"({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18"}})";

} // namespace

class TestApiOrigins : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineFixture> m_fixture;

    bool start(berth::EngineSettings settings = {})
    {
        m_fixture = std::make_unique<EngineFixture>();
        return m_fixture->startWithClock(kStart, std::move(settings));
    }
    QByteArray port() const { return QByteArray::number(m_fixture->engine().port()); }
    TestReply mcp(const QByteArray &origin, const QByteArray &contentType = "application/json")
    {
        QList<QPair<QByteArray, QByteArray>> headers {{"authorization", "Bearer " + m_fixture->ownerKey()}};
        if (!contentType.isEmpty())
            headers.append({"content-type", contentType});
        if (!origin.isEmpty())
            headers.append({"origin", origin});
        auto &client = m_fixture->client();
        return client.request("POST", client.apiHost(), u"/mcp"_s, kInitialize, headers);
    }
    TestReply agentSession(const QByteArray &origin)
    {
        // A minute on, so that the per-address limit of POST /auth/session is never what answers.
        m_fixture->clock().advance(61'000);
        QList<QPair<QByteArray, QByteArray>> headers;
        if (!origin.isEmpty())
            headers.append({"origin", origin});
        auto &client = m_fixture->client();
        return client.request("POST", client.apiHost(), u"/auth/session"_s, {}, headers);
    }
    int userCount() { return int(m_fixture->engine().accounts().listUsers().size()); }

private Q_SLOTS:
    void cleanup() { m_fixture.reset(); }

    void strangersAreRefused_data()
    {
        QTest::addColumn<QByteArray>("origin");
        QTest::newRow("IPv4 literal") << QByteArray("http://8.8.8.8");
        QTest::newRow("IP literal, https, other port") << QByteArray("https://203.0.113.5:4443");
        QTest::newRow("IPv6 literal") << QByteArray("http://[2001:db8::1]");
        QTest::newRow("loopback, other port") << QByteArray("http://127.0.0.1:9999");
        QTest::newRow("localhost, other port") << QByteArray("http://localhost:9999");
        QTest::newRow("IPv6 loopback, other port") << QByteArray("http://[::1]:9999");
        QTest::newRow("another name") << QByteArray("http://evil.example");
        QTest::newRow("opaque origin") << QByteArray("null");
        QTest::newRow("with a path") << QByteArray("http://localhost:PORT/x");
        QTest::newRow("with user info") << QByteArray("http://a@localhost:PORT");
        QTest::newRow("right port, other scheme") << QByteArray("https://localhost:PORT");
        QTest::newRow("a site of this instance") << QByteArray("http://my-site.localhost:PORT");
    }
    void strangersAreRefused()
    {
        QFETCH(QByteArray, origin);
        QVERIFY(start());
        origin.replace("PORT", port());
        const TestReply mcpReply = mcp(origin);
        QCOMPARE(mcpReply.status, 403);
        QCOMPARE(mcpReply.json(), (QJsonObject {{u"error"_s, u"Origin not allowed"_s}}));
        QVERIFY(mcpReply.header("mcp-session-id").isEmpty());

        const int users = userCount();
        const TestReply session = agentSession(origin);
        QCOMPARE(session.status, 403);
        QCOMPARE(session.json(), (QJsonObject {{u"error"_s, u"Origin not allowed"_s}}));
        QCOMPARE(userCount(), users); // no agent was made

        // Without a key, initialize asks for an agent: refused the same way, before anything is made.
        auto &client = m_fixture->client();
        const TestReply keyless = client.request("POST", client.apiHost(), u"/mcp"_s, kInitialize,
            {{"content-type", "application/json"}, {"origin", origin}});
        QCOMPARE(keyless.status, 403);
        QCOMPARE(userCount(), users);
    }

    void ownOriginsAndScriptsPass()
    {
        QVERIFY(start());
        const QList<QByteArray> own {"http://localhost:" + port(), "http://127.0.0.1:" + port(),
            "http://[::1]:" + port(), "HTTP://LOCALHOST:" + port(), QByteArray()};
        for (const QByteArray &origin : own) {
            QCOMPARE(mcp(origin).status, 200);
            const TestReply session = agentSession(origin);
            QVERIFY2(session.status == 200, origin.constData());
            QVERIFY(session.json().value(u"api_key"_s).toString().startsWith(u"bk_"_s));
        }
    }

    void theBaseUrlIsTheApisOrigin()
    {
        berth::EngineSettings settings;
        settings.baseUrl = u"https://berth.example.org"_s;
        QVERIFY(start(settings));
        QCOMPARE(mcp("https://berth.example.org").status, 200);
        QCOMPARE(mcp("https://berth.example.org:443").status, 200);
        QCOMPARE(agentSession("https://berth.example.org").status, 200);
        QCOMPARE(mcp("http://berth.example.org").status, 403);
        QCOMPARE(mcp("https://berth.example.org:8443").status, 403);
        QCOMPARE(agentSession("https://sub.berth.example.org").status, 403);
        QCOMPARE(mcp("http://localhost:" + port()).status, 200); // the port it listens on, from this machine
    }

    // With HTTPS each port has its scheme: https on the HTTPS port (also the base URL then), http on the plain one.
    void eachPortWithItsScheme()
    {
        QTemporaryDir folder;
        berth::test::TestCertificates certificates;
        QVERIFY(certificates.make(folder.path(), {u"localhost"_s}));
        berth::EngineSettings settings;
        settings.tlsCertFile = certificates.serverCert;
        settings.tlsKeyFile = certificates.serverKey;
        settings.httpsPort = 0;
        QVERIFY(start(settings));
        const QByteArray https = QByteArray::number(m_fixture->engine().httpsPort());
        QCOMPARE(mcp("https://localhost:" + https).status, 200);
        QCOMPARE(mcp("https://127.0.0.1:" + https).status, 200);
        QCOMPARE(mcp("http://localhost:" + port()).status, 200);
        QCOMPARE(mcp("http://localhost:" + https).status, 403);
        QCOMPARE(mcp("https://localhost:" + port()).status, 403);
        QCOMPARE(mcp("https://203.0.113.5:" + https).status, 403);
    }

    void mcpTakesOnlyJson()
    {
        QVERIFY(start());
        for (const QByteArray &type : {QByteArray("text/plain"), QByteArray("application/x-www-form-urlencoded"),
                 QByteArray("multipart/form-data; boundary=x"), QByteArray("application/jsonx")}) {
            const TestReply refused = mcp({}, type);
            QVERIFY2(refused.status == 415, (type + " answered " + QByteArray::number(refused.status)).constData());
            QCOMPARE(refused.json(), (QJsonObject {{u"error"_s, u"Content-Type must be application/json"_s}}));
            QVERIFY(refused.header("content-type").startsWith("application/json"));
        }
        // None at all (the test client would add one: a raw request).
        const TestReply untyped = berth::test::SourceClient(m_fixture->engine().port(), QHostAddress::LocalHost)
                                      .request("POST", m_fixture->client().apiHost(), u"/mcp"_s, kInitialize,
                                          {{"Authorization", "Bearer " + m_fixture->ownerKey()}});
        QCOMPARE(untyped.status, 415);
        QCOMPARE(mcp({}, "application/json; charset=utf-8").status, 200);
        QCOMPARE(mcp({}, "Application/JSON").status, 200);
    }
};

QTEST_GUILESS_MAIN(TestApiOrigins)
#include "tst_apiorigins.moc"
