// Agents over real HTTP: POST /auth/session gives a script a key with no sign-up, the agent deploys, and a
// signed-in user claims its deployments (POST /auth/claim, or a claim token with POST /auth/verify). Also where
// sessions may come from, the claimer's plan limit, the login page and the routing of the public auth routes.
#include "domain/accounts/accountservice.h"
#include "domain/accounts/signinpolicy.h"
#include "domain/plans/plansettings.h"
#include "enginefixture.h"
#include "signinsteps.h"

#include <QRegularExpression>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::EngineFixture;
using berth::test::TestReply;
namespace SignInSteps = berth::test::SignInSteps;

namespace {

const QDateTime kStart(QDate(2026, 11, 21), QTime(6, 0), Qt::UTC);

struct Agent
{
    QByteArray key;
    QString id;
    QString claimToken;
};

} // namespace

class TestAuthAgents : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineFixture> m_fixture;

    bool start(berth::EngineSettings settings = {})
    {
        m_fixture = std::make_unique<EngineFixture>();
        return m_fixture->startWithClock(kStart, std::move(settings));
    }
    TestReply session(const QList<QPair<QByteArray, QByteArray>> &headers = {})
    {
        return m_fixture->client().request("POST", m_fixture->client().apiHost(), u"/auth/session"_s, {}, headers);
    }
    Agent newAgent()
    {
        const QJsonObject json = session().json();
        return {json.value(u"api_key"_s).toString().toLatin1(), json.value(u"agent_id"_s).toString(),
            json.value(u"claim_token"_s).toString()};
    }
    QStringList deploymentIds(const QByteArray &key)
    {
        QStringList ids;
        for (const QJsonValue &deployment :
            m_fixture->client().api("GET", u"/deploys"_s, key).json().value(u"deployments"_s).toArray())
            ids.append(deployment.toObject().value(u"id"_s).toString());
        return ids;
    }

