#include "api/statuscontroller.h"

#include "domain/siterules/siteaddresses.h"
#include "web/builtinpages.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace berth {

StatusController::StatusController(const SiteAddresses &addresses)
    : m_addresses(addresses)
{
}

void StatusController::registerRoutes(ApiRouter &router)
{
    static const ControllerRoute<StatusController> kRoutes[] = {
        {"GET", "/", &StatusController::status, RouteAccess::Public},
    };
    router.addRoutes(this, kRoutes);
}

void StatusController::status(ApiCall &call)
{
    const QString version = QStringLiteral(BERTH_VERSION);
    const QString signIn = m_addresses.baseUrl() + u"/auth/login"_s;
    const QString sites = m_addresses.siteUrl(u"<slug>"_s);
    if (call.request.header("accept").contains("text/html")) {
        call.sink.send(BuiltinPages::response(200, u"home"_s,
            {{u"version"_s, version}, {u"sites"_s, sites}, {u"sign_in"_s, signIn}, {u"api"_s, m_addresses.baseUrl()}}));
        return;
    }
    call.sink.send(HttpResponse::json(200,
        {{u"name"_s, u"Berth"_s}, {u"version"_s, version}, {u"api"_s, m_addresses.baseUrl()}, {u"sites"_s, sites},
            {u"sign_in"_s, signIn}}));
}

} // namespace berth
