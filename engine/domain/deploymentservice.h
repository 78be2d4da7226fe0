#pragma once

#include "core/error.h"
#include "deployrequest.h"
#include "storage/deployment.h"
#include "storage/user.h"

#include <QFuture>
#include <QObject>
#include <QSet>
#include <functional>
#include <memory>

QT_BEGIN_NAMESPACE
class QThreadPool;
QT_END_NAMESPACE

namespace berth {

class BlobStore;
class Clock;
class DeployProgress;
class DeploymentRepository;
class PlanTable;
class SiteTable;
struct Site;

// Creates, replaces, renames and deletes deployments for their owners. Every rule of a deploy lives
// here, once, for the API and the dashboard alike.
//
// A deploy moves between threads: parsing, base64 decoding, hashing, blob writes and password
// hashing run on the worker pool; checks against the database and the final commit run on this
// object's thread, which owns the database connection. The commit is one transaction followed by
// one SiteTable swap, so visitors see the old version or the new one, never a mix.
class DeploymentService final : public QObject
{
    Q_OBJECT

public:
    DeploymentService(DeploymentRepository &repository, BlobStore &blobs, SiteTable &sites, const PlanTable &plans,
        const Clock &clock, QThreadPool &workers, QObject *parent = nullptr);

    // Whether the workers' deploy work runs at a lower CPU priority than serving (workerpriority.h): berthd's choice,
    // where visitors come first; off in the dashboard, where the person publishing is the one waiting.
    void setWorkersYieldToServing(bool yield) { m_workersYield = yield; }

    // JSON bodies of POST /deploy and PUT /deploy/:id; parsed on a worker.
    QFuture<Result<Deployment>> createFromJson(const User &owner, QByteArray body);
    QFuture<Result<Deployment>> updateFromJson(const User &owner, const QString &id, QByteArray body);
    // Requests built in-process (the dashboard): checked by the same rules as parsed ones. progress, when given,
    // hears each step and may cancel the deploy until its commit.
    using Progress = std::shared_ptr<DeployProgress>;
    QFuture<Result<Deployment>> create(const User &owner, DeployRequest request, Progress progress = {});
    QFuture<Result<Deployment>> update(
        const User &owner, const QString &id, DeployRequest request, Progress progress = {});

    Result<Deployment> get(const User &owner, const QString &id) const;
    QList<Deployment> list(const User &owner) const;
    QList<DeploymentListing> listing(const User &owner) const; // list()'s order, four fields of each (GET /deploys)
    QList<Deployment> listAll() const;
    Result<Deployment> rename(const User &owner, const QString &id, const QString &slug);
    Result<Deployment> remove(const User &owner, const QString &id);

    // Kept versions and rollback (issue 15; deploymentservicehistory.cpp). Every deploy with content makes a version;
    // the newest versionsKept() of each deployment stay, older ones go with the blobs nothing else references.
    Result<QList<StoredVersion>> versions(const User &owner, const QString &id) const; // newest first
    Result<QList<StoredFile>> versionFiles(const User &owner, const QString &id, int number) const;
    // Serves version number again, as a new version with its files and content metadata; protection stays as it is.
    Result<Deployment> rollback(const User &owner, const QString &id, int number);

    int versionsKept() const { return m_versionsKept; }
    void setVersionsKept(int count); // at least 1
    static constexpr int kDefaultVersionsKept = 10;

    // Fills the SiteTable from the database at start, in two queries: every site as a placeholder, whose files are
    // read on its first request (loadSite).
    Result<void> loadSites();
    // The site served under slug with its file table, read from the database when the table holds a placeholder;
    // null when there is no such site or its files cannot be read. On this object's thread (SiteServer's loader).
    std::shared_ptr<const Site> loadSite(const QString &slug);
    // (Re)builds one deployment's site from the database: put in the SiteTable, or removed when the row is gone (e.g.
    // after another node changed it). Emits deploymentChanged or deploymentRemoved when the table changed.
    void refreshSite(const QString &deploymentId);
    // Removes the blobs nothing references (a crash between writing blobs and committing leaves such orphans): the
    // one full sweep, once after start, failing closed. The reference list is read here; the walk of the store runs
    // on a worker, and deploys staged meanwhile wait for it there, so that no blob of theirs can be swept.
    QFuture<void> sweepStore();

    // Named points where a test may stop the process dead, to prove crash safety.
    using FaultHook = std::function<void(const char *point)>;
    void setFaultHook(FaultHook hook) { m_faultHook = std::move(hook); }

    static QString notFoundMessage();
    static QString limitReachedMessage(); // the 403 of a full plan (README, "Errors")
    static QString missingContentsMessage(); // the 409 of files sent by sha256 whose content is not held

Q_SIGNALS:
    void deploymentChanged(const QString &id);
    void deploymentRemoved(const QString &id);

private:
    struct Staged; // what the worker produced: stored files and password hash

    QFuture<Result<Deployment>> createValidated(const User &owner, DeployRequest request, Progress progress = {});
    QFuture<Result<Deployment>> updateValidated(
        const User &owner, const QString &id, DeployRequest request, Progress progress = {});
    Result<Deployment> ownedDeployment(const User &owner, const QString &id) const;
    Result<void> checkProtection(const DeployRequest &request, bool currentlyProtected) const;
    using WrittenBlobs = std::shared_ptr<QList<QByteArray>>; // what a worker stored, even when it then failed
    QFuture<Result<Staged>> stage(DeployRequest request, WrittenBlobs written, Progress progress);
    Result<Deployment> commitCreate(
        const User &owner, const DeployRequest &request, const QString &slug, Result<Staged> staged);
    Result<Deployment> commitUpdate(
        const User &owner, const QString &id, const DeployRequest &request, Result<Staged> staged);
    // Incremental uploads (issue 15): fills the sizes of files named by sha256, or refuses with 409 and the paths
    // whose content this user's deployments do not hold; then applies the size limits to the full deployment.
    Result<void> resolveReferences(const User &owner, DeployRequest &request) const;
    void applyMetadata(Deployment &deployment, const DeployRequest &request, const Staged &staged) const;
    QString freeGeneratedSlug() const;
    void resolveTitleSources();
    void publish(const Deployment &deployment);
    void finishWork();
    void addGarbageCandidates(const QList<QByteArray> &blobs);
    void collectGarbage();
    // 507 for a full disk, 503 for an unreachable database (both as storage words them), else 500 with message.
    static Error writeFailed(const Error &error, const QString &message);
    static Error notFound(); // 404 + DeploymentNotFound
    static Error slugTaken(const QString &slug); // 409 + SlugTaken
    // The text of a document's <title>, so a deployment without an explicit title still has a name.
    static QString titleOf(const QByteArray &html);
    void fault(const char *point) const;

    DeploymentRepository &m_repository;
    BlobStore &m_blobs;
    SiteTable &m_sites;
    const PlanTable &m_plans;
    const Clock &m_clock;
    QThreadPool &m_workers;
    bool m_workersYield = false;
    FaultHook m_faultHook;
    int m_versionsKept = kDefaultVersionsKept;
    int m_inFlight = 0; // deploys whose blobs may not be referenced yet
    // Blobs of replaced or deleted versions and of refused deploys: checked and removed once nothing is in flight.
    QSet<QByteArray> m_garbageCandidates;
    QFuture<void> m_sweep; // the sweep at start, while it walks the store
};

} // namespace berth
