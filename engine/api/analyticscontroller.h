#pragma once

#include "api/apirouter.h"

namespace berth {

class AnalyticsService;

// GET /deploy/:id/analytics?from=YYYY-MM-DD&to=YYYY-MM-DD: a site's page views, visitors, pages, referrers and
// 404s, for its owner.
class AnalyticsController final
{
public:
    explicit AnalyticsController(AnalyticsService &service);
    Q_DISABLE_COPY_MOVE(AnalyticsController)

    void registerRoutes(ApiRouter &router);

private:
    void show(ApiCall &call);

    AnalyticsService &m_service;
};

} // namespace berth
