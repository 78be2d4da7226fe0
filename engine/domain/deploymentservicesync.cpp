// DeploymentService's entry point for changes made elsewhere (another server on the same database).
#include "deploymentservice.h"
#include "sitetable.h"
#include "storage/blobstore.h"
#include "storage/deploymentrepository.h"

namespace berth {

void DeploymentService::refreshSite(const QString &deploymentId)
{
    const auto deployment = m_repository.find(deploymentId);
    if (!deployment) {
        if (m_sites.slugOf(deploymentId).isEmpty())
            return;
        m_sites.remove(deploymentId);
        Q_EMIT deploymentRemoved(deploymentId);
        return;
    }
    const QList<StoredFile> files = m_repository.files(deployment->versionId);
    if (files.isEmpty()) // unreadable now (every version has a file): what is served stays, the resync tries again
        return;
    m_sites.put(Site::make(*deployment, files, m_blobs));
    Q_EMIT deploymentChanged(deploymentId);
}

} // namespace berth
