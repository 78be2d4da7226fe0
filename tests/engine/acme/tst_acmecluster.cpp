// Certificates by ACME on two servers of one PostgreSQL database (the CTest fixture's cluster, or one of the suite's
// own), against Debian's pebble on loopback: node A listens on 127.0.0.1 and node B on 127.0.0.2, on the same ports,
// and pebble's DNS says which of them the CA validates at. One node orders a name, both serve its certificate by SNI,
// the state (and a failure's backoff) is the same on both, and the challenge is answered by whichever node the CA
// reaches.
#include "certificatecheck.h"
#include "domain/acme/acmechallenges.h"
#include "domain/acme/acmemanager.h"
#include "enginefixture.h"
#include "pebbleserver.h"
#include "postgrescluster.h"
#include "storage/acmecertificaterepository.h"
#include "storage/database.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;
using namespace berth::test;

namespace {
const QString kAddressA = u"127.0.0.1"_s;
const QString kAddressB = u"127.0.0.2"_s;

using State = CertificateStatus::State;

struct ClusterRig
{
    QTemporaryDir pebbleDir;
    PebbleServer pebble {pebbleDir.path()};
    std::unique_ptr<PostgresCluster> ownCluster; // only when no CTest fixture runs one
    std::unique_ptr<PostgresTestDatabase> database;
    ManualClock clock {QDateTime::currentDateTimeUtc()}; // both nodes read it, as servers under NTP would
    EngineFixture a;
    QTemporaryDir folderB;
    std::unique_ptr<Engine> b;

    bool createDatabase()
    {
        QString error;
        const QString socketFolder = PostgresCluster::fixtureOrOwn(ownCluster, &error);
        database = socketFolder.isEmpty() ? nullptr : std::make_unique<PostgresTestDatabase>(socketFolder);
        if (!database || !database->create(&error)) {
            qWarning("%s", qPrintable(error));
            return false;
        }
        return true;
    }
    EngineSettings settings(const QString &address) const
    {
        EngineSettings node;
        node.databaseUrl = database->url();
        node.clock = &clock;
        node.listenAddress = QHostAddress(address);
        node.listenPort = pebble.berthPort(); // where pebble validates, on the address its DNS gives
        node.httpsPort = pebble.berthHttpsPort();
        node.servingThreads = 1;
        node.acme = pebble.berthSettings();
        return node;
    }
    bool start()
    {
        if (!createDatabase() || !pebble.start(kCertificateSeconds) || !a.start(settings(kAddressA)))
            return false;
        EngineSettings settingsB = settings(kAddressB);
        settingsB.dataDir = folderB.path();
        b = std::make_unique<Engine>(settingsB);
        if (const Result<void> started = b->start(); !started) {
            qWarning("node B did not start: %s", qPrintable(started.error().message));
            return false;
        }
        return true;
    }
    AcmeManager &acmeA() { return *a.engine().acme(); }
    AcmeManager &acmeB() { return *b->acme(); }
    // A site with the custom domain, deployed through A; B learns of it through the database.
    bool deploy(const QString &name)
    {
        const QJsonObject site {
            {u"slug"_s, u"the-docs"_s}, {u"html"_s, u"<p>the docs</p>"_s}, {u"domains"_s, QJsonArray {name}}};
        return a.deployAsOwner(site).status == 200;
    }
    QString certificates(const QString &folder) const { return folder + u"/certificates"_s; }
    QByteArray chain(const QString &folder, const QString &name = kName) const
    {
        return readFile(certificates(folder) + u'/' + name + u".pem"_s);
    }
    // Whether the node ever placed an order: its account key is made for its first one.
    bool ordered(const QString &folder) const { return QFile::exists(certificates(folder) + u"/account.key"_s); }
};

} // namespace

