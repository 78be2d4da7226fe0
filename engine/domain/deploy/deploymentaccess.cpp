#include "domain/deploy/deploymentaccess.h"

#include "domain/deploy/deploymentservice.h"
#include "storage/deploymentrepository.h"

#include <QDebug>

namespace berth::DeploymentAccess {

Result<Deployment> owned(const DeploymentRepository &repository, const User &owner, const QString &id)
{
    auto deployment = repository.find(id);
    if (!deployment || deployment->userId != owner.id)
        return notFound();
    return *deployment;
}

Error notFound()
{
    return {Error::Kind::NotFound, DeploymentService::notFoundMessage(), Error::Code::DeploymentNotFound};
}

Error writeFailed(const Error &error, const QString &message)
{
    // A full disk and an unreachable database (PostgreSQL: a blob or a row the shared store could not take) are the
    // causes a client is told about, in storage's fixed words; the details (server paths, the system's words) of any
    // other go to the log.
    qWarning().noquote() << message << "-" << error.message;
    if (error.kind == Error::Kind::InsufficientStorage || error.kind == Error::Kind::Unavailable)
        return error;
    return {Error::Kind::Internal, message};
}

} // namespace berth::DeploymentAccess
