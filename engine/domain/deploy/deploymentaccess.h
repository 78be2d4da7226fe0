#pragma once

// Private to the deploy classes: what DeploymentService and VersionHistory share about reaching one owner's
// deployment and about telling a client that a write failed.

#include "core/error.h"
#include "storage/deployment.h"

namespace berth {

class DeploymentRepository;
struct User;

namespace DeploymentAccess {

// The deployment id names when owner owns it, else notFound(): another user's deployment looks exactly like a
// missing one.
Result<Deployment> owned(const DeploymentRepository &repository, const User &owner, const QString &id);
Error notFound(); // 404 + DeploymentNotFound
// 507 for a full disk, 503 for an unreachable database (both as storage words them), else 500 with message.
Error writeFailed(const Error &error, const QString &message);

} // namespace DeploymentAccess
} // namespace berth
