#include "domain/visitors/deploymentowner.h"

#include "domain/deploy/deploymentservice.h"
#include "storage/deploymentrepository.h"
#include "storage/userrepository.h"

namespace berth::DeploymentOwner {

Result<void> check(const DeploymentRepository &deployments, const User &owner, const QString &deploymentId)
{
    const auto deployment = deployments.find(deploymentId);
    if (!deployment || deployment->userId != owner.id)
        return Error {Error::Kind::NotFound, DeploymentService::notFoundMessage(), Error::Code::DeploymentNotFound};
    return {};
}

PlanLimits tierOf(const UserRepository &users, const PlanTable &plans, const Deployment &deployment)
{
    const auto user = users.find(deployment.userId);
    // An unknown plan (or a user gone mid-request) gets the free plan's limits, as PlanTable does.
    return plans.limits(user ? user->plan : QString());
}

} // namespace berth::DeploymentOwner
