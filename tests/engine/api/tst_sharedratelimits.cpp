// Shared rate limits over real HTTP: two nodes on one PostgreSQL database (the CTest fixture's cluster),
// one client address's requests split across both. With shared limits exactly N are let through in all, the rest get
// 429 with Retry-After on either node, another address is unaffected, and the window moves with the ManualClock both
// nodes read; every limited route is covered. Without them each node counts on its own (twice as much gets through).
// With SQLite, shared limits are refused.
#include "enginefixture.h"
#include "postgrescluster.h"
#include "sourceclient.h"

#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;
using namespace berth::test;

namespace {

const QDateTime kStart(QDate(2026, 11, 25), QTime(6, 0), Qt::UTC); // a 5 s bucket starts here
const QString kSite = u"shared-limits"_s;
const QString kGated = u"gated-limits"_s;
constexpr int kApiRate = 6; // --api-rate of both nodes

// One request, to the API host or to a site.
struct Call
{
    Call() = default;
    Call(QByteArray method, QString path, QByteArray body = {}, QByteArray contentType = {}, QString site = {})
        : method(std::move(method))
        , path(std::move(path))
        , body(std::move(body))
        , contentType(std::move(contentType))
        , site(std::move(site))
    {
    }

    QByteArray method;
    QString path;
    QByteArray body;
    QByteArray contentType;
    QString site; // empty: the API
    QByteArray key; // a Bearer key, or none
};

} // namespace

Q_DECLARE_METATYPE(Call)

class TestSharedRateLimits : public QObject
{
    Q_OBJECT

    std::unique_ptr<PostgresTestDatabase> m_database;
    std::unique_ptr<ManualClock> m_clock;
    std::unique_ptr<EngineFixture> m_a; // node A: deploys the sites before B starts
    std::unique_ptr<QTemporaryDir> m_folderB;
    std::unique_ptr<Engine> m_b;
    QString m_siteId;

    bool startNodes(bool shared)
    {
        const QString cluster = qEnvironmentVariable(PostgresCluster::kEnvironmentVariable);
        m_database = std::make_unique<PostgresTestDatabase>(cluster);
        QString error;
        if (!m_database->create(&error)) {
            qWarning("%s", qPrintable(error));
            return false;
        }
        m_clock = std::make_unique<ManualClock>(kStart);
        EngineSettings settings;
        settings.databaseUrl = m_database->url();
        settings.clock = m_clock.get();
        settings.sharedRateLimits = shared;
        settings.apiRequestsPerMinute = kApiRate;
        m_a = std::make_unique<EngineFixture>();
        if (!m_a->start(settings))
            return false;
        m_siteId = m_a->deploySite(m_a->ownerKey(), kSite);
        const TestReply gated = m_a->client().api("POST", u"/deploy"_s, m_a->ownerKey(),
            QJsonObject {{u"slug"_s, kGated}, {u"protect"_s, true}, {u"password"_s, u"right"_s},
                {u"html"_s, u"<p>inside</p>"_s}});
        if (m_siteId.isEmpty() || gated.status != 200)
            return false;

        m_folderB = std::make_unique<QTemporaryDir>();
        settings.dataDir = m_folderB->path();
        settings.listenPort = 0;
        settings.servingThreads = 2;
        m_b = std::make_unique<Engine>(settings);
        const Result<void> started = m_b->start();
        if (!started)
            qWarning("node B did not start: %s", qPrintable(started.error().message));
        return started.ok();
    }
    quint16 port(int node) const { return node == 0 ? m_a->engine().port() : m_b->port(); }

