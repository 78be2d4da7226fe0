// DeploymentService's reads and the edits that carry no content (rename, delete), apart from the deploy path.
#include "domain/common/changejournal.h"
#include "domain/common/clock.h"
#include "domain/deploy/blobgarbage.h"
#include "domain/deploy/deploymentaccess.h"
#include "domain/deploy/deploymentservice.h"
#include "domain/deploy/siteloader.h"
#include "domain/deploy/slugrules.h"
#include "storage/deploymentrepository.h"

using namespace Qt::StringLiterals;

namespace berth {

Result<Deployment> DeploymentService::ownedDeployment(const User &owner, const QString &id) const
{
    return DeploymentAccess::owned(m_repository, owner, id);
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
    const Result<void> renamed = journaled(m_journal, {u"deployment.renamed"_s, deployment, {}, {}},
        [&] { return m_repository.rename(id, slug, deployment.updatedAt); });
    if (!renamed) {
        if (renamed.error().code == Error::Code::SlugTaken)
            return slugTaken(slug);
        if (renamed.error().kind == Error::Kind::NotFound)
            return DeploymentAccess::notFound();
        return DeploymentAccess::writeFailed(renamed.error(), u"Could not rename the deployment"_s);
    }
    m_sites.serve(deployment, m_repository.files(deployment.versionId));
    Q_EMIT changeCommitted(u"deployment.renamed"_s, deployment, {});
    return deployment;
}

Result<Deployment> DeploymentService::remove(const User &owner, const QString &id)
{
    auto current = ownedDeployment(owner, id);
    if (!current)
        return current.error();
    return removeDeployment(current.value(), {});
}

Result<Deployment> DeploymentService::removeDeployment(const Deployment &deployment, const QDateTime &expiredBy)
{
    const QString &id = deployment.id;
    QList<QByteArray> blobs; // of every kept version
    for (const StoredVersion &version : m_repository.versions().list(id)) {
        for (const StoredFile &file : m_repository.files(version.id))
            blobs.append(file.blob);
    }
    const QString reason = expiredBy.isValid() ? u"expired"_s : u"deleted"_s;
    const Result<void> removed = journaled(m_journal, {u"deployment.deleted"_s, deployment, reason, {}},
        [&] { return m_repository.remove(id, expiredBy); });
    if (!removed) {
        if (expiredBy.isValid() && removed.error().kind == Error::Kind::NotFound)
            return DeploymentAccess::notFound();
        return DeploymentAccess::writeFailed(removed.error(), u"Could not delete the deployment"_s);
    }
    m_sites.withdraw(id);
    m_garbage.addCandidates(blobs);
    m_garbage.collectUnlessBusy();
    Q_EMIT changeCommitted(u"deployment.deleted"_s, deployment, reason);
    return deployment;
}

} // namespace berth
