// Shared rate limits on a real PostgreSQL database (the CTest fixture's cluster): several servers (connections) count
// in one table, exactly, in buckets of 5 s; refusals are remembered until their Retry-After; the node's own limiter
// decides while the database is away; old buckets are pruned. Time is a ManualClock.
#include "domain/common/clock.h"
#include "domain/ratelimit/ratelimitservice.h"
#include "postgrescluster.h"
#include "storage/database.h"
#include "storage/ratewindowrepository.h"

#include <QSqlQuery>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>
#include <atomic>

using namespace Qt::StringLiterals;
using namespace berth;

namespace {

const QDateTime T0(QDate(2026, 11, 25), QTime(12, 0), Qt::UTC); // a bucket starts here
constexpr qint64 kMinute = 60'000;

// One server's limits: its own limiter, sharing through its own connection.
struct Node
{
    Node(Database &db, const Clock &clock)
        : windows(db)
        , limiter(clock)
        , limits(limiter, clock)
    {
        limits.share(windows, &context);
    }
    RateWindowRepository windows;
    RateLimiter limiter;
    RateLimitService limits;
    QObject context; // the thread that owns the connection: this one
};

} // namespace

class TestRateLimitService : public QObject
{
    Q_OBJECT

    std::unique_ptr<test::PostgresTestDatabase> m_database;
    std::unique_ptr<Database> m_db; // one server's connection
    std::unique_ptr<Database> m_other; // another server's
    std::unique_ptr<ManualClock> m_clock;

    qint64 scalar(const QString &statement)
    {
        QSqlQuery query(m_other->connection());
        if (!query.exec(statement) || !query.next())
            return -1;
        return query.value(0).toLongLong();
    }

private Q_SLOTS:
    void init()
    {
        BERTH_CREATE_FRESH_POSTGRES_DATABASE(m_database);
        m_db = std::make_unique<Database>(QString(), m_database->url());
        QVERIFY(m_db->open());
        m_other = std::make_unique<Database>(QString(), m_database->url());
        QVERIFY(m_other->open());
        m_clock = std::make_unique<ManualClock>(T0);
    }
    void cleanup()
    {
        m_db.reset();
        m_other.reset();
        m_database.reset();
    }

