// DeploymentSync on a real PostgreSQL database (the CTest fixture's cluster): changes written through another
// connection (another server) reach this server's SiteTable by notification, and the resync finds what no
// notification announced.
#include "domain/clock.h"
#include "domain/deploymentservice.h"
#include "domain/deploymentsync.h"
#include "domain/plantable.h"
#include "domain/sitetable.h"
#include "postgrescluster.h"
#include "storage/blobstore.h"
#include "storage/database.h"
#include "storage/deploymentrepository.h"
#include "storage/userrepository.h"

#include <QDeadlineTimer>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QThreadPool>
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
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Database> m_db; // this server's connection
    std::unique_ptr<Database> m_other; // another server's
    std::unique_ptr<DeploymentRepository> m_repository;
    std::unique_ptr<BlobStore> m_blobs;
    std::unique_ptr<SiteTable> m_sites;
    std::unique_ptr<PlanTable> m_plans;
    std::unique_ptr<ManualClock> m_clock;
    std::unique_ptr<QThreadPool> m_workers;
    std::unique_ptr<DeploymentService> m_service;
    std::unique_ptr<DeploymentSync> m_sync;
    User m_owner {u"usr_sync"_s, u"sync@example.com"_s, u"pro"_s, false, T0};

    // Another server creates a deployment: its rows only, written on its own connection.
    QString createElsewhere(const QString &slug)
    {
        Deployment deployment;
        deployment.id = u"dep_"_s + slug.left(8).remove(u'-');
        deployment.userId = m_owner.id;
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
        m_dir = std::make_unique<QTemporaryDir>();
        m_db = std::make_unique<Database>(QString(), m_database->url());
        QVERIFY(m_db->open());
        m_other = std::make_unique<Database>(QString(), m_database->url());
        QVERIFY(m_other->open());
        QVERIFY(UserRepository(*m_db).insert(m_owner));
        m_repository = std::make_unique<DeploymentRepository>(*m_db);
        m_blobs = std::make_unique<BlobStore>(m_dir->filePath(u"blobs"_s));
        QVERIFY(m_blobs->init());
        m_sites = std::make_unique<SiteTable>();
        m_plans = std::make_unique<PlanTable>();
        m_clock = std::make_unique<ManualClock>(T0);
        m_workers = std::make_unique<QThreadPool>();
        m_service
            = std::make_unique<DeploymentService>(*m_repository, *m_blobs, *m_sites, *m_plans, *m_clock, *m_workers);
        // A resync interval no test reaches: resyncs happen when a test calls resync().
        m_sync = std::make_unique<DeploymentSync>(*m_db, *m_service, 3'600'000);
        QVERIFY(m_sync->start());
        QVERIFY(m_service->loadSites());
    }
    void cleanup()
    {
        m_sync.reset();
        m_service.reset();
        m_workers.reset();
        m_repository.reset();
        m_db.reset();
        m_other.reset();
        m_dir.reset();
        m_database.reset();
    }

    void notifiedChangesReachTheSiteTable()
    {
        const QString id = createElsewhere(u"from-afar"_s);
        QVERIFY(!id.isEmpty());
        QVERIFY(within1s([this] { return m_sites->find(u"from-afar"_s) != nullptr; }));

        QVERIFY(runElsewhere(u"UPDATE deployments SET slug = 'moved-afar' WHERE id = '%1'"_s.arg(id)));
        QVERIFY(within1s([this] { return m_sites->find(u"moved-afar"_s) != nullptr; }));
        QVERIFY(!m_sites->find(u"from-afar"_s));

        QVERIFY(runElsewhere(u"DELETE FROM deployments WHERE id = '%1'"_s.arg(id)));
        QVERIFY(within1s([this] { return m_sites->find(u"moved-afar"_s) == nullptr; }));
        QCOMPARE(m_sites->size(), 0);
    }

    // A rolled-back change notifies nobody: PostgreSQL delivers notifications on commit only.
    void rolledBackChangesAreNotSent()
    {
        const QString id = createElsewhere(u"real-afar"_s);
        QVERIFY(within1s([this] { return m_sites->find(u"real-afar"_s) != nullptr; }));
        QVERIFY(runElsewhere(u"BEGIN"_s));
        QVERIFY(runElsewhere(u"UPDATE deployments SET slug = 'ghost-afar' WHERE id = '%1'"_s.arg(id)));
        QVERIFY(runElsewhere(u"ROLLBACK"_s));
        QVERIFY(!within1s([this] { return m_sites->find(u"ghost-afar"_s) != nullptr; }));
        QVERIFY(m_sites->find(u"real-afar"_s));
    }

    // Changes no notification announced (a server whose connection was down misses them) are found by the resync,
    // which refreshes only the rows that changed.
    void resyncFindsWhatWasNotNotified()
    {
        const QString kept = createElsewhere(u"kept-afar"_s);
        QVERIFY(within1s([this] { return m_sites->find(u"kept-afar"_s) != nullptr; }));
        QVERIFY(runElsewhere(u"ALTER TABLE deployments DISABLE TRIGGER deployments_notify"_s));
        const QString quiet = createElsewhere(u"quiet-afar"_s);
        QVERIFY(!quiet.isEmpty());
        QVERIFY(runElsewhere(u"DELETE FROM deployments WHERE id = '%1'"_s.arg(kept)));
        QVERIFY(!m_sites->find(u"quiet-afar"_s));
        QVERIFY(m_sites->find(u"kept-afar"_s));

        QSignalSpy changed(m_service.get(), &DeploymentService::deploymentChanged);
        QSignalSpy removed(m_service.get(), &DeploymentService::deploymentRemoved);
        QVERIFY(m_sync->resync());
        QVERIFY(m_sites->find(u"quiet-afar"_s));
        QVERIFY(!m_sites->find(u"kept-afar"_s));
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
