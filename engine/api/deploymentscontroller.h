#pragma once

#include "api/apirouter.h"

namespace berth {

class CustomDomainService;
class DeploymentService;
class SiteAddresses;
struct Deployment;

// POST /deploy, GET /deploys, GET|PUT|DELETE /deploy/:id, PATCH /deploy/:id/slug.
class DeploymentsController final
{
public:
    DeploymentsController(
        DeploymentService &service, const CustomDomainService &domains, const SiteAddresses &addresses);
    Q_DISABLE_COPY_MOVE(DeploymentsController)

    void registerRoutes(ApiRouter &router);

private:
    void create(ApiCall &call);
    void get(ApiCall &call);
    void update(ApiCall &call);
    void rename(ApiCall &call);
    void remove(ApiCall &call);
    void list(ApiCall &call);
    // The summary of a deployment just changed, with its custom domains when it has any.
    QJsonObject changed(const Deployment &deployment) const;

    DeploymentService &m_service;
    const CustomDomainService &m_domains;
    const SiteAddresses &m_addresses;
};

} // namespace berth
