#pragma once

#include "core/error.h"
#include "domain/plans/plantable.h"

#include <QString>
#include <optional>

namespace berth {

class DeploymentRepository;
class UserRepository;
struct Deployment;
struct User;

// What the services of a deployment's visitor data (submissions, counters) ask about its owner.
namespace DeploymentOwner {

// NotFound ("Deployment not found") unless the deployment exists and belongs to owner: another user's
// deployment looks exactly like a missing one.
Result<void> check(const DeploymentRepository &deployments, const User &owner, const QString &deploymentId);

// The deployment's tier: the limits of its owner's plan.
PlanLimits tierOf(const UserRepository &users, const PlanTable &plans, const Deployment &deployment);

} // namespace DeploymentOwner
} // namespace berth