    TestReply send(int node, const char *address, const Call &call)
    {
        SourceClient client(port(node), QHostAddress(QString::fromLatin1(address)));
        QList<QPair<QByteArray, QByteArray>> headers;
        if (!call.contentType.isEmpty())
            headers.append({"Content-Type", call.contentType});
        if (!call.key.isEmpty())
            headers.append({"Authorization", "Bearer " + call.key});
        if (!call.site.isEmpty())
            return client.site(call.method, call.site, call.path, call.body, headers);
        return client.request(call.method, u"localhost:%1"_s.arg(port(node)), call.path, call.body, headers);
    }
    // `count` requests from one address, alternately on A and B: how many were not refused (none may fail otherwise).
    int split(int count, const char *address, const Call &call)
    {
        int through = 0;
        for (int i = 0; i < count; ++i) {
            const TestReply reply = send(i % 2, address, call);
            if (reply.status == 0)
                qWarning("request %d got no answer", i);
            else if (reply.status != 429)
                ++through;
        }
        return through;
    }
    static void verifyRefused(const TestReply &reply, int retryAfter)
    {
        QCOMPARE(reply.status, 429);
        QCOMPARE(reply.header("retry-after").toInt(), retryAfter);
    }
    qint64 rows(const QString &statement) const
    {
        Database db(QString(), m_database->url());
        if (!db.open())
            return -1;
        QSqlQuery query(db.connection());
        return query.exec(statement) && query.next() ? query.value(0).toLongLong() : -1;
    }

private Q_SLOTS:
    void init()
    {
        if (qEnvironmentVariableIsEmpty(PostgresCluster::kEnvironmentVariable))
            QSKIP("no PostgreSQL test cluster (BERTH_TEST_POSTGRES)");
    }
    void cleanup()
    {
        m_b.reset();
        m_folderB.reset();
        m_a.reset();
        m_database.reset();
    }

