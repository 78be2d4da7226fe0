#pragma once

#include "core/error.h"
#include "domain/deploy/archiveintake.h"
#include "domain/deploy/deployrequest.h"
#include "storage/deployment.h"
#include "storage/user.h"

#include <QFuture>
#include <QObject>
#include <functional>
#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QThreadPool;
QT_END_NAMESPACE

namespace berth {

class AgentSiteLifetime;
class BlobGarbage;
class BlobStore;
class ChangeJournal;
class Clock;
class CustomDomainService;
class DeployProgress;
class DeploymentRepository;
class FaultPoints;
class PlanTable;
class SiteLoader;
class VersionHistory;

// Creates, replaces, renames and deletes deployments for their owners, and answers their queries. Every rule of a
// deploy lives here, once, for the API and the dashboard alike.
//
// A deploy moves between threads: parsing, base64 decoding, hashing, blob writes and password
// hashing run on the worker pool; checks against the database and the final commit run on this
// object's thread, which owns the database connection. The commit is one transaction followed by
// one SiteTable swap (SiteLoader::serve), so visitors see the old version or the new one, never a mix.
// BlobGarbage hears when a deploy starts and ends and which blobs it left unreferenced; VersionHistory says how many
// versions a commit keeps.
class DeploymentService final : public QObject
{
    Q_OBJECT

public:
    DeploymentService(DeploymentRepository &repository, BlobStore &blobs, SiteLoader &sites, BlobGarbage &garbage,
        const VersionHistory &history, const PlanTable &plans, const Clock &clock, QThreadPool &workers,
        const FaultPoints &faults, QObject *parent = nullptr);

    // Whether the workers' deploy work runs at a lower CPU priority than serving (workerpriority.h): berthd's choice,
    // where visitors come first; off in the dashboard, where the person publishing is the one waiting.
    void setWorkersYieldToServing(bool yield) { m_workersYield = yield; }
    // How long agents' new sites live unless they ask otherwise (the owner's setting); without it, like any other.
    void setAgentSiteLifetime(const AgentSiteLifetime *lifetime) { m_agentSiteLifetime = lifetime; }
    // Where a request's "domains" are checked and kept; without it, a request that names domains is refused.
    void setCustomDomains(CustomDomainService *domains) { m_domains = domains; }
    // Where each change's event is written, in the change's transaction; without it, changes record no events.
    void setChangeJournal(const ChangeJournal *journal) { m_journal = journal; }

    // JSON bodies of POST /deploy and PUT /deploy/:id; parsed on a worker.
    QFuture<Result<Deployment>> createFromJson(const User &owner, QByteArray body);
    QFuture<Result<Deployment>> updateFromJson(const User &owner, const QString &id, QByteArray body);
    // Archive uploads: the fields as parseDeployFields() read them, the files from the archive as its bytes arrive
    // (deploymentservicearchive.cpp). The same checks before any file is stored, the same commit after.
    QFuture<Result<Deployment>> createFromArchive(const User &owner, DeployRequest fields, ArchiveInput input);
    QFuture<Result<Deployment>> updateFromArchive(
        const User &owner, const QString &id, DeployRequest fields, ArchiveInput input);
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
    // remove() of a deployment whose expiry has passed (SiteExpiry), whoever owns it. NotFound when it is gone or not
    // due (any more): another server of the cluster took it, or its owner moved the expiry.
    Result<Deployment> removeExpired(const QString &id);

    static QString notFoundMessage();
    static QString limitReachedMessage(); // the 403 of a full plan (an error docs/api.md lists)
    static QString missingContentsMessage(); // the 409 of files sent by sha256 whose content is not held
    // The text of a document's <title>, so a deployment without an explicit title still has a name.
    static QString titleOf(const QByteArray &html);

