// Bounded agents over real HTTP: the instance makes at most the owner's number of agents an hour, from all addresses
// together (429 with Retry-After beyond, also for MCP without a key); an agent that holds nothing a day after it was
// made is removed by the periodic sweep, and its key is then answered 401 with a challenge that says it expired.
// Time is the injected clock; the sweep runs often here.
#include "domain/accounts/accountservice.h"
#include "domain/accounts/signinpolicy.h"
#include "enginefixture.h"
#include "signinsteps.h"
#include "sourceclient.h"

#include <QTest>

using namespace Qt::StringLiterals;
using berth::AccountService;
using berth::SignInPolicy;
using berth::test::EngineFixture;
using berth::test::SourceClient;
using berth::test::TestReply;

namespace {

const QDateTime kStart(QDate(2026, 11, 21), QTime(6, 0), Qt::UTC);
constexpr qint64 kHourMs = 60 * 60 * 1000;
constexpr int kPerAddressPerMinute = 5; // RateLimits::kAuthSession
const QByteArray kInitialize = R"({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}})";

struct Agent
{
    QByteArray key;
    QString id;
    QString claimToken;
};

} // namespace

class TestAgentLimits : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineFixture> m_fixture;

    TestReply newSession(int source = 1)
    {
        const QHostAddress address(u"127.0.0.%1"_s.arg(source));
        return SourceClient(m_fixture->engine().port(), address)
            .request("POST", m_fixture->client().apiHost(), u"/auth/session"_s);
    }
    Agent newAgent()
    {
        const QJsonObject json = newSession().json();
        return {json.value(u"api_key"_s).toString().toLatin1(), json.value(u"agent_id"_s).toString(),
            json.value(u"claim_token"_s).toString()};
    }
    TestReply whoami(const QByteArray &key) { return m_fixture->client().api("GET", u"/auth/me"_s, key); }

private Q_SLOTS:
    void init()
    {
        berth::EngineSettings settings;
        settings.idleAgentSweepMs = 10;
        m_fixture = std::make_unique<EngineFixture>();
        QVERIFY(m_fixture->startWithClock(kStart, settings));
    }
    void cleanup() { m_fixture.reset(); }

    // 61 agents in an hour from 13 addresses, each within its own limit of 5 a minute: the 61st is refused.
    void agentsPerHourForTheWholeInstance()
    {
        QCOMPARE(m_fixture->engine().signInPolicy().agentsPerHour(), SignInPolicy::kDefaultAgentsPerHour);
        int made = 0;
        QList<TestReply> refused;
        for (int source = 2; made + refused.size() < 65; ++source) {
            for (int i = 0; i < kPerAddressPerMinute; ++i) {
                const TestReply reply = newSession(source);
                if (reply.status == 200)
                    ++made;
                else
                    refused.append(reply);
            }
            m_fixture->clock().advance(1000); // the first agent stays within the hour
        }
        QCOMPARE(made, SignInPolicy::kDefaultAgentsPerHour);
        QCOMPARE(refused.size(), 5);
        for (const TestReply &reply : std::as_const(refused)) {
            QCOMPARE(reply.status, 429);
            QCOMPARE(reply.error(), u"Too many new agents on this instance this hour"_s);
            // Refused 12 s (12 addresses) after the first agent was made, which leaves the hour 3588 s later.
            QCOMPARE(reply.header("retry-after").toInt(), 3600 - 12);
        }
        // MCP without a key asks for an agent the same way.
        auto &client = m_fixture->client();
        const TestReply mcp
            = client.request("POST", client.apiHost(), u"/mcp"_s, kInitialize, {{"content-type", "application/json"}});
        QCOMPARE(mcp.status, 429);
        QCOMPARE(mcp.header("retry-after").toInt(), 3600 - 13);

        m_fixture->clock().advance(kHourMs - 13'000 + 1);
        QCOMPARE(newSession(100).status, 200);
    }

    void theOwnerSetsTheNumber()
    {
        SignInPolicy &policy = m_fixture->engine().signInPolicy();
        QVERIFY(policy.setAgentsPerHour(2));
        QVERIFY(!policy.setAgentsPerHour(-1));
        QCOMPARE(newSession(2).status, 200);
        QCOMPARE(newSession(3).status, 200);
        QCOMPARE(newSession(4).status, 429);
        QVERIFY(policy.setAgentsPerHour(0));
        m_fixture->clock().advance(2 * kHourMs);
        const TestReply none = newSession(5);
        QCOMPARE(none.status, 429);
        QCOMPARE(none.header("retry-after"), QByteArray("3600"));
    }

    void idleAgentsAreRemovedAfterADay()
    {
        const Agent idle = newAgent();
        const Agent deployer = newAgent();
        QVERIFY(!m_fixture->deploySite(deployer.key, u"agent-site"_s).isEmpty());
        m_fixture->clock().advance(2 * kHourMs);
        const Agent younger = newAgent();
        QCOMPARE(whoami(idle.key).status, 200);

        m_fixture->clock().advance(22 * kHourMs + 1); // the first ones are a day old and a moment
        QTRY_COMPARE(whoami(idle.key).status, 401);
        const TestReply expired = whoami(idle.key);
        QCOMPARE(expired.json(), (QJsonObject {{u"error"_s, u"Unauthorized"_s}}));
        const QByteArray challenge = "Bearer realm=\"berth\", error=\"invalid_token\", error_description=\""
            + AccountService::agentRemovedMessage().toLatin1() + '"';
        QCOMPARE(expired.header("www-authenticate"), challenge);
        QVERIFY(!m_fixture->engine().accounts().findUser(idle.id));
        // The sweep that removed it spared an agent with a site, and one not a day old yet.
        QCOMPARE(whoami(deployer.key).status, 200);
        QCOMPARE(m_fixture->client().site(u"agent-site"_s).status, 200);
        QCOMPARE(whoami(younger.key).status, 200);
        // A made-up key is still only unknown.
        QVERIFY(whoami("bk_" + QByteArray(40, 'x')).header("www-authenticate").contains("unknown"));
        // MCP says the same as the API.
        auto &client = m_fixture->client();
        const TestReply mcp = client.request("POST", client.apiHost(), u"/mcp"_s, kInitialize,
            {{"content-type", "application/json"}, {"authorization", "Bearer " + idle.key}});
        QCOMPARE(mcp.status, 401);
        QVERIFY(mcp.header("www-authenticate").contains("expired"));

        m_fixture->clock().advance(2 * kHourMs);
        QTRY_COMPARE(whoami(younger.key).status, 401);
        QCOMPARE(whoami(deployer.key).status, 200);
    }

    void claimedAgentsStay()
    {
        const Agent agent = newAgent();
        const QByteArray ann = berth::test::SignInSteps::signedInKey(*m_fixture, u"ann@example.com"_s);
        QVERIFY(!ann.isEmpty());
        QCOMPARE(m_fixture->client()
                     .api("POST", u"/auth/claim"_s, ann, QJsonObject {{u"claim_token"_s, agent.claimToken}})
                     .status,
            200);
        const Agent idle = newAgent();
        m_fixture->clock().advance(25 * kHourMs);
        QTRY_COMPARE(whoami(idle.key).status, 401);
        QVERIFY(m_fixture->engine().accounts().findUser(agent.id)); // claimed: kept, its keys revoked as before
        QVERIFY(whoami(agent.key).header("www-authenticate").contains("unknown"));
        QCOMPARE(whoami(ann).status, 200);
    }
};

QTEST_GUILESS_MAIN(TestAgentLimits)
#include "tst_agentlimits.moc"