    void submissionsAcrossNodes()
    {
        QVERIFY(startNodes(true));
        const Call submit {"POST", u"/_submit"_s, R"({"message":"hi"})", "application/json", kSite};
        // Ten in ten seconds from one address, alternately on A and B: hits at 0-4 s in one bucket, 5-9 s in the next.
        for (int i = 0; i < 10; ++i) {
            QCOMPARE(send(i % 2, "127.0.0.2", submit).status, 200);
            m_clock->advance(1000);
        }
        // The eleventh is refused on both nodes, until the first bucket has wholly left the window (5 s + 60 s).
        verifyRefused(send(0, "127.0.0.2", submit), 55);
        verifyRefused(send(1, "127.0.0.2", submit), 55);
        QCOMPARE(send(1, "127.0.0.3", submit).status, 200); // another visitor is not affected
        m_clock->set(kStart.addMSecs(64'999));
        verifyRefused(send(0, "127.0.0.2", submit), 1);
        verifyRefused(send(1, "127.0.0.2", submit), 1);
        // The first bucket's five leave together: five more, wherever they land; then the next bucket's wait.
        m_clock->advance(1);
        QCOMPARE(split(5, "127.0.0.2", submit), 5);
        verifyRefused(send(1, "127.0.0.2", submit), 5);
        verifyRefused(send(0, "127.0.0.2", submit), 5);
        const QJsonObject listed
            = m_a->client().api("GET", u"/deploy/%1/submissions"_s.arg(m_siteId), m_a->ownerKey()).json();
        QCOMPARE(listed[u"total"_s].toInt(), 16); // nothing refused was stored

        // The table holds what the windows still need: once they have passed, the next request's pruning leaves only
        // its own bucket.
        QVERIFY(rows(u"SELECT COUNT(*) FROM rate_windows"_s) > 1);
        m_clock->advance(3 * 60'000);
        QCOMPARE(send(0, "127.0.0.4", submit).status, 200);
        QCOMPARE(rows(u"SELECT COUNT(*) FROM rate_windows"_s), 1);
    }

    void everyLimitIsShared_data()
    {
        QTest::addColumn<Call>("call");
        QTest::addColumn<int>("limit");
        QTest::addColumn<int>("windowSeconds");
        QTest::newRow("POST /_counter/:name/increment")
            << Call {"POST", u"/_counter/visits/increment"_s, {}, {}, kSite} << 60 << 60;
        QTest::newRow("POST /_gate") << Call {"POST", u"/_gate"_s, "password=wrong",
            "application/x-www-form-urlencoded", kGated}
                                     << 10 << 60;
        QTest::newRow("POST /auth/session") << Call {"POST", u"/auth/session"_s} << 5 << 60;
        QTest::newRow("POST /auth/otp") << Call {"POST", u"/auth/otp"_s, R"({"email":"ann@example.com"})",
            "application/json"} << 3 << 60;
        QTest::newRow("GET /auth/login") << Call {"GET", u"/auth/login"_s} << 30 << 60;
        QTest::newRow("the API, per key") << Call {"GET", u"/auth/me"_s} << kApiRate << 60;
    }
    void everyLimitIsShared()
    {
        QFETCH(Call, call);
        QFETCH(int, limit);
        QFETCH(int, windowSeconds);
        QVERIFY(startNodes(true));
        if (call.path == u"/auth/me")
            call.key = m_a->keyFor(u"keyed@example.com"_s);
        // Twice the limit, alternately on A and B: the limit gets through, not a request more. All in the first
        // bucket, which leaves the window 5 s after the window's length.
        QCOMPARE(split(2 * limit, "127.0.0.2", call), limit);
        verifyRefused(send(0, "127.0.0.2", call), windowSeconds + 5);
        verifyRefused(send(1, "127.0.0.2", call), windowSeconds + 5);
        if (call.key.isEmpty())
            QVERIFY(send(1, "127.0.0.3", call).status != 429);
        m_clock->advance((windowSeconds + 5) * 1000 - 1);
        verifyRefused(send(1, "127.0.0.2", call), 1);
        m_clock->advance(1);
        QVERIFY(send(1, "127.0.0.2", call).status != 429);
        if (call.path.startsWith(u"/_counter"))
            QCOMPARE(m_a->client().site(kSite, u"/_counter/visits"_s).json()[u"value"_s].toInt(), limit + 2);
    }

    void verifyTriesAreShared()
    {
        QVERIFY(startNodes(true));
        const Call verify {
            "POST", u"/auth/verify"_s, R"({"email":"ann@example.com","code":"123456"})", "application/json"};
        // Ten a minute per address...
        QCOMPARE(split(20, "127.0.0.2", verify), 10);
        verifyRefused(send(0, "127.0.0.2", verify), 65);
        // ...and ten per address and email while a code lives (10 minutes): a minute later this address may try
        // again, on either node, but not for this email.
        m_clock->advance(65'000);
        const TestReply tooMany = send(1, "127.0.0.2", verify);
        verifyRefused(tooMany, 540);
        QCOMPARE(tooMany.error(), u"Too many tries for this email from this address"_s);
        verifyRefused(send(0, "127.0.0.2", verify), 540);
        Call otherEmail = verify;
        otherEmail.body = R"({"email":"bob@example.com","code":"123456"})";
        QVERIFY(send(0, "127.0.0.2", otherEmail).status != 429);
    }

    void eachNodeCountsOnItsOwnWhenOff()
    {
        QVERIFY(startNodes(false));
        const Call submit {"POST", u"/_submit"_s, R"({"message":"hi"})", "application/json", kSite};
        for (int node : {0, 1}) {
            for (int i = 0; i < 10; ++i)
                QCOMPARE(send(node, "127.0.0.2", submit).status, 200);
            verifyRefused(send(node, "127.0.0.2", submit), 60);
        }
        QCOMPARE(rows(u"SELECT COUNT(*) FROM rate_windows"_s), 0);
        QCOMPARE(m_a->client()
                     .api("GET", u"/deploy/%1/submissions"_s.arg(m_siteId), m_a->ownerKey())
                     .json()[u"total"_s]
                     .toInt(),
            20);
    }

    void sqliteRefusesSharedLimits()
    {
        QTemporaryDir folder;
        EngineSettings settings;
        settings.dataDir = folder.path();
        settings.listenPort = 0;
        settings.sharedRateLimits = true;
        Engine engine(settings);
        const Result<void> started = engine.start();
        QVERIFY(!started);
        QCOMPARE(started.error().message, u"Shared rate limits need a PostgreSQL database (--database)"_s);
        QCOMPARE(engine.port(), 0);
    }
};

QTEST_GUILESS_MAIN(TestSharedRateLimits)
#include "tst_sharedratelimits.moc"
