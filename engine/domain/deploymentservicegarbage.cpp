// DeploymentService at start (the sites loaded, the title sources of old rows resolved, the one full blob sweep) and
// the collection of blobs nothing references any more, apart from the deploy path.
#include "clock.h"
#include "deploymentservice.h"
#include "sitetable.h"
#include "storage/blobstore.h"
#include "storage/deploymentrepository.h"
#include "workerpriority.h"

#include <QtConcurrent>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
// Every stored field of a deployment's row (warnings are a deploy's report, not stored).
bool sameRecord(const Deployment &a, const Deployment &b)
{
    return a.id == b.id && a.userId == b.userId && a.slug == b.slug && a.storageType == b.storageType
        && a.isSpa == b.isSpa && a.title == b.title && a.titleIsCustom == b.titleIsCustom
        && a.documentTitle == b.documentTitle && a.description == b.description
        && a.description.isNull() == b.description.isNull() && a.favicon == b.favicon && a.ogImage == b.ogImage
        && a.isProtected == b.isProtected && a.passwordHash == b.passwordHash && a.shareToken == b.shareToken
        && a.createdAt == b.createdAt && a.updatedAt == b.updatedAt && a.versionId == b.versionId;
}
} // namespace

Result<void> DeploymentService::loadSites()
{
    resolveTitleSources();
    const QList<Deployment> deployments = m_repository.listAllUnsorted();
    const auto totals = m_repository.servedFileTotals();
    if (!totals)
        return Error {
            Error::Kind::Internal, u"The deployments' files could not be listed: "_s + totals.error().message};
    for (const Deployment &deployment : deployments) {
        const FileTotals files = totals.value().value(deployment.versionId);
        m_sites.put(Site::placeholder(deployment, files.count, files.bytes));
    }
    if (m_sites.size() != deployments.size())
        return Error {Error::Kind::Internal, u"Deployments share a slug in the database"_s};
    return {};
}

std::shared_ptr<const Site> DeploymentService::loadSite(const QString &slug)
{
    const auto site = m_sites.find(slug);
    if (!site || site->loaded)
        return site;
    // Every version serves at least one file: none means the query failed (logged), and nothing is cached.
    const QList<StoredFile> files = m_repository.files(site->deployment.versionId);
    if (files.isEmpty())
        return {};
    auto loaded = Site::make(site->deployment, files, m_blobs);
    m_sites.put(loaded);
    return loaded;
}

void DeploymentService::refreshSite(const QString &deploymentId)
{
    const auto deployment = m_repository.find(deploymentId);
    const QString slug = m_sites.slugOf(deploymentId);
    if (!deployment) {
        if (slug.isEmpty())
            return;
        m_sites.remove(deploymentId);
        Q_EMIT deploymentRemoved(deploymentId);
        return;
    }
    // Unchanged (e.g. the notice of this node's own change, or a resync after it): nothing to rebuild or announce.
    if (const auto served = slug.isEmpty() ? nullptr : m_sites.find(slug);
        served && sameRecord(served->deployment, *deployment))
        return;
    const QList<StoredFile> files = m_repository.files(deployment->versionId);
    if (files.isEmpty()) // unreadable now: a placeholder, loaded again on its next request
        m_sites.put(Site::placeholder(*deployment, 0, 0));
    else
        m_sites.put(Site::make(*deployment, files, m_blobs));
    Q_EMIT deploymentChanged(deploymentId);
}

QFuture<void> DeploymentService::sweepStore()
{
    // Fail closed: without a trustworthy list of what is referenced, nothing is removed. Every deployment serves at
    // least one file, so an empty list while deployments exist is taken as a failure too.
    const auto referenced = m_repository.referencedBlobs();
    if (!referenced) {
        qWarning().noquote() << "blob sweep skipped: the list of referenced blobs could not be read:"
                             << referenced.error().message;
        return QtFuture::makeReadyFuture();
    }
    if (referenced.value().isEmpty() && m_sites.size() > 0) {
        qWarning().noquote() << "blob sweep skipped: no blob is referenced while deployments exist";
        return QtFuture::makeReadyFuture();
    }
    // A deploy in flight has blobs that nothing references yet: only with none (at start, before listening).
    if (m_inFlight > 0) {
        qWarning().noquote() << "blob sweep skipped: a deploy is in flight";
        return QtFuture::makeReadyFuture();
    }
    m_sweep = runOnWorker(m_workers, m_workersYield, [blobs = &m_blobs, keep = referenced.value()] {
        const int removed = blobs->collectGarbage(keep);
        if (removed > 0)
            qInfo().noquote() << "removed" << removed << "unreferenced blobs";
    });
    return m_sweep;
}

void DeploymentService::resolveTitleSources()
{
    // Before schema 4 a document's title was stored as if the owner had set it. A stored title equal to the served
    // document's is taken as read from it (and follows the content from now on); any other is the owner's.
    const QStringList ids = m_repository.idsWithUnknownTitleSource();
    for (const QString &id : ids) {
        auto deployment = m_repository.find(id);
        if (!deployment)
            continue;
        QString document;
        for (const StoredFile &file : m_repository.files(deployment->versionId)) {
            if (file.path == u"index.html")
                document = titleOf(m_blobs.read(file.blob));
        }
        deployment->documentTitle = document;
        deployment->titleIsCustom = !deployment->title.isEmpty() && deployment->title != document;
        if (!deployment->titleIsCustom)
            deployment->title = document;
        if (const Result<void> updated = m_repository.update(*deployment, std::nullopt); !updated)
            qWarning().noquote() << "cannot record the title source of" << id << ":" << updated.error().message;
    }
}

void DeploymentService::addGarbageCandidates(const QList<QByteArray> &blobs)
{
    for (const QByteArray &blob : blobs) {
        if (!blob.isEmpty())
            m_garbageCandidates.insert(blob);
    }
}

void DeploymentService::finishWork()
{
    --m_inFlight;
    if (m_inFlight == 0 && !m_garbageCandidates.isEmpty())
        collectGarbage();
}

void DeploymentService::collectGarbage()
{
    // Only with no deploy in flight: a staged blob is unreferenced until its commit. Only the candidates are looked
    // at, each by the indexed reference query; a failed query removes nothing and keeps them for the next time.
    if (m_garbageCandidates.isEmpty())
        return;
    fault("before-garbage-check");
    const QList<QByteArray> candidates(m_garbageCandidates.cbegin(), m_garbageCandidates.cend());
    const auto referenced = m_repository.referencedAmong(candidates);
    if (!referenced) {
        qWarning().noquote() << "blob collection postponed: the reference check failed:" << referenced.error().message;
        return;
    }
    m_garbageCandidates.clear();
    for (const QByteArray &blob : candidates) {
        if (referenced.value().contains(blob))
            continue;
        // The shared store keeps a blob stored within its grace (another node may be about to commit a deploy that
        // uses it): tried again at a later collection, or left to the next start's sweep.
        if (m_blobs.remove(blob) == BlobStore::Removal::Kept)
            m_garbageCandidates.insert(blob);
    }
}

} // namespace berth
