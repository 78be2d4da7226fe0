#include "domain/deploy/siteloader.h"

#include "domain/deploy/deploymentservice.h"
#include "domain/deploy/versionhistory.h"
#include "domain/siterules/sitetable.h"
#include "storage/blobstore.h"
#include "storage/deploymentrepository.h"
#include "storage/versionrepository.h"

#include <QDebug>

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

SiteLoader::SiteLoader(DeploymentRepository &repository, BlobStore &blobs, SiteTable &sites, QObject *parent)
    : QObject(parent)
    , m_repository(repository)
    , m_blobs(blobs)
    , m_sites(sites)
{
}

Result<void> SiteLoader::loadSites()
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

std::shared_ptr<const Site> SiteLoader::loadSite(const QString &slug)
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

std::shared_ptr<const Site> SiteLoader::loadVersion(const QString &slug, int number)
{
    const auto live = m_sites.find(slug);
    if (!live)
        return {};
    if (auto kept = m_sites.findVersion(live->deployment.id, number))
        return kept;
    const auto version = m_repository.versions().find(live->deployment.id, number);
    if (!version)
        return {};
    const QList<StoredFile> files = m_repository.files(version->id);
    if (files.isEmpty())
        return {};
    auto loaded = Site::make(VersionHistory::asOf(live->deployment, *version), files, m_blobs, number);
    m_sites.putVersion(loaded);
    return loaded;
}

void SiteLoader::refreshSite(const QString &deploymentId)
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

std::shared_ptr<const Site> SiteLoader::serve(const Deployment &deployment, const QList<StoredFile> &files)
{
    auto site = Site::make(deployment, files, m_blobs);
    m_sites.put(site);
    Q_EMIT deploymentChanged(deployment.id);
    return site;
}

void SiteLoader::withdraw(const QString &deploymentId)
{
    m_sites.remove(deploymentId);
    Q_EMIT deploymentRemoved(deploymentId);
}

void SiteLoader::resolveTitleSources()
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
                document = DeploymentService::titleOf(m_blobs.read(file.blob));
        }
        deployment->documentTitle = document;
        deployment->titleIsCustom = !deployment->title.isEmpty() && deployment->title != document;
        if (!deployment->titleIsCustom)
            deployment->title = document;
        if (const Result<void> updated = m_repository.update(*deployment, std::nullopt); !updated)
            qWarning().noquote() << "cannot record the title source of" << id << ":" << updated.error().message;
    }
}

} // namespace berth
