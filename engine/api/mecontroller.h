#pragma once

#include "api/apirouter.h"

namespace berth {

class SiteAddresses;
class UsageReport;

// GET /auth/me: who the key belongs to (user id, email or agent, plan) and what is left of each limit of the plan:
// deployments used and allowed, and per site the submissions of today, the submissions stored and the counters.
class MeController final
{
public:
    MeController(const UsageReport &usage, const SiteAddresses &addresses);
    Q_DISABLE_COPY_MOVE(MeController)

    void registerRoutes(ApiRouter &router);

private:
    void me(ApiCall &call);

    const UsageReport &m_usage;
    const SiteAddresses &m_addresses;
};

} // namespace berth
