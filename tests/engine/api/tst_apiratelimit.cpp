// The management API's per-key limit (300 requests a minute by default, configurable), applied after
// authentication and to every request whatever its body, over real HTTP. Time is a ManualClock.
#include "domain/common/clock.h"
#include "enginefixture.h"

#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::EngineFixture;
using berth::test::TestReply;

namespace {
const QDateTime kStart(QDate(2026, 11, 21), QTime(6, 0), Qt::UTC);
}

class TestApiRateLimit : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineFixture> m_fixture;

    bool start(int perMinute = -1)
    {
        m_fixture = std::make_unique<EngineFixture>();
        berth::EngineSettings settings;
        if (perMinute >= 0)
            settings.apiRequestsPerMinute = perMinute;
        return m_fixture->startWithClock(kStart, settings);
    }
    TestReply list(const QByteArray &key) { return m_fixture->client().api("GET", u"/deploys"_s, key); }

private Q_SLOTS:
    void cleanup() { m_fixture.reset(); }

    void defaultIs300AMinutePerKey()
    {
        QVERIFY(start());
        const QByteArray key = m_fixture->ownerKey();
        for (int i = 0; i < 300; ++i)
            QCOMPARE(list(key).status, 200);
        const TestReply refused = list(key);
        QCOMPARE(refused.status, 429);
        QCOMPARE(refused.json(), (QJsonObject {{u"error"_s, u"Rate limit exceeded"_s}}));
        QCOMPARE(refused.header("retry-after"), QByteArray("60"));
        m_fixture->clock().advance(60'000);
        QCOMPARE(list(key).status, 200);
    }

    void configuredLimitPerKey()
    {
        QVERIFY(start(5));
        const QByteArray key = m_fixture->ownerKey();
        const QByteArray other = m_fixture->keyFor(u"other@example.com"_s);
        for (int i = 0; i < 5; ++i) {
            QCOMPARE(list(key).status, 200);
            m_fixture->clock().advance(10'000);
        }
        const TestReply refused = list(key);
        QCOMPARE(refused.status, 429);
        QCOMPARE(refused.header("retry-after"), QByteArray("10")); // the first request leaves at 60 s
        QCOMPARE(list(other).status, 200); // each key has its own allowance
        // An unknown key is 401, never 429: the limit is applied after authentication.
        QCOMPARE(list("bk_notarealkey000000000000000000000000").status, 401);
        m_fixture->clock().advance(10'000);
        QCOMPARE(list(key).status, 200);
    }

    void everyRequestCountsWhateverItsBody()
    {
        QVERIFY(start(3));
        const QByteArray key = m_fixture->ownerKey();
        QCOMPARE(m_fixture->client().api("POST", u"/deploy"_s, key, QByteArray("{not json")).status, 400);
        QCOMPARE(m_fixture->client().api("GET", u"/deploy/dep_missing"_s, key).status, 404);
        QCOMPARE(m_fixture->client().api("GET", u"/deploy/dep_missing/submissions?limit=0"_s, key).status, 404);
        QCOMPARE(m_fixture->client().api("POST", u"/deploy"_s, key, QByteArray("{not json")).status, 429);
        QCOMPARE(list(key).status, 429);
    }
};

QTEST_GUILESS_MAIN(TestApiRateLimit)
#include "tst_apiratelimit.moc"