private Q_SLOTS:
    void cleanup() { m_fixture.reset(); }

    void agentDeploysAndIsClaimed()
    {
        QVERIFY(start());
        const TestReply created = session();
        QCOMPARE(created.status, 200);
        const QJsonObject json = created.json();
        QCOMPARE(json.keys(), (QStringList {u"agent_id"_s, u"api_key"_s, u"claim_token"_s, u"claim_url"_s}));
        const QString key = json.value(u"api_key"_s).toString();
        const QString token = json.value(u"claim_token"_s).toString();
        QVERIFY2(QRegularExpression(u"^bk_[0-9A-Za-z]{40}$"_s).match(key).hasMatch(), qPrintable(key));
        QVERIFY(QRegularExpression(u"^clm_[0-9A-Za-z]{40}$"_s).match(token).hasMatch());
        QCOMPARE(json.value(u"claim_url"_s).toString(),
            u"http://localhost:%1/auth/login?claim=%2"_s.arg(m_fixture->engine().port()).arg(token));
        const auto agent = m_fixture->engine().accounts().findUser(json.value(u"agent_id"_s).toString());
        QVERIFY(agent);
        QCOMPARE(agent->plan, u"agent"_s);
        QVERIFY(agent->email.isEmpty());

        // The agent deploys at once, with no sign-up.
        const QString deployment = m_fixture->deploySite(key.toLatin1(), u"agent-page"_s, u"<h1>by an agent</h1>"_s);
        QVERIFY(!deployment.isEmpty());
        QCOMPARE(m_fixture->client().site(u"agent-page"_s).status, 200);

        // Ann signs in and claims it.
        const QByteArray ann = SignInSteps::signedInKey(*m_fixture, u"ann@example.com"_s);
        QVERIFY(!ann.isEmpty());
        const TestReply claimed
            = m_fixture->client().api("POST", u"/auth/claim"_s, ann, QJsonObject {{u"claim_token"_s, token}});
        QCOMPARE(claimed.status, 200);
        QCOMPARE(
            claimed.json(), (QJsonObject {{u"agent_id"_s, agent->id}, {u"deployments"_s, QJsonArray {deployment}}}));
        QCOMPARE(deploymentIds(ann), QStringList {deployment});
        QCOMPARE(m_fixture->client().api("GET", u"/deploy/"_s + deployment, ann).status, 200);
        QCOMPARE(m_fixture->client().site(u"agent-page"_s).status, 200); // still live, same URL

        // The agent's key stops working, and the token is spent.
        const TestReply agentNow = m_fixture->client().api("GET", u"/deploys"_s, key.toLatin1());
        QCOMPARE(agentNow.status, 401);
        QCOMPARE(agentNow.json(), (QJsonObject {{u"error"_s, u"Unauthorized"_s}}));
        const TestReply again
            = m_fixture->client().api("POST", u"/auth/claim"_s, ann, QJsonObject {{u"claim_token"_s, token}});
        QCOMPARE(again.status, 404);
        QCOMPARE(again.json(), (QJsonObject {{u"error"_s, u"Claim token not found or already used"_s}}));
    }

    void claimWhileSigningIn()
    {
        QVERIFY(start());
        const Agent agent = newAgent();
        const QString first = m_fixture->deploySite(agent.key, u"first-page"_s);
        const QString second = m_fixture->deploySite(agent.key, u"second-page"_s);
        const TestReply verified = SignInSteps::signIn(*m_fixture, u"bob@example.com"_s, agent.claimToken);
        QCOMPARE(verified.status, 200);
        const QJsonObject claimed = verified.json().value(u"claimed"_s).toObject();
        QCOMPARE(claimed.value(u"agent_id"_s).toString(), agent.id);
        QCOMPARE(claimed.value(u"deployments"_s).toArray().size(), 2);
        const QByteArray bob = verified.json().value(u"api_key"_s).toString().toLatin1();
        QStringList ids = deploymentIds(bob);
        ids.sort();
        QStringList expected {first, second};
        expected.sort();
        QCOMPARE(ids, expected);
        QCOMPARE(m_fixture->client().api("GET", u"/deploys"_s, agent.key).status, 401);
    }

    void claimRespectsTheClaimersPlan()
    {
        QVERIFY(start());
        QVERIFY(m_fixture->engine().planSettings().setLimits(u"free"_s, {2, 250, 500, 50}));
        const QByteArray ann = SignInSteps::signedInKey(*m_fixture, u"ann@example.com"_s);
        QVERIFY(!m_fixture->deploySite(ann, u"ann-page"_s).isEmpty());
        const Agent agent = newAgent();
        QVERIFY(!m_fixture->deploySite(agent.key, u"agent-one"_s).isEmpty());
        QVERIFY(!m_fixture->deploySite(agent.key, u"agent-two"_s).isEmpty());

        // 1 + 2 > 2: refused, and nothing moves.
        const TestReply refused = m_fixture->client().api(
            "POST", u"/auth/claim"_s, ann, QJsonObject {{u"claim_token"_s, agent.claimToken}});
        QCOMPARE(refused.status, 403);
        QCOMPARE(refused.json(),
            (QJsonObject {{u"error"_s,
                u"Deployment limit reached. Delete an existing deployment "
                "or upgrade your plan."_s}}));
        QCOMPARE(deploymentIds(ann).size(), 1);
        QCOMPARE(deploymentIds(agent.key).size(), 2);

        // Signing in with the token still signs in, and says why nothing moved.
        const TestReply verified = SignInSteps::signIn(*m_fixture, u"ann@example.com"_s, agent.claimToken);
        QCOMPARE(verified.status, 200);
        QVERIFY(!verified.json().contains(u"claimed"_s));
        QVERIFY(verified.json().value(u"claim_error"_s).toString().startsWith(u"Deployment limit reached"_s));

        // With room on the plan the same token works.
        const auto user = m_fixture->engine().accounts().findUserByEmail(u"ann@example.com"_s);
        QVERIFY(m_fixture->engine().accounts().setPlan(user->id, u"pro"_s));
        QCOMPARE(m_fixture->client()
                     .api("POST", u"/auth/claim"_s, ann, QJsonObject {{u"claim_token"_s, agent.claimToken}})
                     .status,
            200);
        QCOMPARE(deploymentIds(ann).size(), 3);
    }

    void claimRefusals()
    {
        QVERIFY(start());
        const Agent agent = newAgent();
        const Agent other = newAgent();
        const TestReply byAgent = m_fixture->client().api(
            "POST", u"/auth/claim"_s, other.key, QJsonObject {{u"claim_token"_s, agent.claimToken}});
        QCOMPARE(byAgent.status, 403);
        QCOMPARE(byAgent.error(), u"Sign in with an account to claim an agent"_s);
        const QByteArray owner = m_fixture->ownerKey();
        QCOMPARE(m_fixture->client().api("POST", u"/auth/claim"_s, owner, QJsonObject {}).status, 400);
        QCOMPARE(
            m_fixture->client().api("POST", u"/auth/claim"_s, owner, QJsonObject {{u"claim_token"_s, 7}}).status, 400);
        QCOMPARE(m_fixture->client()
                     .api("POST", u"/auth/claim"_s, owner, QJsonObject {{u"claim_token"_s, u"clm_forged"_s}})
                     .status,
            404);
        QCOMPARE(m_fixture->client()
                     .api("POST", u"/auth/claim"_s, {}, QJsonObject {{u"claim_token"_s, agent.claimToken}})
                     .status,
            401);
        // The owner may claim too (an agent the owner ran), with an empty agent: nothing to move.
        const TestReply empty = m_fixture->client().api(
            "POST", u"/auth/claim"_s, owner, QJsonObject {{u"claim_token"_s, agent.claimToken}});
        QCOMPARE(empty.status, 200);
        QCOMPARE(empty.json().value(u"deployments"_s).toArray().size(), 0);
    }

    void agentsHaveTheAgentPlan()
    {
        QVERIFY(start());
        const Agent agent = newAgent();
        for (int i = 0; i < 5; ++i)
            QVERIFY(!m_fixture->deploySite(agent.key, u"agent-site-%1"_s.arg(i)).isEmpty());
        const TestReply sixth
            = m_fixture->client().api("POST", u"/deploy"_s, agent.key, QJsonObject {{u"html"_s, u"<p>6</p>"_s}});
        QCOMPARE(sixth.status, 403);
        // Every session is its own agent with its own allowance.
        QVERIFY(!m_fixture->deploySite(newAgent().key, u"agent-site-other"_s).isEmpty());
    }

    void sessionsFromOtherAddressesNeedTheOwner()
    {
        berth::EngineSettings settings;
        settings.trustedProxies = {QHostAddress(u"127.0.0.1"_s)}; // a reverse proxy on this machine
        QVERIFY(start(settings));
        const QList<QPair<QByteArray, QByteArray>> fromLan {{"X-Forwarded-For", "192.168.1.7"}};
        const QList<QPair<QByteArray, QByteArray>> fromInternet {{"X-Forwarded-For", "203.0.113.5"}};
        QCOMPARE(session().status, 200); // loopback
        const TestReply refused = session(fromLan);
        QCOMPARE(refused.status, 403);
        QCOMPARE(refused.json(), (QJsonObject {{u"error"_s, u"Agent sessions are not available from this address"_s}}));

        berth::SignInPolicy &policy = m_fixture->engine().signInPolicy();
        QVERIFY(policy.setAgentSessionScope(berth::AgentSessionScope::Lan));
        QCOMPARE(session(fromLan).status, 200);
        QCOMPARE(session(fromInternet).status, 403);
        QVERIFY(policy.setAgentSessionScope(berth::AgentSessionScope::Anywhere));
        QCOMPARE(session(fromInternet).status, 200);
    }

    void forwardedForIsIgnoredWithoutATrustedProxy()
    {
        QVERIFY(start());
        QCOMPARE(session({{"X-Forwarded-For", "203.0.113.5"}}).status, 200); // the TCP peer is loopback
    }

    void publicRoutesKeepTheRouting()
    {
        QVERIFY(start());
        berth::test::HttpTestClient &client = m_fixture->client();
        const TestReply wrongMethod = client.api("GET", u"/auth/session"_s, {});
        QCOMPARE(wrongMethod.status, 405);
        QCOMPARE(wrongMethod.header("allow"), QByteArray("POST"));
        QCOMPARE(client.api("DELETE", u"/auth/login"_s, {}).header("allow"), QByteArray("GET, HEAD"));
        QCOMPARE(client.api("GET", u"/auth/keys/key_x"_s, m_fixture->ownerKey()).header("allow"), QByteArray("DELETE"));
        QCOMPARE(client.api("GET", u"/auth/nothing"_s, {}).status, 404);
        const TestReply head = client.api("HEAD", u"/auth/login"_s, {});
        QCOMPARE(head.status, 200);
        QVERIFY(head.body.isEmpty());
        // A public route does not care about a bad Authorization header; a keyed one does.
        QCOMPARE(
            client.request("POST", client.apiHost(), u"/auth/session"_s, {}, {{"Authorization", "Bearer bk_x"}}).status,
            200);
        QCOMPARE(client.api("GET", u"/auth/keys"_s, "bk_x").status, 401);
        // Sites do not serve the auth routes: they are the API host's.
        QCOMPARE(client.request("POST", m_fixture->siteHost(u"some-site"_s), u"/auth/session"_s).status, 404);
    }

    void loginPage()
    {
        QVERIFY(start());
        const Agent agent = newAgent();
        const TestReply page = m_fixture->client().api("GET", u"/auth/login?claim="_s + agent.claimToken, {});
        QCOMPARE(page.status, 200);
        QCOMPARE(page.header("content-type"), QByteArray("text/html; charset=utf-8"));
        QVERIFY(page.body.contains("data-claim=\"" + agent.claimToken.toLatin1() + '"'));
        QVERIFY(page.body.contains("data-base-url=\"http://localhost:"));
        for (const char *field : {"id=\"email\"", "id=\"code\"", "id=\"api-key\"", "id=\"copy\""})
            QVERIFY2(page.body.contains(field), field);
        QCOMPARE(page.header("x-frame-options"), QByteArray("DENY"));
        QCOMPARE(page.header("referrer-policy"), QByteArray("no-referrer"));
        // Inline script and style run only with this response's nonce.
        const QByteArray csp = page.header("content-security-policy");
        const QString nonce
            = QRegularExpression(u"script-src 'nonce-([0-9A-Za-z]+)'"_s).match(QString::fromLatin1(csp)).captured(1);
        QVERIFY2(nonce.size() >= 16, csp.constData());
        QCOMPARE(page.body.count("nonce=\"" + nonce.toLatin1() + '"'), 2);
        const QRegularExpression placeholder(u"\\{\\{\\w+\\}\\}"_s);
        QVERIFY(!placeholder.match(QString::fromUtf8(page.body)).hasMatch()); // every one filled in
        const TestReply next = m_fixture->client().api("GET", u"/auth/login"_s, {});
        QVERIFY(!next.body.contains(nonce.toLatin1()));
        QVERIFY(next.body.contains("data-claim=\"\""));

        // Anything that is not a claim token is dropped, never echoed.
        const TestReply hostile
            = m_fixture->client().api("GET", u"/auth/login?claim=%22%3E%3Cscript%3Ex%3C/script%3E"_s, {});
        QCOMPARE(hostile.status, 200);
        QVERIFY(hostile.body.contains("data-claim=\"\""));
        QVERIFY(!hostile.body.contains("<script>x"));
    }
};

QTEST_GUILESS_MAIN(TestAuthAgents)
#include "tst_authagents.moc"
