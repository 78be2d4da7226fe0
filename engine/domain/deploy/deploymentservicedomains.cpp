#include "domain/deploy/customdomainservice.h"
#include "domain/deploy/deploymentservice.h"

using namespace Qt::StringLiterals;

namespace berth {

Result<void> DeploymentService::settleDomains(const User &owner, const QString &id, DeployRequest &request) const
{
    if (!request.domains)
        return {};
    if (!m_domains)
        return Error {Error::Kind::BadRequest, u"Custom domains are not available here"_s};
    Result<QStringList> checked = m_domains->check(owner, id, *request.domains);
    if (!checked)
        return checked.error();
    request.domains = std::move(checked).value();
    return {};
}

Result<void> DeploymentService::checkDomains(const User &owner, const QString &id, const DeployRequest &request) const
{
    if (!request.domains || !m_domains)
        return {};
    if (const Result<QStringList> checked = m_domains->check(owner, id, *request.domains); !checked)
        return checked.error();
    return {};
}

void DeploymentService::assignDomains(Deployment &deployment, const DeployRequest &request)
{
    if (!request.domains || !m_domains)
        return;
    // Checked on this thread right before the commit: only another server of a cluster can have taken a name since.
    if (const Result<void> assigned = m_domains->assign(deployment.id, *request.domains); !assigned)
        deployment.warnings.append(u"the domains were not changed: "_s + assigned.error().message);
}

} // namespace berth
