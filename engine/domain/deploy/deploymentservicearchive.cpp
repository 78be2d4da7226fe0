// DeploymentService's archive uploads: the checks and the commit of a JSON deploy around an intake that stores the
// archive's files while they arrive.
#include "domain/deploy/blobgarbage.h"
#include "domain/deploy/deploymentservice.h"

namespace berth {

QFuture<Result<Deployment>> DeploymentService::createFromArchive(
    const User &owner, DeployRequest fields, ArchiveInput input)
{
    fields.files = QList<FileUpload>(); // the content is the archive's, staged by archiveStager()
    return createValidated(owner, std::move(fields), {}, archiveStager(std::move(input)));
}

QFuture<Result<Deployment>> DeploymentService::updateFromArchive(
    const User &owner, const QString &id, DeployRequest fields, ArchiveInput input)
{
    fields.files = QList<FileUpload>();
    return updateValidated(owner, id, std::move(fields), {}, archiveStager(std::move(input)));
}

DeploymentService::Stager DeploymentService::archiveStager(ArchiveInput input)
{
    return [this, input = std::move(input)](std::shared_ptr<QList<QByteArray>> written) {
        return ArchiveIntake::start(input, m_blobs, m_faults, m_workers, m_workersYield, m_garbage.sweep(), written)
            .then([](Result<StagedArchive> archive) -> Result<Staged> {
                if (!archive)
                    return archive.error();
                Staged staged;
                staged.files = std::move(archive.value().files);
                staged.storageType = QStringLiteral("files");
                staged.documentTitle = archive.value().documentTitle;
                return staged;
            });
    };
}

} // namespace berth