    void countsInBucketsOfFiveSeconds()
    {
        Node node(*m_db, *m_clock);
        const RateRule rule {3, kMinute};
        // Hits at 0 s and 4 s fall in the bucket [0 s, 5 s), the one at 6 s in [5 s, 10 s).
        QVERIFY(node.limits.hit(u"k"_s, rule).allowed);
        m_clock->advance(4'000);
        QVERIFY(node.limits.hit(u"k"_s, rule).allowed);
        m_clock->advance(2'000);
        QVERIFY(node.limits.hit(u"k"_s, rule).allowed);
        m_clock->advance(1'000);
        // The first bucket counts until it has wholly left the window: until 5 s + 60 s, 58 s from now.
        RateDecision refused = node.limits.hit(u"k"_s, rule);
        QVERIFY(!refused.allowed);
        QCOMPARE(refused.retryAfterSeconds, 58);
        m_clock->set(T0.addMSecs(64'999));
        refused = node.limits.hit(u"k"_s, rule);
        QVERIFY(!refused.allowed);
        QCOMPARE(refused.retryAfterSeconds, 1);
        // At 65 s its two hits leave: two more, and the third waits for the bucket of 6 s (until 70 s).
        m_clock->advance(1);
        QVERIFY(node.limits.hit(u"k"_s, rule).allowed);
        QVERIFY(node.limits.hit(u"k"_s, rule).allowed);
        refused = node.limits.hit(u"k"_s, rule);
        QVERIFY(!refused.allowed);
        QCOMPARE(refused.retryAfterSeconds, 5);
        QCOMPARE(node.limiter.keyCount(), 0); // the node's own limiter was not asked
        QVERIFY(node.limits.hit(u"other key"_s, rule).allowed);
    }

    void serversShareOneCount()
    {
        Node a(*m_db, *m_clock);
        Node b(*m_other, *m_clock);
        const RateRule rule {10, kMinute};
        int accepted = 0;
        for (int i = 0; i < 20; ++i) {
            if ((i % 2 == 0 ? a : b).limits.hit(u"submit:127.0.0.2"_s, rule).allowed)
                ++accepted;
        }
        QCOMPARE(accepted, 10);
        const RateDecision onA = a.limits.hit(u"submit:127.0.0.2"_s, rule);
        const RateDecision onB = b.limits.hit(u"submit:127.0.0.2"_s, rule);
        QVERIFY(!onA.allowed && !onB.allowed);
        QCOMPARE(onA.retryAfterSeconds, 65);
        QCOMPARE(onB.retryAfterSeconds, 65);
        QVERIFY(b.limits.hit(u"submit:127.0.0.3"_s, rule).allowed); // another client is not affected
        // The table holds a digest of each key, never a client's address.
        QCOMPARE(scalar(u"SELECT COUNT(*) FROM rate_windows WHERE limit_key LIKE '%127.0.0%'"_s), 0);
        QCOMPARE(scalar(u"SELECT COUNT(DISTINCT limit_key) FROM rate_windows"_s), 2);
    }

    // Servers asking at the same moment: each call decides and counts under the key's lock, so the last hit is
    // taken once. Four connections on four threads race for 50 of 160 hits, on each of ten keys in turn.
    void exactUnderConcurrency()
    {
        constexpr int kThreads = 4;
        constexpr int kKeys = 10;
        constexpr int kHitsEach = 40;
        constexpr int kLimit = 50;
        const qint64 now = T0.toMSecsSinceEpoch();
        std::atomic<int> accepted {0};
        std::atomic<int> failed {0};
        std::atomic<int> ready {0};
        QList<QThread *> threads;
        for (int t = 0; t < kThreads; ++t) {
            threads.append(QThread::create([&, url = m_database->url()] {
                Database db(QString(), url);
                if (!db.open()) {
                    ++failed;
                    return;
                }
                RateWindowRepository windows(db);
                ++ready;
                while (ready.load() < kThreads) // start together
                    QThread::yieldCurrentThread();
                for (int key = 0; key < kKeys; ++key) {
                    for (int i = 0; i < kHitsEach; ++i) {
                        const Result<qint64> wait
                            = windows.hit(u"race %1"_s.arg(key), now, RateLimitService::kBucketMs, kMinute, kLimit);
                        if (!wait)
                            ++failed;
                        else if (wait.value() == 0)
                            ++accepted;
                    }
                }
            }));
            threads.last()->start();
        }
        for (QThread *thread : std::as_const(threads)) {
            QVERIFY(thread->wait(120'000));
            delete thread;
        }
        QCOMPARE(failed.load(), 0);
        QCOMPARE(accepted.load(), kKeys * kLimit);
        QCOMPARE(scalar(u"SELECT MAX(hits) FROM rate_windows"_s), kLimit);
    }

    void refusalIsRememberedUntilItsRetryAfter()
    {
        Node node(*m_db, *m_clock);
        const RateRule rule {1, kMinute};
        QVERIFY(node.limits.hit(u"k"_s, rule).allowed);
        QVERIFY(!node.limits.hit(u"k"_s, rule).allowed);
        // The row goes (as if the window had passed): a remembered refusal does not ask the database again...
        QCOMPARE(scalar(u"WITH gone AS (DELETE FROM rate_windows RETURNING 1) SELECT COUNT(*) FROM gone"_s), 1);
        m_clock->advance(30'000);
        RateDecision decision = node.limits.hit(u"k"_s, rule);
        QVERIFY(!decision.allowed);
        QCOMPARE(decision.retryAfterSeconds, 35);
        // ...not from a serving thread either, which gets it at once, without a trip to the database's thread.
        std::optional<RateDecision> fromElsewhere;
        std::unique_ptr<QThread> serving(QThread::create(
            [&] { node.limits.hitFromAnyThread(u"k"_s, rule, [&](RateDecision d) { fromElsewhere = d; }); }));
        serving->start();
        QVERIFY(serving->wait(10'000));
        QVERIFY(fromElsewhere && !fromElsewhere->allowed);
        QCOMPARE(fromElsewhere->retryAfterSeconds, 35);
        // ...until the moment it named.
        m_clock->advance(35'000);
        QVERIFY(node.limits.hit(u"k"_s, rule).allowed);
    }

    void aServingThreadsRequestIsDecidedOnTheDatabasesThread()
    {
        Node node(*m_db, *m_clock);
        const RateRule rule {1, kMinute};
        QThread *decidedOn = nullptr;
        std::optional<RateDecision> decision;
        std::unique_ptr<QThread> serving(QThread::create([&] {
            node.limits.hitFromAnyThread(u"gate:127.0.0.2"_s, rule, [&](RateDecision d) {
                decidedOn = QThread::currentThread();
                decision = d;
            });
        }));
        serving->start();
        QVERIFY(serving->wait(10'000));
        QVERIFY(!decision); // not on the serving thread: posted to the connection's thread
        QTRY_VERIFY(decision.has_value());
        QVERIFY(decision->allowed);
        QCOMPARE(decidedOn, QThread::currentThread());
        QCOMPARE(scalar(u"SELECT SUM(hits) FROM rate_windows"_s), 1);
    }

    void theNodeDecidesWhileTheDatabaseIsAway()
    {
        Node node(*m_db, *m_clock);
        const RateRule rule {2, kMinute};
        QVERIFY(node.limits.hit(u"k"_s, rule).allowed);
        QVERIFY(node.limits.hit(u"k"_s, rule).allowed);
        // The server ends this node's session (a restart, a failover): the next round trip fails.
        QSqlQuery pid(m_db->connection());
        QVERIFY(pid.exec(u"SELECT pg_backend_pid()"_s) && pid.next());
        QCOMPARE(
            scalar(u"SELECT COUNT(*) FROM pg_terminate_backend(%1) AS t(ok) WHERE ok"_s.arg(pid.value(0).toInt())), 1);
        pid.finish();
        // The node's own limiter, which has counted nothing yet, lets it through; the shared count would not have.
        QVERIFY(node.limits.hit(u"k"_s, rule).allowed);
        QCOMPARE(node.limiter.keyCount(), 1);
        // The connection is opened again: shared once more, and the database still holds the two hits.
        const RateDecision refused = node.limits.hit(u"k"_s, rule);
        QVERIFY(!refused.allowed);
        QCOMPARE(refused.retryAfterSeconds, 65);
    }

    // Buckets past their windows are removed at most once a minute (by the clock), by the next limited request,
    // whatever their keys: the table holds what the windows still need, not a history.
    void oldBucketsArePruned()
    {
        Node node(*m_db, *m_clock);
        const RateRule rule {20, kMinute}; // never reached: every knock is counted
        qint64 most = 0;
        // Ten minutes of 40 clients, each knocking every 5 s (a new bucket each time).
        for (int step = 0; step < 120; ++step) {
            for (int client = 0; client < 40; ++client)
                node.limits.hit(u"submit:10.0.0.%1"_s.arg(client), rule);
            most = std::max(most, scalar(u"SELECT COUNT(*) FROM rate_windows"_s));
            m_clock->advance(5'000);
        }
        // A key's own buckets go as it hits again: never more than the 13 buckets that overlap its window.
        QVERIFY2(most >= 40 * 12 && most <= 40 * 13, qPrintable(QString::number(most)));
        // Everyone leaves; one request a window and a minute later finds only its own bucket.
        m_clock->advance(kMinute + RateLimitService::kBucketMs + RateLimitService::kPruneIntervalMs);
        QVERIFY(node.limits.hit(u"submit:10.0.1.1"_s, rule).allowed);
        QCOMPARE(scalar(u"SELECT COUNT(*) FROM rate_windows"_s), 1);
    }

    void sqliteHasTheTableButSharesNothing()
    {
        QTemporaryDir dir;
        Database sqlite(dir.filePath(u"berth.sqlite"_s));
        QVERIFY(sqlite.open());
        QSqlQuery query(sqlite.connection());
        QVERIFY(query.exec(u"SELECT COUNT(*) FROM rate_windows"_s) && query.next()); // one schema on both
        QCOMPARE(query.value(0).toInt(), 0);
        query.finish();
        RateWindowRepository windows(sqlite);
        QVERIFY(!windows.hit(u"k"_s, T0.toMSecsSinceEpoch(), RateLimitService::kBucketMs, kMinute, 1));
    }
};

QTEST_GUILESS_MAIN(TestRateLimitService)
#include "tst_ratelimitservice.moc"
