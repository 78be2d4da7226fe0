// DeploymentService's reads and the edits that carry no content (rename, delete), apart from the deploy path.
#include "clock.h"
#include "deploymentservice.h"
#include "sitetable.h"
#include "slugrules.h"
#include "storage/blobstore.h"
#include "storage/deploymentrepository.h"

using namespace Qt::StringLiterals;

namespace berth {

Result<Deployment> DeploymentService::ownedDeployment(const User &owner, const QString &id) const
{
    auto deployment = m_repository.find(id);
    if (!deployment || deployment->userId != owner.id)
        return notFound();
    return *deployment;
}

Result<Deployment> DeploymentService::get(const User &owner, const QString &id) const
{
    return ownedDeployment(owner, id);
}

QList<Deployment> DeploymentService::list(const User &owner) const
{
    return m_repository.listForUser(owner.id);
}

QList<DeploymentListing> DeploymentService::listing(const User &owner) const
{
    return m_repository.listingForUser(owner.id);
}

QList<Deployment> DeploymentService::listAll() const
{
    return m_repository.listAll();
}

Result<Deployment> DeploymentService::rename(const User &owner, const QString &id, const QString &slug)
{
    if (const QString rule = SlugRules::validate(slug); !rule.isEmpty())
        return Error {Error::Kind::BadRequest, rule, Error::Code::SlugInvalid};
    auto current = ownedDeployment(owner, id);
    if (!current)
        return current.error();
    Deployment deployment = current.value();
    if (deployment.slug == slug)
        return deployment;
    if (m_repository.findBySlug(slug))
        return slugTaken(slug);

    deployment.slug = slug;
    deployment.updatedAt = m_clock.now();
    if (const Result<void> renamed = m_repository.rename(id, slug, deployment.updatedAt); !renamed) {
        if (renamed.error().code == Error::Code::SlugTaken)
            return slugTaken(slug);
        if (renamed.error().kind == Error::Kind::NotFound)
            return notFound();
        return writeFailed(renamed.error(), u"Could not rename the deployment"_s);
    }
    m_sites.put(Site::make(deployment, m_repository.files(deployment.versionId), m_blobs));
    Q_EMIT deploymentChanged(deployment.id);
    return deployment;
}

Result<Deployment> DeploymentService::remove(const User &owner, const QString &id)
{
    auto current = ownedDeployment(owner, id);
    if (!current)
        return current.error();
    QList<StoredFile> files; // of every kept version
    for (const StoredVersion &version : m_repository.versions().list(id))
        files += m_repository.files(version.id);
    if (const Result<void> removed = m_repository.remove(id); !removed)
        return writeFailed(removed.error(), u"Could not delete the deployment"_s);
    m_sites.remove(id);
    Q_EMIT deploymentRemoved(id);
    for (const StoredFile &file : files)
        m_garbageCandidates.insert(file.blob);
    if (m_inFlight == 0)
        collectGarbage();
    return current;
}

} // namespace berth