class TestAcmeCluster : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        if (!PebbleServer::installed())
            QSKIP("pebble and pebble-challtestsrv (Debian's pebble package) are not installed");
        if (qEnvironmentVariableIsEmpty(PostgresCluster::kEnvironmentVariable) && !PostgresCluster::binariesAvailable())
            QSKIP("PostgreSQL's server programs are not installed");
    }

    void oneNodeOrdersBothServeAndTheOtherAnswersTheChallenge()
    {
        ClusterRig rig;
        QVERIFY(rig.start());
        // The CA validates at B, which did not order: B answers with what A's order put in the database.
        QVERIFY(rig.pebble.pointAt(kName, kAddressB));
        QVERIFY(rig.deploy(kName)); // A orders as the deploy commits, before B hears of the name
        QTRY_COMPARE(rig.acmeB().names(), QStringList {kName});
        QTRY_COMPARE_WITH_TIMEOUT(rig.acmeA().status(kName).state, State::Active, kIssueTimeoutMs);
        QTRY_COMPARE(rig.acmeB().status(kName).state, State::Active); // told through the database
        QCOMPARE(rig.acmeB().status(kName).expiresAt, rig.acmeA().status(kName).expiresAt);

        // One order, one certificate: the same chain in both data folders; B never placed an order.
        const QByteArray chain = rig.chain(rig.a.dataDir());
        QVERIFY(verifiesAgainst(chain, rig.pebble.rootPem(), rig.pebbleDir.path()));
        QCOMPARE(rig.chain(rig.folderB.path()), chain);
        QVERIFY(rig.ordered(rig.a.dataDir()));
        QVERIFY(!rig.ordered(rig.folderB.path()));
        const auto others = QFile::ReadGroup | QFile::WriteGroup | QFile::ReadOther | QFile::WriteOther;
        QCOMPARE(QFile::permissions(rig.certificates(rig.folderB.path()) + u'/' + kName + u".key"_s) & others,
            QFile::Permissions());

        // Both serve it by SNI, to curl trusting only pebble's root.
        const QString root = rig.pebbleDir.filePath(u"pebble-root.pem"_s);
        QVERIFY(writeFile(root, rig.pebble.rootPem()));
        for (const QString &address : {kAddressA, kAddressB}) {
            const CurlOutcome fetched = curlHttps(kName, address, rig.pebble.berthHttpsPort(), root);
            QVERIFY2(fetched.exitCode == 0, fetched.err.constData());
            QVERIFY(fetched.out.contains("the docs"));
        }
        // The answer is gone from the database with the order.
        Database db(QString(), rig.database->url());
        QVERIFY(db.open());
        const auto answersLeft = [&db] {
            QSqlQuery query(db.connection());
            return query.exec(u"SELECT COUNT(*) FROM acme_challenges"_s) && query.next() ? query.value(0).toInt() : -1;
        };
        QTRY_COMPARE(answersLeft(), 0);

        // A restarted B serves it from the start, without ordering.
        rig.b.reset();
        EngineSettings settingsB = rig.settings(kAddressB);
        settingsB.dataDir = rig.folderB.path();
        rig.b = std::make_unique<Engine>(settingsB);
        QVERIFY(rig.b->start());
        QCOMPARE(rig.acmeB().status(kName).state, State::Active);
        QCOMPARE(curlHttps(kName, kAddressB, rig.pebble.berthHttpsPort(), root).exitCode, 0);
        QVERIFY(!rig.ordered(rig.folderB.path()));
    }

    void aFailureAndItsBackoffAreSharedAndEitherNodeRetries()
    {
        ClusterRig rig;
        QVERIFY(rig.start());
        QVERIFY(rig.pebble.pointAt(kName, u"127.0.0.9"_s)); // nothing listens there: validation fails
        QVERIFY(rig.deploy(kName));
        QTRY_COMPARE_WITH_TIMEOUT(rig.acmeA().status(kName).state, State::Failed, kIssueTimeoutMs);
        const CertificateStatus failed = rig.acmeA().status(kName);
        QTRY_COMPARE(rig.acmeB().status(kName).state, State::Failed);
        QCOMPARE(rig.acmeB().status(kName).error, failed.error);
        QCOMPARE(rig.acmeB().status(kName).nextAttemptAt, failed.nextAttemptAt);

        // Not before the backoff, on either node.
        rig.clock.set(failed.nextAttemptAt.addSecs(-1));
        rig.acmeB().check();
        rig.acmeA().check();
        QCOMPARE(rig.acmeB().status(kName).state, State::Failed);
        QCOMPARE(rig.acmeA().status(kName).state, State::Failed);

        // Then the first node to look orders (B here), and the other waits for it. The CA now reaches A, which
        // answers for B's order.
        QVERIFY(rig.pebble.pointAt(kName, kAddressA));
        rig.clock.set(failed.nextAttemptAt.addSecs(1));
        rig.acmeB().check();
        QCOMPARE(rig.acmeB().status(kName).state, State::Pending);
        rig.acmeA().check();
        QCOMPARE(rig.acmeA().status(kName).state, State::Pending);
        QTRY_COMPARE_WITH_TIMEOUT(rig.acmeB().status(kName).state, State::Active, kIssueTimeoutMs);
        QTRY_COMPARE(rig.acmeA().status(kName).state, State::Active);
        QVERIFY(rig.acmeA().status(kName).error.isEmpty());
        QCOMPARE(rig.chain(rig.a.dataDir()), rig.chain(rig.folderB.path()));
        QVERIFY(rig.ordered(rig.folderB.path()));
    }

    void theLeaseIsOnesAtATimeUntilItRunsOut()
    {
        // The repository alone, on a fresh database: what decides which server orders.
        ClusterRig rig;
        QVERIFY(rig.createDatabase());
        Database db(QString(), rig.database->url());
        QVERIFY(db.open());
        AcmeCertificateRepository repository(db);
        const QDateTime now = QDateTime::currentDateTimeUtc();
        const qint64 ms = now.toMSecsSinceEpoch();
        QCOMPARE(repository.takeLease(kName, u"node_a"_s, ms, ms + 1000, now).value(), true);
        QCOMPARE(repository.takeLease(kName, u"node_b"_s, ms + 999, ms + 2000, now).value(), false);
        QCOMPARE(repository.takeLease(kName, u"node_a"_s, ms + 999, ms + 2000, now).value(), true); // its own again
        QCOMPARE(repository.find(kName).value()->state, u"pending"_s);
        QCOMPARE(repository.takeLease(kName, u"node_b"_s, ms + 2000, ms + 3000, now).value(), true); // ran out

        // Only the holder's order is written; then the lease is free for anyone.
        AcmeCertificateRow row;
        row.name = kName;
        row.state = u"failed"_s;
        row.error = u"validation failed"_s;
        row.failures = 1;
        QCOMPARE(repository.finish(row, u"node_a"_s, now).value(), false);
        QCOMPARE(repository.finish(row, u"node_b"_s, now).value(), true);
        const AcmeCertificateRow stored = *repository.find(kName).value();
        QCOMPARE(stored.state, u"failed"_s);
        QCOMPARE(stored.error, row.error);
        QVERIFY(stored.leaseHolder.isEmpty());
        QCOMPARE(repository.takeLease(kName, u"node_a"_s, ms, ms + 1000, now).value(), true);

        // Challenge answers: shared by token, and only what was put there.
        QVERIFY(repository.addChallenge("tokenA", "tokenA.thumb", now));
        QCOMPARE(repository.challenge("tokenA").value(), std::optional<QByteArray>("tokenA.thumb"));
        QCOMPARE(repository.challenge("tokenB").value(), std::optional<QByteArray>());
        QVERIFY(repository.removeChallenge("tokenA"));
        QCOMPARE(repository.challenge("tokenA").value(), std::optional<QByteArray>());
    }

    void theDatabaseIsAskedOnlyForANameOrderedElsewhere()
    {
        // A stranger's challenge requests reach the shared answers (the database) only for a name another server
        // is ordering now, and only with a token shaped like a CA's.
        AcmeChallenges challenges;
        int lookups = 0;
        AcmeChallenges::SharedAnswers shared;
        shared.find = [&lookups](const QByteArray &token) -> std::optional<QByteArray> {
            ++lookups;
            return token + ".thumb";
        };
        challenges.share(shared);
        QCOMPARE(challenges.answerShared("tokenA", kName), std::nullopt); // nobody orders it
        QCOMPARE(lookups, 0);
        challenges.setOrderedElsewhere(kName, true);
        QVERIFY(challenges.isOrderedElsewhere(kName));
        QCOMPARE(challenges.answerShared("tokenA", u"other.example.org"_s), std::nullopt);
        QCOMPARE(challenges.answerShared("not/a;token", kName), std::nullopt);
        QCOMPARE(challenges.answerShared(QByteArray(300, 'a'), kName), std::nullopt);
        QCOMPARE(lookups, 0);
        QCOMPARE(challenges.answerShared("tokenA", kName), std::optional<QByteArray>("tokenA.thumb"));
        QCOMPARE(lookups, 1);
        challenges.setOrderedElsewhere(kName, false); // the order ended
        QCOMPARE(challenges.answerShared("tokenA", kName), std::nullopt);
        QCOMPARE(lookups, 1);
        challenges.add("own", "own.thumb"); // this server's own answers come from memory
        QCOMPARE(challenges.answerShared("own", u"anything.example"_s), std::optional<QByteArray>("own.thumb"));
        QCOMPARE(lookups, 1);
    }
};

QTEST_GUILESS_MAIN(TestAcmeCluster)
#include "tst_acmecluster.moc"
