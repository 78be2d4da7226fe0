// GET /_counter/:name and POST /_counter/:name/increment (docs/api.md) and the owner's GET|DELETE
// /deploy/:id/counters, over real HTTP: values, names, the plan's counter cap, the per-IP increment limit, and
// concurrent increments from several connections. Time is a ManualClock.
#include "domain/common/clock.h"
#include "domain/visitors/counterservice.h"
#include "enginefixture.h"
#include "sourceclient.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::EngineFixture;
using berth::test::SourceClient;
using berth::test::SourceConnection;
using berth::test::TestReply;

namespace {
const QDateTime kStart(QDate(2026, 11, 21), QTime(6, 0), Qt::UTC);
} // namespace

class TestCounters : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineFixture> m_fixture;
    QByteArray m_key;
    QString m_id;
    const QString m_slug = u"counter-site"_s;

    berth::test::HttpTestClient &client() { return m_fixture->client(); }
    berth::ManualClock &clock() { return m_fixture->clock(); }
    QString siteHost(const QString &slug) const { return m_fixture->siteHost(slug); }
    QString deploySite(const QByteArray &key, const QString &slug) { return m_fixture->deploySite(key, slug); }
    TestReply read(const QString &name, const QString &slug = {})
    {
        return client().request("GET", siteHost(slug.isEmpty() ? m_slug : slug), u"/_counter/"_s + name);
    }
    TestReply increment(const QString &name, const QString &slug = {})
    {
        clock().advance(1000); // 60 a minute is the per-IP limit: these tests stay under it
        return client().request(
            "POST", siteHost(slug.isEmpty() ? m_slug : slug), u"/_counter/%1/increment"_s.arg(name));
    }
    QJsonArray ownerList(const QByteArray &key = {})
    {
        return client()
            .api("GET", u"/deploy/%1/counters"_s.arg(m_id), key.isEmpty() ? m_key : key)
            .json()[u"counters"_s]
            .toArray();
    }
    QJsonObject counterJson(const QString &name, qint64 value) const
    {
        return {{u"name"_s, name}, {u"value"_s, value}, {u"slug"_s, m_slug}};
    }

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<EngineFixture>();
        QVERIFY(m_fixture->startWithClock(kStart));
        m_key = m_fixture->ownerKey();
        m_id = deploySite(m_key, m_slug);
        QVERIFY(!m_id.isEmpty());
    }
    void cleanup() { m_fixture.reset(); }

    void unknownCounterReadsZeroAndIsNotCreated()
    {
        const TestReply reply = read(u"visits"_s);
        QCOMPARE(reply.status, 200);
        QCOMPARE(reply.json(), counterJson(u"visits"_s, 0));
        QCOMPARE(reply.header("cache-control"), QByteArray("public, max-age=10"));
        QVERIFY(reply.header("content-type").startsWith("application/json"));
        QCOMPARE(ownerList(), QJsonArray());
        QCOMPARE(client().request("HEAD", siteHost(m_slug), u"/_counter/visits"_s).status, 200);
    }

    void incrementAddsOneAndReadsBack()
    {
        QSignalSpy changed(&m_fixture->engine().counters(), &berth::CounterService::counterChanged);
        for (int expected = 1; expected <= 3; ++expected) {
            const TestReply reply = increment(u"visits"_s);
            QCOMPARE(reply.status, 200);
            QCOMPARE(reply.json(), counterJson(u"visits"_s, expected));
            QCOMPARE(reply.header("cache-control"), QByteArray("no-store"));
        }
        QCOMPARE(read(u"visits"_s).json(), counterJson(u"visits"_s, 3));
        QCOMPARE(read(u"Visits"_s).json()[u"value"_s].toInt(), 0); // names are case-sensitive
        QCOMPARE(changed.size(), 3);
        QCOMPARE(changed.last().at(0).toString(), m_id);
        QCOMPARE(changed.last().at(1).toString(), u"visits"_s);
        QCOMPARE(changed.last().at(2).toLongLong(), 3);

        const QJsonArray listed = ownerList();
        QCOMPARE(listed.size(), 1);
        const QJsonObject entry = listed.at(0).toObject();
        QCOMPARE(entry[u"name"_s].toString(), u"visits"_s);
        QCOMPARE(entry[u"value"_s].toInt(), 3);
        QCOMPARE(entry[u"updated_at"_s].toString(), berth::isoTimestamp(clock().now()));
        // Counters belong to their site.
        deploySite(m_key, u"other-site"_s);
        QCOMPARE(read(u"visits"_s, u"other-site"_s).json()[u"value"_s].toInt(), 0);
    }

    void namesAreValidated_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("valid");
        QTest::newRow("simple") << u"visits"_s << true;
        QTest::newRow("all classes") << u"Page_views-2024"_s << true;
        QTest::newRow("64") << QString(64, u'a') << true;
        QTest::newRow("65") << QString(65, u'a') << false;
        QTest::newRow("empty") << QString() << false;
        QTest::newRow("dot") << u"a.b"_s << false;
        QTest::newRow("space") << u"a%20b"_s << false;
        QTest::newRow("slash") << u"a/b"_s << false;
        QTest::newRow("unicode") << u"caf%C3%A9"_s << false;
    }
    void namesAreValidated()
    {
        QFETCH(QString, name);
        QFETCH(bool, valid);
        const TestReply readReply = read(name);
        const TestReply incremented = increment(name);
        QCOMPARE(readReply.status, valid ? 200 : 400);
        QCOMPARE(incremented.status, valid ? 200 : 400);
        if (!valid) {
            QCOMPARE(readReply.json().keys(), QStringList {u"error"_s});
            QVERIFY(readReply.error().startsWith(u"Invalid counter name"_s));
            QCOMPARE(ownerList().size(), 0);
        }
    }

    void wrongMethodsAre405()
    {
        const TestReply getIncrement = client().request("GET", siteHost(m_slug), u"/_counter/x/increment"_s);
        QCOMPARE(getIncrement.status, 405);
        QCOMPARE(getIncrement.header("allow"), QByteArray("POST"));
        const TestReply postRead = client().request("POST", siteHost(m_slug), u"/_counter/x"_s);
        QCOMPARE(postRead.status, 405);
        QCOMPARE(postRead.header("allow"), QByteArray("GET, HEAD"));
        QCOMPARE(ownerList().size(), 0);
    }

    void counterCapOfTheOwnersPlan()
    {
        // Agent plan: 10 counters per deployment.
        m_key = m_fixture->keyFor(u"agent@example.com"_s, u"agent"_s);
        m_id = deploySite(m_key, u"agent-counters"_s);
        for (int i = 0; i < 10; ++i)
            QCOMPARE(increment(u"c%1"_s.arg(i), u"agent-counters"_s).status, 200);
        const TestReply refused = increment(u"c10"_s, u"agent-counters"_s);
        QCOMPARE(refused.status, 403);
        QCOMPARE(refused.json(), (QJsonObject {{u"error"_s, u"Counter limit reached"_s}}));
        QCOMPARE(increment(u"c3"_s, u"agent-counters"_s).json()[u"value"_s].toInt(), 2); // existing ones still count
        QCOMPARE(read(u"c10"_s, u"agent-counters"_s).json()[u"value"_s].toInt(), 0); // reading is always fine
        QCOMPARE(ownerList().size(), 10);

        // Deleting one frees a slot.
        QCOMPARE(client().api("DELETE", u"/deploy/%1/counters/c0"_s.arg(m_id), m_key).status, 200);
        QCOMPARE(increment(u"c10"_s, u"agent-counters"_s).status, 200);
    }

    void sixtyIncrementsAMinutePerIp()
    {
        const quint16 port = m_fixture->engine().port();
        SourceClient first(port, QHostAddress(u"127.0.0.2"_s));
        SourceClient second(port, QHostAddress(u"127.0.0.3"_s));
        const QString path = u"/_counter/hits/increment"_s;
        for (int i = 0; i < 60; ++i)
            QCOMPARE(first.site("POST", m_slug, path).status, 200);
        const TestReply refused = first.site("POST", m_slug, path);
        QCOMPARE(refused.status, 429);
        QCOMPARE(refused.json(), (QJsonObject {{u"error"_s, u"Rate limit exceeded"_s}}));
        QCOMPARE(refused.header("retry-after"), QByteArray("60"));
        // Reads are not increments, and another visitor has an allowance of its own.
        QCOMPARE(first.site("GET", m_slug, u"/_counter/hits"_s).json()[u"value"_s].toInt(), 60);
        QCOMPARE(second.site("POST", m_slug, path).json()[u"value"_s].toInt(), 61);
        // Bad names count too: every request counts.
        clock().advance(60'000);
        for (int i = 0; i < 60; ++i)
            QCOMPARE(first.site("POST", m_slug, u"/_counter/bad.name/increment"_s).status, 400);
        QCOMPARE(first.site("POST", m_slug, path).status, 429);
        clock().advance(60'000);
        QCOMPARE(first.site("POST", m_slug, path).json()[u"value"_s].toInt(), 62);
    }

    void concurrentIncrementsLoseNothing()
    {
        // Eight connections from eight addresses, each with 50 increments pipelined, all in flight at once.
        constexpr int kConnections = 8;
        constexpr int kEach = 50;
        const QByteArray request = SourceConnection::request("POST", siteHost(m_slug), u"/_counter/likes/increment"_s);
        std::vector<std::unique_ptr<SourceConnection>> connections;
        QList<SourceConnection *> all;
        for (int c = 0; c < kConnections; ++c) {
            connections.push_back(std::make_unique<SourceConnection>(
                m_fixture->engine().port(), QHostAddress(u"127.0.1.%1"_s.arg(c + 1))));
            all.append(connections.back().get());
        }
        for (SourceConnection *connection : all)
            connection->send(QList<QByteArray>(kEach, request));
        QVERIFY(SourceConnection::waitAll(all));

        QSet<qint64> values;
        for (SourceConnection *connection : all) {
            QCOMPARE(connection->replies().size(), kEach);
            for (const TestReply &reply : connection->replies()) {
                QCOMPARE(reply.status, 200);
                values.insert(reply.json()[u"value"_s].toInteger());
            }
        }
        // Every increment saw a value of its own, and together they are exactly 1..400.
        QCOMPARE(values.size(), kConnections * kEach);
        QCOMPARE(*std::min_element(values.cbegin(), values.cend()), 1);
        QCOMPARE(*std::max_element(values.cbegin(), values.cend()), kConnections * kEach);
        QCOMPARE(read(u"likes"_s).json()[u"value"_s].toInt(), kConnections * kEach);
    }

    void ownerDeletesACounter()
    {
        QSignalSpy removed(&m_fixture->engine().counters(), &berth::CounterService::counterRemoved);
        increment(u"a"_s);
        increment(u"b"_s);
        const TestReply deleted = client().api("DELETE", u"/deploy/%1/counters/a"_s.arg(m_id), m_key);
        QCOMPARE(deleted.status, 200);
        QCOMPARE(deleted.json()[u"name"_s].toString(), u"a"_s);
        QCOMPARE(removed.size(), 1);
        QCOMPARE(read(u"a"_s).json()[u"value"_s].toInt(), 0);
        QCOMPARE(ownerList().size(), 1);
        const TestReply again = client().api("DELETE", u"/deploy/%1/counters/a"_s.arg(m_id), m_key);
        QCOMPARE(again.status, 404);
        QCOMPARE(again.error(), u"Counter not found"_s);
    }

    void onlyTheOwnerListsOrDeletes()
    {
        increment(u"a"_s);
        const QByteArray other = m_fixture->keyFor(u"other@example.com"_s);
        for (const auto &[method, path] : QList<QPair<QByteArray, QString>> {
                 {"GET", u"/deploy/%1/counters"_s.arg(m_id)}, {"DELETE", u"/deploy/%1/counters/a"_s.arg(m_id)}}) {
            const TestReply theirs = client().api(method, path, other);
            QCOMPARE(theirs.status, 404);
            QCOMPARE(theirs.json(), (QJsonObject {{u"error"_s, u"Deployment not found"_s}}));
            QCOMPARE(client().api(method, path, {}).status, 401);
        }
        QCOMPARE(ownerList().size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestCounters)
#include "tst_counters.moc"
