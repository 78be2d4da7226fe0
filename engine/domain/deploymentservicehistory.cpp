// DeploymentService's kept versions, rollback and uploads that name content by hash (issue 15), apart from the deploy
// path so that each can change without the other.
#include "clock.h"
#include "deploymentlimits.h"
#include "deploymentservice.h"
#include "sitetable.h"
#include "storage/blobstore.h"
#include "storage/deploymentrepository.h"

using namespace Qt::StringLiterals;

namespace berth {

namespace {

Error versionNotFound()
{
    return {Error::Kind::NotFound, u"Version not found"_s};
}

} // namespace

void DeploymentService::setVersionsKept(int count)
{
    m_versionsKept = qMax(1, count);
}

Result<QList<StoredVersion>> DeploymentService::versions(const User &owner, const QString &id) const
{
    const auto deployment = ownedDeployment(owner, id);
    if (!deployment)
        return deployment.error();
    return m_repository.versions().list(id);
}

Result<QList<StoredFile>> DeploymentService::versionFiles(const User &owner, const QString &id, int number) const
{
    const auto deployment = ownedDeployment(owner, id);
    if (!deployment)
        return deployment.error();
    const auto version = m_repository.versions().find(id, number);
    if (!version)
        return versionNotFound();
    return m_repository.files(version->id);
}

Result<Deployment> DeploymentService::rollback(const User &owner, const QString &id, int number)
{
    const auto current = ownedDeployment(owner, id);
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
    for (const StoredFile &file : files) {
        if (file.size > kMaxFileBytes)
            return Error {Error::Kind::TooLarge, DeploymentLimits::fileTooLarge(file.path)};
        total += file.size;
        // A kept version's blobs are never collected; one gone means the store was damaged: refuse, change nothing.
        // Renewed, too: another node may prune this version and collect its blobs before the rollback commits.
        if (const Result<bool> retained = m_blobs.retain(file.blob); !retained || !retained.value()) {
            qWarning().noquote() << "rollback: blob" << file.blob << "of" << id << "is missing";
            return Error {Error::Kind::Internal, u"Could not read the version"_s};
        }
    }
    if (total > kMaxTotalBytes)
        return Error {Error::Kind::TooLarge, DeploymentLimits::totalTooLarge()};

    Deployment deployment = current.value();
    deployment.storageType = version->storageType;
    deployment.isSpa = version->isSpa;
    deployment.title = version->title;
    deployment.titleIsCustom = version->titleIsCustom;
    deployment.documentTitle = version->documentTitle;
    deployment.description = version->description;
    deployment.favicon = version->favicon;
    deployment.ogImage = version->ogImage;
    deployment.updatedAt = m_clock.now();

    // One transaction: a crash before it leaves the old version served, after it the new one.
    fault("before-rollback-commit");
    QList<QByteArray> released;
    if (const Result<void> updated = m_repository.update(deployment, files, m_versionsKept, &released); !updated)
        return writeFailed(updated.error(), u"Could not save the deployment"_s);
    fault("after-rollback-commit");
    addGarbageCandidates(released);
    m_sites.put(Site::make(deployment, files, m_blobs));
    Q_EMIT deploymentChanged(deployment.id);
    if (m_inFlight == 0)
        collectGarbage();
    return deployment;
}

Result<void> DeploymentService::resolveReferences(const User &owner, DeployRequest &request) const
{
    if (!request.files)
        return {};
    QList<QByteArray> hashes;
    for (const FileUpload &file : *request.files) {
        if (file.isReference())
            hashes.append(file.sha256);
    }
    if (hashes.isEmpty())
        return {};

    // Only what this user's deployments reference counts as held: a hash of someone else's file, or of a blob
    // nothing references any more, is "missing", whatever lies on disk.
    const auto held = m_repository.versions().heldBy(owner.id, hashes);
    if (!held) {
        qWarning().noquote() << "deploy: cannot look up stored files:" << held.error().message;
        return Error {Error::Kind::Internal, u"Could not check the stored files"_s};
    }
    QStringList missing;
    for (FileUpload &file : *request.files) {
        if (!file.isReference())
            continue;
        const auto found = held.value().constFind(file.sha256);
        if (found == held.value().constEnd() || !m_blobs.contains(file.sha256))
            missing.append(file.path);
        else
            file.size = *found;
    }
    if (!missing.isEmpty()) {
        Error error {Error::Kind::Conflict, missingContentsMessage()};
        error.missing = missing;
        return error;
    }
    // Now that every size is known, the limits apply to the whole deployment.
    return validateDeployRequest(request);
}

} // namespace berth
