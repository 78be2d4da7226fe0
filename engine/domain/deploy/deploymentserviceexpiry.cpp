// DeploymentService's part in sites that expire: a deploy's expiry settled on the clock, and the sweep's delete.
#include "domain/common/clock.h"
#include "domain/deploy/agentsitelifetime.h"
#include "domain/deploy/deploymentaccess.h"
#include "domain/deploy/deploymentservice.h"
#include "domain/deploy/expiryrules.h"
#include "storage/deploymentrepository.h"

using namespace Qt::StringLiterals;

namespace berth {

Result<void> DeploymentService::settleExpiry(const User &owner, DeployRequest &request, DeployRequest::Mode mode) const
{
    std::optional<qint64> agentDefault;
    if (mode == DeployRequest::Mode::Create && owner.plan == u"agent" && m_agentSiteLifetime)
        agentDefault = m_agentSiteLifetime->seconds();
    return ExpiryRules::settle(request, m_clock.now(), agentDefault);
}

Result<Deployment> DeploymentService::removeExpired(const QString &id)
{
    const QDateTime now = m_clock.now();
    const std::optional<Deployment> current = m_repository.find(id);
    if (!current || !current->expiresAt.isValid() || current->expiresAt > now)
        return DeploymentAccess::notFound();
    return removeDeployment(*current, now);
}

} // namespace berth
