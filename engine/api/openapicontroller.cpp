#include "api/openapicontroller.h"

#include "api/openapidocument.h"
#include "domain/siterules/siteaddresses.h"

using namespace Qt::StringLiterals;

namespace berth {

OpenApiController::OpenApiController(const ApiRouter &router, const SiteAddresses &addresses)
    : m_router(router)
    , m_addresses(addresses)
{
}

void OpenApiController::registerRoutes(ApiRouter &router)
{
    static const ControllerRoute<OpenApiController> kRoutes[] = {
        {"GET", "/openapi.json", &OpenApiController::document, RouteAccess::Public},
    };
    router.addRoutes(this, kRoutes);
}

void OpenApiController::document(ApiCall &call)
{
    // Built per request (a few dozen routes): the base URL is only known once the server listens.
    HttpResponse response = HttpResponse::json(
        200, OpenApiDocument::build(m_router.routes(), m_addresses.baseUrl(), QStringLiteral(BERTH_VERSION)));
    response.setHeader("Access-Control-Allow-Origin", "*"); // a public description, for API explorers
    call.sink.send(std::move(response));
}

} // namespace berth
