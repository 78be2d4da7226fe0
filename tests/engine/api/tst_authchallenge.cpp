// Every 401 of the API over real HTTP, with what RFC 6750 asks of it: `WWW-Authenticate: Bearer realm="berth"`, plus
// error="invalid_request" (no "Bearer <key>") or error="invalid_token" (an unknown, revoked or expired key) and an
// error_description when a key was sent; none without an Authorization header (section 3.1). The body stays
// {"error": "Unauthorized"}. Keyed routes, the front door's check of a large upload, MCP, and a wrong sign-in code.
#include "domain/accounts/signinpolicy.h"
#include "enginefixture.h"

#include <QJsonDocument>
#include <QTcpSocket>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::EngineFixture;
using berth::test::TestReply;

namespace {

const QDateTime kStart(QDate(2026, 11, 21), QTime(6, 0), Qt::UTC);
const QJsonObject kUnauthorized {{u"error"_s, u"Unauthorized"_s}};
const QByteArray kNoKey = R"(Bearer realm="berth")";
const QByteArray kNotBearer = R"(Bearer realm="berth", error="invalid_request", )"
                              R"(error_description="The Authorization header must be: Bearer <API key>")";
const QByteArray kUnknownKey = R"(Bearer realm="berth", error="invalid_token", )"
                               R"(error_description="The API key is unknown or has been revoked")";
const QByteArray kExpiredKey
    = R"(Bearer realm="berth", error="invalid_token", error_description="The API key has expired")";

// The value of one header in a raw HTTP/1.1 answer (names compared case-insensitively).
QByteArray rawHeader(const QByteArray &answer, const QByteArray &name)
{
    for (const QByteArray &line : answer.left(answer.indexOf("\r\n\r\n")).split('\n')) {
        const qsizetype colon = line.indexOf(':');
        if (colon > 0 && line.left(colon).trimmed().toLower() == name)
            return line.mid(colon + 1).trimmed();
    }
    return {};
}

} // namespace

class TestAuthChallenge : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineFixture> m_fixture;

    TestReply call(const QByteArray &method, const QString &path, const QByteArray &authorization,
        const QByteArray &body = {}, QList<QPair<QByteArray, QByteArray>> headers = {})
    {
        if (!authorization.isNull())
            headers.append(qMakePair(QByteArray("Authorization"), authorization));
        headers.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
        auto &client = m_fixture->client();
        return client.request(method, client.apiHost(), path, body, headers);
    }
    // Another key of the owner's; its id and secret.
    QPair<QString, QByteArray> newKey(const QJsonObject &request = {})
    {
        const TestReply created = m_fixture->client().api("POST", u"/auth/keys"_s, m_fixture->ownerKey(), request);
        return {created.json().value(u"id"_s).toString(), created.json().value(u"api_key"_s).toString().toLatin1()};
    }
    // A 10 MB deploy announced to the front door, none of it sent: its answer comes from the head alone.
    QByteArray uploadAnswer(const QByteArray &authorization)
    {
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, m_fixture->engine().port());
        if (!socket.waitForConnected(5000))
            return {};
        socket.write("POST /deploy HTTP/1.1\r\nHost: " + m_fixture->client().apiHost().toLatin1() + "\r\n"
            + (authorization.isEmpty() ? QByteArray() : "Authorization: " + authorization + "\r\n")
            + "Content-Type: application/json\r\nContent-Length: 10485760\r\n\r\n");
        socket.flush();
        QByteArray answer;
        (void)QTest::qWaitFor(
            [&] {
                answer += socket.readAll();
                return answer.contains("\r\n\r\n{") && answer.endsWith('}');
            },
            5000);
        return answer;
    }
    static bool isRefusal(const TestReply &reply, const QByteArray &challenge)
    {
        if (reply.status == 401 && reply.json() == kUnauthorized && reply.header("www-authenticate") == challenge)
            return true;
        qWarning().noquote() << reply.status << reply.body << reply.header("www-authenticate");
        return false;
    }

