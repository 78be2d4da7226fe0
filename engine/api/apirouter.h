#pragma once

#include "http/requesthandler.h"
#include "storage/user.h"

#include <QStringList>
#include <functional>

namespace berth {

class AccountService;
class RateLimiter;

// Who may call a route: holders of a live API key (every management route), or anyone (the sign-in endpoints,
// which apply their own per-IP limits).
enum class RouteAccess
{
    ApiKey,
    Public
};

// One management request on its way to a controller.
struct ApiCall
{
    const HttpRequest &request;
    ResponseSink sink;
    User user; // the key's owner; empty on a public route
    QStringList params; // the values of the pattern's ":name" segments, in order
};

// One row of a controller's route table: method, path pattern, the member function that answers, and who may call.
template<typename Controller>
struct ControllerRoute
{
    const char *method;
    const char *pattern;
    void (Controller::*handler)(ApiCall &);
    RouteAccess access = RouteAccess::ApiKey;
};

// Routes management requests by method and path pattern. Unknown paths are 404, a known path with
// another method is 405 with Allow, HEAD is served wherever GET is. Authentication comes before
// any controller sees the body: a request without a live key is 401 whatever it carries. Then every
// authenticated request counts against its key's limit (requestsPerMinute), whatever it asks for.
// Public routes skip both and go straight to their controller.
class ApiRouter final
{
public:
    using Handler = std::function<void(ApiCall &)>;

    ApiRouter(AccountService &accounts, RateLimiter &limiter, int requestsPerMinute);
    Q_DISABLE_COPY_MOVE(ApiRouter)

    // pattern: "/deploy/:id/slug" — literal segments and ":name" placeholders.
    void add(
        const QByteArray &method, const QString &pattern, Handler handler, RouteAccess access = RouteAccess::ApiKey);
    // Every row of a controller's table, answered by that controller.
    template<typename Controller, std::size_t N>
    void addRoutes(Controller *controller, const ControllerRoute<Controller> (&routes)[N])
    {
        for (const auto &route : routes)
            add(
                route.method, QString::fromLatin1(route.pattern),
                [controller, handler = route.handler](ApiCall &call) { (controller->*handler)(call); }, route.access);
    }
    void handle(const HttpRequest &request, ResponseSink sink) const;
    // Whether an Authorization header carries a live key (the front door asks before reading a large body).
    bool isAuthorized(const QByteArray &authorization) const;

    // The route table, read-only: what the OpenAPI document is generated from.
    struct RouteInfo
    {
        QByteArray method;
        QString pattern; // e.g. "/deploy/:id/slug"
        RouteAccess access;
    };
    QList<RouteInfo> routes() const;

private:
    struct Route
    {
        QByteArray method;
        QStringList segments;
        Handler handler;
        RouteAccess access;
    };
    static bool matches(const Route &route, const QStringList &segments, QStringList *params);

    AccountService &m_accounts;
    RateLimiter &m_limiter;
    const int m_requestsPerMinute;
    QList<Route> m_routes;
};

} // namespace berth
