// GET /auth/me over real HTTP: who the key belongs to and what is left of each limit, for the owner, a free user and
// an agent, before and after a deploy, and after visitors submit a form and count.
#include "enginefixture.h"

#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::EngineFixture;
using berth::test::TestReply;

namespace {
const QDateTime kStart(QDate(2026, 11, 21), QTime(6, 0), Qt::UTC);

QJsonObject usedOf(int used, int allowed)
{
    return {{u"used"_s, used}, {u"allowed"_s, allowed}};
}
} // namespace

class TestMe : public QObject
{
    Q_OBJECT

private:
    EngineFixture m_fixture;

    TestReply me(const QByteArray &key) { return m_fixture.client().api("GET", u"/auth/me"_s, key); }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_fixture.startWithClock(kStart)); }

    void ownerBeforeAndAfterADeploy()
    {
        const TestReply before = me(m_fixture.ownerKey());
        QCOMPARE(before.status, 200);
        QJsonObject json = before.json();
        QVERIFY(json.value(u"id"_s).toString().startsWith(u"usr_"_s));
        QVERIFY(json.value(u"email"_s).isNull());
        QCOMPARE(json.value(u"agent"_s), QJsonValue(false));
        QCOMPARE(json.value(u"owner"_s), QJsonValue(true));
        QCOMPARE(json.value(u"plan"_s).toString(), u"pro"_s);
        QCOMPARE(json.value(u"limits"_s).toObject(),
            (QJsonObject {{u"deployments"_s, 50}, {u"submissions_per_day"_s, 1000}, {u"submissions_stored"_s, 10000},
                {u"counters_per_deployment"_s, 100}}));
        QCOMPARE(json.value(u"deployments"_s).toObject(), usedOf(0, 50));
        QCOMPARE(json.value(u"sites"_s).toArray().size(), 0);

        const QString id = m_fixture.deploySite(m_fixture.ownerKey(), u"owner-site"_s);
        QVERIFY(!id.isEmpty());
        json = me(m_fixture.ownerKey()).json();
        QCOMPARE(json.value(u"deployments"_s).toObject(), usedOf(1, 50));
        const QJsonArray sites = json.value(u"sites"_s).toArray();
        QCOMPARE(sites.size(), 1);
        const QJsonObject site = sites.at(0).toObject();
        QCOMPARE(site.value(u"id"_s).toString(), id);
        QCOMPARE(site.value(u"slug"_s).toString(), u"owner-site"_s);
        QCOMPARE(site.value(u"url"_s).toString(), u"http://%1"_s.arg(m_fixture.siteHost(u"owner-site"_s)));
        QCOMPARE(site.value(u"submissions_today"_s).toObject(), usedOf(0, 1000));
        QCOMPARE(site.value(u"submissions_stored"_s).toObject(), usedOf(0, 10000));
        QCOMPARE(site.value(u"counters"_s).toObject(), usedOf(0, 100));
    }

    void freeUserCountsVisitorsAndTheDay()
    {
        const QByteArray key = m_fixture.keyFor(u"free@example.test"_s);
        QJsonObject json = me(key).json();
        QCOMPARE(json.value(u"email"_s).toString(), u"free@example.test"_s);
        QCOMPARE(json.value(u"agent"_s), QJsonValue(false));
        QCOMPARE(json.value(u"owner"_s), QJsonValue(false));
        QCOMPARE(json.value(u"plan"_s).toString(), u"free"_s);
        QCOMPARE(json.value(u"deployments"_s).toObject(), usedOf(0, 5));

        QVERIFY(!m_fixture.deploySite(key, u"free-site"_s).isEmpty());
        auto &client = m_fixture.client();
        const QString host = m_fixture.siteHost(u"free-site"_s);
        for (int i = 0; i < 2; ++i)
            QCOMPARE(
                client.request("POST", host, u"/_submit"_s, R"({"name":"a"})", {{"content-type", "application/json"}})
                    .status,
                200);
        QCOMPARE(client.request("POST", host, u"/_counter/likes/increment"_s).status, 200);
        QCOMPARE(client.request("POST", host, u"/_counter/views/increment"_s).status, 200);

        json = me(key).json();
        QCOMPARE(json.value(u"deployments"_s).toObject(), usedOf(1, 5));
        QJsonObject site = json.value(u"sites"_s).toArray().at(0).toObject();
        QCOMPARE(site.value(u"slug"_s).toString(), u"free-site"_s);
        QCOMPARE(site.value(u"submissions_today"_s).toObject(), usedOf(2, 250));
        QCOMPARE(site.value(u"submissions_stored"_s).toObject(), usedOf(2, 500));
        QCOMPARE(site.value(u"counters"_s).toObject(), usedOf(2, 50));

        // A new UTC day: today's count starts again, what is stored stays.
        m_fixture.clock().advance(24LL * 60 * 60 * 1000);
        site = me(key).json().value(u"sites"_s).toArray().at(0).toObject();
        QCOMPARE(site.value(u"submissions_today"_s).toObject(), usedOf(0, 250));
        QCOMPARE(site.value(u"submissions_stored"_s).toObject(), usedOf(2, 500));

        // The owner's report is the owner's alone.
        QCOMPARE(me(m_fixture.ownerKey()).json().value(u"deployments"_s).toObject(), usedOf(1, 50));
    }

    void agentBeforeAndAfterADeploy()
    {
        auto &client = m_fixture.client();
        const QJsonObject session = client.request("POST", client.apiHost(), u"/auth/session"_s).json();
        const QByteArray key = session.value(u"api_key"_s).toString().toLatin1();
        QVERIFY(!key.isEmpty());
        QJsonObject json = me(key).json();
        QCOMPARE(json.value(u"id"_s).toString(), session.value(u"agent_id"_s).toString());
        QVERIFY(json.value(u"email"_s).isNull());
        QCOMPARE(json.value(u"agent"_s), QJsonValue(true));
        QCOMPARE(json.value(u"plan"_s).toString(), u"agent"_s);
        QCOMPARE(json.value(u"deployments"_s).toObject(), usedOf(0, 5));

        QVERIFY(!m_fixture.deploySite(key, u"agent-site"_s).isEmpty());
        json = me(key).json();
        QCOMPARE(json.value(u"deployments"_s).toObject(), usedOf(1, 5));
        const QJsonObject site = json.value(u"sites"_s).toArray().at(0).toObject();
        QCOMPARE(site.value(u"submissions_today"_s).toObject(), usedOf(0, 50));
        QCOMPARE(site.value(u"counters"_s).toObject(), usedOf(0, 10));
    }

    void needsALiveKey()
    {
        const TestReply reply = me("bk_not-a-key");
        QCOMPARE(reply.status, 401);
        QCOMPARE(reply.error(), u"Unauthorized"_s);
        QCOMPARE(m_fixture.client().request("GET", m_fixture.client().apiHost(), u"/auth/me"_s).status, 401);
    }
};

QTEST_GUILESS_MAIN(TestMe)
#include "tst_me.moc"
