// DeploymentService's uploads that name content by hash, apart from the deploy path so that each can change without
// the other.
#include "domain/deploy/deploymentservice.h"
#include "storage/blobstore.h"
#include "storage/deploymentrepository.h"

#include <QDebug>

using namespace Qt::StringLiterals;

namespace berth {

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
