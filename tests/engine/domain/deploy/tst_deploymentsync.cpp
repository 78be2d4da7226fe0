// DeploymentSync on a real PostgreSQL database (the CTest fixture's cluster): changes written through another
// connection (another server) reach this server's SiteTable by notification, and the resync finds what no
// notification announced.
#include "deploymentfixture.h"
#include "domain/common/clock.h"
#include "domain/deploy/deploymentservice.h"
#include "domain/deploy/deploymentsync.h"
#include "domain/deploy/siteloader.h"
#include "domain/plans/plantable.h"
#include "domain/siterules/sitetable.h"
#include "postgrescluster.h"
#include "storage/blobstore.h"
#include "storage/database.h"
#include "storage/deploymentrepository.h"
#include "storage/userrepository.h"

#include <QDeadlineTimer>
#include <QSqlQuery>
#include <QtTest>

using namespace Qt::StringLiterals;
using namespace berth;

namespace {

const QDateTime T0(QDate(2026, 11, 23), QTime(12, 0), Qt::UTC);

} // namespace

class TestDeploymentSync : public QObject
{
    Q_OBJECT

    std::unique_ptr<test::PostgresTestDatabase> m_database;
    std::unique_ptr<test::DeploymentFixture> m_fixture; // this server, on its own connection
    std::unique_ptr<Database> m_other; // another server's connection
    std::unique_ptr<DeploymentSync> m_sync;

    // Another server creates a deployment: its rows only, written on its own connection.
    QString createElsewhere(const QString &slug)
    {
        Deployment deployment;
        deployment.id = u"dep_"_s + slug.left(8).remove(u'-');
        deployment.userId = m_fixture->owner().id;
        deployment.slug = slug;
        deployment.storageType = u"html"_s;
        deployment.createdAt = T0;
        deployment.updatedAt = T0;
        const QList<StoredFile> files {{u"index.html"_s, BlobStore::hashOf("<p>hi</p>"), 9, "text/html"}};
        return DeploymentRepository(*m_other).insert(deployment, files) ? deployment.id : QString();
    }
    bool runElsewhere(const QString &statement)
    {
        QSqlQuery query(m_other->connection());
        return query.exec(statement);
    }
    // Lets the event loop deliver notifications until `done` or a second has passed.
    template<typename Done>
    static bool within1s(Done done)
    {
        const QDeadlineTimer deadline(1000);
        while (!done() && !deadline.hasExpired())
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        return done();
    }

private Q_SLOTS:
    void init()
    {
        BERTH_CREATE_FRESH_POSTGRES_DATABASE(m_database);
        m_fixture = std::make_unique<test::DeploymentFixture>(
            User {u"usr_sync"_s, u"sync@example.com"_s, u"pro"_s, false, T0}, T0);
        test::DeploymentFixture::Options options;
        options.databaseUrl = m_database->url();
        options.loadSites = false; // below, once the sync listens: no change falls between the load and the listen
        QVERIFY(m_fixture->start(options));
        m_other = std::make_unique<Database>(QString(), m_database->url());
        QVERIFY(m_other->open());
        // A resync interval no test reaches: resyncs happen when a test calls resync().
        m_sync = std::make_unique<DeploymentSync>(m_fixture->database(), m_fixture->loader(), 3'600'000);
        QVERIFY(m_sync->start());
        QVERIFY(m_fixture->loader().loadSites());
    }
    void cleanup()
    {
        m_sync.reset();
        m_fixture.reset();
        m_other.reset();
        m_database.reset();
    }

    void notifiedChangesReachTheSiteTable()
    {
        const QString id = createElsewhere(u"from-afar"_s);
        QVERIFY(!id.isEmpty());
        QVERIFY(within1s([this] { return m_fixture->sites().find(u"from-afar"_s) != nullptr; }));

        QVERIFY(runElsewhere(u"UPDATE deployments SET slug = 'moved-afar' WHERE id = '%1'"_s.arg(id)));
        QVERIFY(within1s([this] { return m_fixture->sites().find(u"moved-afar"_s) != nullptr; }));
        QVERIFY(!m_fixture->sites().find(u"from-afar"_s));

        QVERIFY(runElsewhere(u"DELETE FROM deployments WHERE id = '%1'"_s.arg(id)));
        QVERIFY(within1s([this] { return m_fixture->sites().find(u"moved-afar"_s) == nullptr; }));
        QCOMPARE(m_fixture->sites().size(), 0);
    }

    // A rolled-back change notifies nobody: PostgreSQL delivers notifications on commit only.
    void rolledBackChangesAreNotSent()
    {
        const QString id = createElsewhere(u"real-afar"_s);
        QVERIFY(within1s([this] { return m_fixture->sites().find(u"real-afar"_s) != nullptr; }));
        QVERIFY(runElsewhere(u"BEGIN"_s));
        QVERIFY(runElsewhere(u"UPDATE deployments SET slug = 'ghost-afar' WHERE id = '%1'"_s.arg(id)));
        QVERIFY(runElsewhere(u"ROLLBACK"_s));
        QVERIFY(!within1s([this] { return m_fixture->sites().find(u"ghost-afar"_s) != nullptr; }));
        QVERIFY(m_fixture->sites().find(u"real-afar"_s));
    }

    // Changes no notification announced (a server whose connection was down misses them) are found by the resync,
    // which refreshes only the rows that changed.
    void resyncFindsWhatWasNotNotified()
    {
        const QString kept = createElsewhere(u"kept-afar"_s);
        QVERIFY(within1s([this] { return m_fixture->sites().find(u"kept-afar"_s) != nullptr; }));
        QVERIFY(runElsewhere(u"ALTER TABLE deployments DISABLE TRIGGER deployments_notify"_s));
        const QString quiet = createElsewhere(u"quiet-afar"_s);
        QVERIFY(!quiet.isEmpty());
        QVERIFY(runElsewhere(u"DELETE FROM deployments WHERE id = '%1'"_s.arg(kept)));
        QVERIFY(!m_fixture->sites().find(u"quiet-afar"_s));
        QVERIFY(m_fixture->sites().find(u"kept-afar"_s));

        QSignalSpy changed(&m_fixture->loader(), &SiteLoader::deploymentChanged);
        QSignalSpy removed(&m_fixture->loader(), &SiteLoader::deploymentRemoved);
        QVERIFY(m_sync->resync());
        QVERIFY(m_fixture->sites().find(u"quiet-afar"_s));
        QVERIFY(!m_fixture->sites().find(u"kept-afar"_s));
        QCOMPARE(changed.size(), 1);
        QCOMPARE(removed.size(), 1);
        // Nothing changed since: a second resync refreshes nothing.
        QVERIFY(m_sync->resync());
        QCOMPARE(changed.size(), 1);
        QCOMPARE(removed.size(), 1);
        QVERIFY(runElsewhere(u"ALTER TABLE deployments ENABLE TRIGGER deployments_notify"_s));
    }
};

QTEST_GUILESS_MAIN(TestDeploymentSync)
#include "tst_deploymentsync.moc"
