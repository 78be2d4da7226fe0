#pragma once

#include "api/apirouter.h"

namespace berth {

class SiteAddresses;

// GET /openapi.json (public): the OpenAPI 3.1 document of this API, generated from the router's own table.
class OpenApiController final
{
public:
    OpenApiController(const ApiRouter &router, const SiteAddresses &addresses);
    Q_DISABLE_COPY_MOVE(OpenApiController)

    void registerRoutes(ApiRouter &router);

private:
    void document(ApiCall &call);

    const ApiRouter &m_router;
    const SiteAddresses &m_addresses;
};

} // namespace berth
