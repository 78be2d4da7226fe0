#include "domain/deploy/versionhistory.h"

#include "domain/common/changejournal.h"
#include "domain/common/clock.h"
#include "domain/deploy/blobgarbage.h"
#include "domain/deploy/deploymentaccess.h"
#include "domain/deploy/deploymentlimits.h"
#include "domain/deploy/faultpoints.h"
#include "domain/deploy/siteloader.h"
#include "storage/blobstore.h"
#include "storage/deploymentrepository.h"

#include <QDebug>
#include <QSet>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

Error versionNotFound()
{
    return {Error::Kind::NotFound, u"Version not found"_s};
}

} // namespace

VersionHistory::VersionHistory(DeploymentRepository &repository, BlobStore &blobs, SiteLoader &sites,
    BlobGarbage &garbage, const Clock &clock, const FaultPoints &faults)
    : m_repository(repository)
    , m_blobs(blobs)
    , m_sites(sites)
    , m_garbage(garbage)
    , m_clock(clock)
    , m_faults(faults)
{
}

void VersionHistory::setVersionsKept(int count)
{
    m_versionsKept = qMax(1, count);
}

Result<QList<StoredVersion>> VersionHistory::versions(const User &owner, const QString &id) const
{
    const auto deployment = DeploymentAccess::owned(m_repository, owner, id);
    if (!deployment)
        return deployment.error();
    return m_repository.versions().list(id);
}

Result<QList<StoredFile>> VersionHistory::versionFiles(const User &owner, const QString &id, int number) const
{
    const auto deployment = DeploymentAccess::owned(m_repository, owner, id);
    if (!deployment)
        return deployment.error();
    const auto version = m_repository.versions().find(id, number);
    if (!version)
        return versionNotFound();
    return m_repository.files(version->id);
}

Result<Deployment> VersionHistory::prepare(Deployment deployment, const QList<StoredFile> &files) const
{
    QList<QByteArray> released;
    const Result<StoredVersion> version = m_repository.prepareVersion(deployment, files, m_versionsKept, &released);
    if (!version)
        return DeploymentAccess::writeFailed(version.error(), u"Could not save the version"_s);
    m_garbage.addCandidates(released);
    deployment.preparedVersion = version.value().number;
    return deployment;
}

Deployment VersionHistory::asOf(Deployment deployment, const StoredVersion &version)
{
    deployment.versionId = version.id;
    deployment.storageType = version.storageType;
    deployment.isSpa = version.isSpa;
    deployment.title = version.title;
    deployment.titleIsCustom = version.titleIsCustom;
    deployment.documentTitle = version.documentTitle;
    deployment.description = version.description;
    deployment.favicon = version.favicon;
    deployment.ogImage = version.ogImage;
    return deployment;
}

Result<Deployment> VersionHistory::rollback(const User &owner, const QString &id, int number)
{
    const auto current = DeploymentAccess::owned(m_repository, owner, id);
    if (!current)
        return current.error();
    const auto version = m_repository.versions().find(id, number);
    if (!version)
        return versionNotFound();
    const QList<StoredFile> files = m_repository.files(version->id);
    if (files.isEmpty())
        return Error {Error::Kind::Internal, u"Could not read the version"_s};

    // The same limits as an update that sent these files.
    if (files.size() > kMaxFilesPerDeployment)
        return Error {Error::Kind::TooLarge, DeploymentLimits::tooManyFiles()};
    qint64 total = 0;
    QSet<QByteArray> blobs;
    for (const StoredFile &file : files) {
        if (file.size > kMaxFileBytes)
            return Error {Error::Kind::TooLarge, DeploymentLimits::fileTooLarge(file.path)};
        total += file.size;
        blobs.insert(file.blob);
    }
    if (total > kMaxTotalBytes)
        return Error {Error::Kind::TooLarge, DeploymentLimits::totalTooLarge()};
    // A kept version's blobs are never collected; one gone means the store was damaged: refuse, change nothing.
    // Renewed, too: another node may prune this version and collect its blobs before the rollback commits. All at
    // once: a site of thousands of files is a few round trips to a shared store, not one for each blob.
    const Result<QSet<QByteArray>> retained = m_blobs.retainAll(blobs.values());
    if (!retained)
        return Error {Error::Kind::Internal, u"Could not read the version"_s};
    for (const QByteArray &blob : std::as_const(blobs)) {
        if (!retained.value().contains(blob)) {
            qWarning().noquote() << "rollback: blob" << blob << "of" << id << "is missing";
            return Error {Error::Kind::Internal, u"Could not read the version"_s};
        }
    }

    Deployment deployment = asOf(current.value(), *version);
    deployment.versionId = current.value().versionId; // the update makes the new version
    deployment.updatedAt = m_clock.now();

    // One transaction: a crash before it leaves the old version served, after it the new one.
    m_faults.reach("before-rollback-commit");
    QList<QByteArray> released;
    const Result<void> updated = journaled(m_journal, {u"deployment.updated"_s, deployment, {}, {}},
        [&] { return m_repository.update(deployment, files, m_versionsKept, &released); });
    if (!updated)
        return DeploymentAccess::writeFailed(updated.error(), u"Could not save the deployment"_s);
    m_faults.reach("after-rollback-commit");
    m_garbage.addCandidates(released);
    m_sites.serve(deployment, files);
    m_garbage.collectUnlessBusy();
    return deployment;
}

} // namespace berth
