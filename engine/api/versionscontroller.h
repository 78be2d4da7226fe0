#pragma once

#include "api/apirouter.h"

namespace berth {

class DeploymentService;
class SiteAddresses;
class VersionHistory;

// GET /deploy/:id/versions and POST /deploy/:id/rollback: a deployment's kept versions, and serving one
// of them again.
class VersionsController final
{
public:
    VersionsController(const DeploymentService &deployments, VersionHistory &history, const SiteAddresses &addresses);
    Q_DISABLE_COPY_MOVE(VersionsController)

    void registerRoutes(ApiRouter &router);

private:
    void list(ApiCall &call);
    void rollback(ApiCall &call);

    const DeploymentService &m_deployments;
    VersionHistory &m_history;
    const SiteAddresses &m_addresses;
};

} // namespace berth
