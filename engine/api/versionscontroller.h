#pragma once

#include "apirouter.h"

namespace berth {

class DeploymentService;
class SiteAddresses;

// GET /deploy/:id/versions and POST /deploy/:id/rollback (issue 15): a deployment's kept versions, and serving one
// of them again.
class VersionsController final
{
public:
    VersionsController(DeploymentService &service, const SiteAddresses &addresses);
    Q_DISABLE_COPY_MOVE(VersionsController)

    void registerRoutes(ApiRouter &router);

private:
    void list(ApiCall &call);
    void rollback(ApiCall &call);

    DeploymentService &m_service;
    const SiteAddresses &m_addresses;
};

} // namespace berth