private Q_SLOTS:
    void init()
    {
        berth::EngineSettings settings;
        settings.trustedProxies = {QHostAddress(u"127.0.0.1"_s)}; // a reverse proxy on this machine
        m_fixture = std::make_unique<EngineFixture>();
        QVERIFY(m_fixture->startWithClock(kStart, settings));
    }
    void cleanup() { m_fixture.reset(); }

    void keyedRoutes_data()
    {
        QTest::addColumn<QByteArray>("authorization");
        QTest::addColumn<QByteArray>("challenge");
        QTest::newRow("no header") << QByteArray() << kNoKey;
        QTest::newRow("empty header") << QByteArray("") << kNoKey;
        QTest::newRow("other scheme") << QByteArray("Basic YW5uOnNlY3JldA==") << kNotBearer;
        QTest::newRow("scheme alone") << QByteArray("Bearer") << kNotBearer;
        QTest::newRow("key without scheme") << QByteArray("bk_0000000000000000000000000000000000000000") << kNotBearer;
        QTest::newRow("not a Berth key") << QByteArray("Bearer abc") << kUnknownKey;
        QTest::newRow("unknown key") << QByteArray("Bearer bk_0000000000000000000000000000000000000000") << kUnknownKey;
        QTest::newRow("lower-case scheme")
            << QByteArray("bearer bk_0000000000000000000000000000000000000000") << kUnknownKey;
        QTest::newRow("overlong") << "Bearer bk_" + QByteArray(300, 'a') << kUnknownKey;
    }
    void keyedRoutes()
    {
        QFETCH(QByteArray, authorization);
        QFETCH(QByteArray, challenge);
        QVERIFY(isRefusal(call("GET", u"/deploys"_s, authorization), challenge));
        QVERIFY(isRefusal(call("POST", u"/deploy"_s, authorization, R"({"html": "<p>x</p>"})"), challenge));
        QVERIFY(isRefusal(call("GET", u"/auth/keys"_s, authorization), challenge));
        QVERIFY(isRefusal(call("DELETE", u"/deploy/dep_x"_s, authorization), challenge));
        const TestReply head = call("HEAD", u"/auth/me"_s, authorization);
        QCOMPARE(head.status, 401);
        QCOMPARE(head.header("www-authenticate"), challenge);
    }

    // A revoked key reads exactly as an unknown one; an expired key says so.
    void revokedAndExpiredKeys()
    {
        const auto revoked = newKey();
        QCOMPARE(m_fixture->client().api("GET", u"/deploys"_s, revoked.second).status, 200);
        QCOMPARE(
            m_fixture->client().api("DELETE", u"/auth/keys/"_s + revoked.first, m_fixture->ownerKey()).status, 200);
        QVERIFY(isRefusal(m_fixture->client().api("GET", u"/deploys"_s, revoked.second), kUnknownKey));
        QCOMPARE(rawHeader(uploadAnswer("Bearer " + revoked.second), "www-authenticate"), kUnknownKey);

        const auto expiring = newKey({{u"expires_in_days"_s, 1}});
        QCOMPARE(m_fixture->client().api("GET", u"/deploys"_s, expiring.second).status, 200);
        m_fixture->clock().advance(24 * 3600 * 1000);
        QVERIFY(isRefusal(m_fixture->client().api("GET", u"/deploys"_s, expiring.second), kExpiredKey));
        QVERIFY(
            isRefusal(m_fixture->client().api("POST", u"/auth/keys"_s, expiring.second, QJsonObject {}), kExpiredKey));
        QCOMPARE(rawHeader(uploadAnswer("Bearer " + expiring.second), "www-authenticate"), kExpiredKey);
    }

    // The front door refuses a large upload from its head, with the same answer the route would give.
    void largeUploadRefusedFromItsHead_data() { keyedRoutes_data(); }
    void largeUploadRefusedFromItsHead()
    {
        QFETCH(QByteArray, authorization);
        QFETCH(QByteArray, challenge);
        const QByteArray answer = uploadAnswer(authorization);
        QVERIFY2(answer.startsWith("HTTP/1.1 401"), answer.constData());
        QCOMPARE(rawHeader(answer, "www-authenticate"), challenge);
        QCOMPARE(QJsonDocument::fromJson(answer.mid(answer.indexOf("\r\n\r\n") + 4)).object(), kUnauthorized);
    }

    void mcp()
    {
        const QByteArray initialize
            = R"({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-03-26"}})";
        const QList<QPair<QByteArray, QByteArray>> accept {{"Accept", "application/json, text/event-stream"}};
        QVERIFY(isRefusal(call("POST", u"/mcp"_s, "Bearer bk_wrong", initialize, accept), kUnknownKey));
        QVERIFY(isRefusal(call("POST", u"/mcp"_s, "Token bk_wrong", initialize, accept), kNotBearer));
        // No key, from where agents may not come: no key was offered, so the challenge has no error code.
        QList<QPair<QByteArray, QByteArray>> fromInternet = accept;
        fromInternet.append(qMakePair(QByteArray("X-Forwarded-For"), QByteArray("203.0.113.5")));
        const TestReply refused = call("POST", u"/mcp"_s, QByteArray(), initialize, fromInternet);
        QCOMPARE(refused.status, 401);
        QCOMPARE(refused.header("www-authenticate"), kNoKey);
        QVERIFY2(refused.error().startsWith(u"Unauthorized: send Authorization: Bearer <API key>"_s),
            refused.body.constData());
    }

    // Not a key's 401: a wrong sign-in code. No key was offered either.
    void wrongSignInCode()
    {
        QVERIFY(m_fixture->engine().signInPolicy().allow(u"ann@example.com"_s));
        QCOMPARE(m_fixture->client()
                     .api("POST", u"/auth/otp"_s, {}, QJsonObject {{u"email"_s, u"ann@example.com"_s}})
                     .status,
            200);
        const TestReply wrong = m_fixture->client().api(
            "POST", u"/auth/verify"_s, {}, QJsonObject {{u"email"_s, u"ann@example.com"_s}, {u"code"_s, u"12345x"_s}});
        QCOMPARE(wrong.status, 401);
        QCOMPARE(wrong.json(), (QJsonObject {{u"error"_s, u"Invalid or expired code"_s}}));
        QCOMPARE(wrong.header("www-authenticate"), kNoKey);
    }
};

QTEST_GUILESS_MAIN(TestAuthChallenge)
#include "tst_authchallenge.moc"