    // Deploys (new deployments and updates) committed by this process since it started; on this object's thread.
    quint64 deploysCommitted() const { return m_deploysCommitted; }

Q_SIGNALS:
    // A change committed by this process (its event was stored with it, through the ChangeJournal): type is
    // "deployment.created", ".updated", ".renamed" or ".deleted"; reason, for a deletion, "deleted" or "expired".
    void changeCommitted(const QString &type, const berth::Deployment &deployment, const QString &reason);

private:
    struct Staged // what the worker produced (deploymentservicestaging.cpp)
    {
        std::optional<QList<StoredFile>> files; // set when the request carried content
        QString storageType;
        QString documentTitle; // the <title> of the served HTML, if any
        std::optional<QByteArray> passwordHash; // set when the request carried a password
    };

    // What stages a deploy's content on the workers when it is not in the request (an archive's intake); it is
    // called once the checks passed and the deploy is in flight, and fills the list of blobs it wrote.
    using Stager = std::function<QFuture<Result<Staged>>(std::shared_ptr<QList<QByteArray>> written)>;
    QFuture<Result<Deployment>> createValidated(
        const User &owner, DeployRequest request, Progress progress = {}, Stager stager = {});
    QFuture<Result<Deployment>> updateValidated(
        const User &owner, const QString &id, DeployRequest request, Progress progress = {}, Stager stager = {});
    Stager archiveStager(ArchiveInput input); // deploymentservicearchive.cpp
    Result<Deployment> ownedDeployment(const User &owner, const QString &id) const;
    Result<void> checkProtection(const DeployRequest &request, bool currentlyProtected) const;
    // The request's expiry made absolute on the clock, an agent's default added (deploymentserviceexpiry.cpp).
    Result<void> settleExpiry(const User &owner, DeployRequest &request, DeployRequest::Mode mode) const;
    // The request's domains checked and normalised for the site id (empty: a new one); checkDomains() again right
    // before the commit, since other requests may have taken a name meanwhile; assignDomains() after it
    // (deploymentservicedomains.cpp).
    Result<void> settleDomains(const User &owner, const QString &id, DeployRequest &request) const;
    Result<void> checkDomains(const User &owner, const QString &id, const DeployRequest &request) const;
    void assignDomains(Deployment &deployment, const DeployRequest &request);
    // The delete itself; with expiredBy, only while the row's expiry is at or before it.
    Result<Deployment> removeDeployment(const Deployment &deployment, const QDateTime &expiredBy);
    using WrittenBlobs = std::shared_ptr<QList<QByteArray>>; // what a worker stored, even when it then failed
    QFuture<Result<Staged>> stage(DeployRequest request, WrittenBlobs written, Progress progress);
    Result<Deployment> commitCreate(
        const User &owner, const DeployRequest &request, const QString &slug, Result<Staged> staged);
    Result<Deployment> commitUpdate(
        const User &owner, const QString &id, const DeployRequest &request, Result<Staged> staged);
    // Incremental uploads (deploymentservicereferences.cpp): fills the sizes of files named by sha256, or refuses
    // with 409 and the paths whose content this user's deployments do not hold; then applies the size limits to the
    // full deployment.
    Result<void> resolveReferences(const User &owner, DeployRequest &request) const;
    void applyMetadata(Deployment &deployment, const DeployRequest &request, const Staged &staged) const;
    QString freeGeneratedSlug() const;
    static Error slugTaken(const QString &slug); // 409 + SlugTaken

    DeploymentRepository &m_repository;
    BlobStore &m_blobs;
    SiteLoader &m_sites;
    BlobGarbage &m_garbage;
    const VersionHistory &m_history;
    const PlanTable &m_plans;
    const Clock &m_clock;
    QThreadPool &m_workers;
    const FaultPoints &m_faults;
    bool m_workersYield = false;
    quint64 m_deploysCommitted = 0;
    const AgentSiteLifetime *m_agentSiteLifetime = nullptr;
    const ChangeJournal *m_journal = nullptr;
    CustomDomainService *m_domains = nullptr;
};

} // namespace berth
