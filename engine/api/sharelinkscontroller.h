#pragma once

#include "api/apirouter.h"

#include <QJsonObject>

namespace berth {

class DeploymentService;
class ShareLinkService;
class SiteAddresses;
struct ShareLinkView;

// POST, GET /deploy/:id/links and DELETE /deploy/:id/links/:link_id: a private site's named share links, for its
// owner (404 for anyone else).
class ShareLinksController final
{
public:
    ShareLinksController(ShareLinkService &links, const DeploymentService &deployments, const SiteAddresses &addresses);
    Q_DISABLE_COPY_MOVE(ShareLinksController)

    void registerRoutes(ApiRouter &router);

    // A link as the API and the MCP tools give it (url only when just made).
    static QJsonObject toJson(const ShareLinkView &view);

private:
    void create(ApiCall &call);
    void list(ApiCall &call);
    void revoke(ApiCall &call);

    ShareLinkService &m_links;
    const DeploymentService &m_deployments;
    const SiteAddresses &m_addresses;
};

} // namespace berth
