#pragma once

#include "api/apirouter.h"

namespace berth {

class DeploymentService;
class SiteAddresses;

// POST /deploy, GET /deploys, GET|PUT|DELETE /deploy/:id, PATCH /deploy/:id/slug.
class DeploymentsController final
{
public:
    DeploymentsController(DeploymentService &service, const SiteAddresses &addresses);
    Q_DISABLE_COPY_MOVE(DeploymentsController)

    void registerRoutes(ApiRouter &router);

private:
    void create(ApiCall &call);
    void get(ApiCall &call);
    void update(ApiCall &call);
    void rename(ApiCall &call);
    void remove(ApiCall &call);
    void list(ApiCall &call);

    DeploymentService &m_service;
    const SiteAddresses &m_addresses;
};

} // namespace berth
