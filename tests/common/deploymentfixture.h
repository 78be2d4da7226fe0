#pragma once

#include "domain/common/clock.h"
#include "domain/deploy/blobgarbage.h"
#include "domain/deploy/deploymentservice.h"
#include "domain/deploy/faultpoints.h"
#include "domain/deploy/siteloader.h"
#include "domain/deploy/versionhistory.h"
#include "domain/plans/plantable.h"
#include "domain/siterules/sitetable.h"
#include "storage/blobstore.h"
#include "storage/database.h"
#include "storage/deploymentrepository.h"
#include "storage/user.h"
#include "storage/userrepository.h"

#include <QFuture>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>
#include <memory>

namespace berth {
class BlobBackend;
}

namespace berth::test {

// A DeploymentService (with its SiteLoader, BlobGarbage and VersionHistory) without an Engine around it, for tests of
// what it does with its database and blob store: a fresh temporary folder with a SQLite file (or a given PostgreSQL
// database) and a blob folder, one user who deploys, the default plans, a ManualClock and a worker pool of its own.
class DeploymentFixture final
{
    Q_DISABLE_COPY_MOVE(DeploymentFixture)
public:
    struct Options
    {
        QString databaseUrl; // empty: berth.sqlite in the fixture's folder
        // A shared store behind the blob folder (a test's stand-in for PostgreSQL's chunk table), or none. Not owned:
        // it must outlive the fixture.
        BlobBackend *backend = nullptr;
        qint64 backendCacheBytes = 64 * 1024 * 1024;
        // Off for a test that must start something between building the service and its first load (DeploymentSync
        // listens before the load, so that no change falls between the two).
        bool loadSites = true;
    };

    DeploymentFixture(User owner, const QDateTime &now);
    ~DeploymentFixture(); // lets the workers finish first: they use everything else

    // false, with a warning that names the step, when any step fails.
    bool start(const Options &options);
    bool start() { return start(Options()); }

    // The result of a deploy, update or rollback once the workers finished it; an empty Result after 30 s.
    template<typename T>
    static T wait(QFuture<T> future)
    {
        const bool finished = QTest::qWaitFor([&] { return future.isFinished(); }, 30000);
        return finished ? future.result() : T();
    }
    // A deploy of these files by the owner.
    Result<Deployment> deployFiles(const QList<FileUpload> &files);

    QString path() const { return m_dir.path(); }
    QString filePath(const QString &name) const { return m_dir.filePath(name); }
    const User &owner() const { return m_owner; }
    Database &database() { return *m_db; }
    UserRepository &users() { return *m_users; }
    DeploymentRepository &repository() { return *m_repository; }
    BlobStore &blobs() { return *m_blobs; }
    SiteTable &sites() { return *m_sites; }
    PlanTable &plans() { return m_plans; }
    ManualClock &clock() { return m_clock; }
    QThreadPool &workers() { return m_workers; }
    DeploymentService &service() { return *m_service; }
    SiteLoader &loader() { return *m_loader; }
    BlobGarbage &garbage() { return *m_garbage; }
    VersionHistory &history() { return *m_history; }
    FaultPoints &faults() { return m_faults; }

private:
    QTemporaryDir m_dir;
    User m_owner;
    PlanTable m_plans;
    ManualClock m_clock;
    std::unique_ptr<Database> m_db;
    std::unique_ptr<UserRepository> m_users;
    std::unique_ptr<DeploymentRepository> m_repository;
    std::unique_ptr<BlobStore> m_blobs;
    std::unique_ptr<SiteTable> m_sites;
    FaultPoints m_faults;
    std::unique_ptr<SiteLoader> m_loader;
    std::unique_ptr<BlobGarbage> m_garbage;
    std::unique_ptr<VersionHistory> m_history;
    std::unique_ptr<DeploymentService> m_service;
    QThreadPool m_workers; // declared last, so that it goes first
};

} // namespace berth::test
