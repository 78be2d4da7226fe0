// The auth endpoints' limits per client IP (docs/configuration.md: session 5, otp 3, verify 10, login 30 a
// minute), over real HTTP from several loopback source addresses: every request counts, valid or not; one address's 429
// leaves another address and the other endpoints alone; the window slides with the ManualClock.
#include "enginefixture.h"
#include "sourceclient.h"

#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::EngineFixture;
using berth::test::SourceClient;
using berth::test::TestReply;

namespace {

const QDateTime kStart(QDate(2026, 11, 21), QTime(6, 0), Qt::UTC);

struct Endpoint
{
    QByteArray method;
    QString path;
    QByteArray validBody;
    int limit;
};

} // namespace

Q_DECLARE_METATYPE(Endpoint)

class TestAuthRateLimits : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineFixture> m_fixture;

    SourceClient from(const char *address)
    {
        return SourceClient(m_fixture->engine().port(), QHostAddress(QString::fromLatin1(address)));
    }
    TestReply call(SourceClient client, const Endpoint &endpoint, const QByteArray &body)
    {
        return client.request(endpoint.method, m_fixture->client().apiHost(), endpoint.path, body,
            {{"Content-Type", "application/json"}});
    }

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<EngineFixture>();
        QVERIFY(m_fixture->startWithClock(kStart));
    }
    void cleanup() { m_fixture.reset(); }

    void limitPerAddress_data()
    {
        QTest::addColumn<Endpoint>("endpoint");
        QTest::newRow("POST /auth/session") << Endpoint {"POST", u"/auth/session"_s, {}, 5};
        QTest::newRow("POST /auth/otp") << Endpoint {"POST", u"/auth/otp"_s, R"({"email": "ann@example.com"})", 3};
        QTest::newRow("POST /auth/verify")
            << Endpoint {"POST", u"/auth/verify"_s, R"({"email": "ann@example.com", "code": "123456"})", 10};
        QTest::newRow("GET /auth/login") << Endpoint {"GET", u"/auth/login"_s, {}, 30};
    }
    void limitPerAddress()
    {
        QFETCH(Endpoint, endpoint);
        // Valid and invalid requests alike use up the allowance.
        for (int i = 0; i < endpoint.limit; ++i) {
            const QByteArray body = i % 2 == 0 ? endpoint.validBody : QByteArray("{broken");
            const TestReply reply = call(from("127.0.0.2"), endpoint, body);
            QVERIFY2(
                reply.status != 429 && reply.status != 0, qPrintable(u"request %1: %2"_s.arg(i).arg(reply.status)));
            m_fixture->clock().advance(1000);
        }
        const TestReply refused = call(from("127.0.0.2"), endpoint, endpoint.validBody);
        QCOMPARE(refused.status, 429);
        QCOMPARE(refused.json(), (QJsonObject {{u"error"_s, u"Rate limit exceeded"_s}}));
        QCOMPARE(refused.header("retry-after"), QByteArray::number(60 - endpoint.limit));

        // Another address is not affected; nor are the other endpoints from the same address.
        QVERIFY(call(from("127.0.0.3"), endpoint, endpoint.validBody).status != 429);
        const Endpoint other = endpoint.path == u"/auth/login" ? Endpoint {"POST", u"/auth/session"_s, {}, 5}
                                                               : Endpoint {"GET", u"/auth/login"_s, {}, 30};
        QCOMPARE(call(from("127.0.0.2"), other, other.validBody).status, 200);

        // Once the first request leaves the window, one more is let through.
        m_fixture->clock().advance((60 - endpoint.limit) * 1000);
        QVERIFY(call(from("127.0.0.2"), endpoint, endpoint.validBody).status != 429);
        QCOMPARE(call(from("127.0.0.2"), endpoint, endpoint.validBody).status, 429);
    }

    void loginRefusalIsAPageForBrowsers()
    {
        const auto open = [this](const QByteArray &accept) {
            return from("127.0.0.4")
                .request("GET", m_fixture->client().apiHost(), u"/auth/login"_s, {}, {{"Accept", accept}});
        };
        for (int i = 0; i < 30; ++i)
            QCOMPARE(open("text/html").status, 200);
        const TestReply page = open("text/html,application/xhtml+xml,*/*;q=0.8");
        QCOMPARE(page.status, 429);
        QVERIFY(page.header("content-type").startsWith("text/html"));
        QCOMPARE(page.header("retry-after"), QByteArray("60"));
        QVERIFY(page.body.contains("Rate limit exceeded. Try again in 60 seconds."));
        QVERIFY(!page.body.contains("{{"));
        const TestReply json = open("application/json");
        QCOMPARE(json.status, 429);
        QCOMPARE(json.json(), (QJsonObject {{u"error"_s, u"Rate limit exceeded"_s}}));
    }
};

QTEST_GUILESS_MAIN(TestAuthRateLimits)
#include "tst_authratelimits.moc"
