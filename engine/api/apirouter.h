#pragma once

#include "http/requesthandler.h"
#include "storage/user.h"

#include <QStringList>

#include <functional>

namespace berth {

class AccountService;
class RateLimiter;

// One authenticated management request on its way to a controller.
struct ApiCall
{
    const HttpRequest &request;
    ResponseSink sink;
    User user;
    QStringList params; // the values of the pattern's ":name" segments, in order
};

// One row of a controller's route table: method, path pattern and the member function that answers.
template<typename Controller>
struct ControllerRoute
{
    const char *method;
    const char *pattern;
    void (Controller::*handler)(ApiCall &);
};

// Routes management requests by method and path pattern. Unknown paths are 404, a known path with
// another method is 405 with Allow, HEAD is served wherever GET is. Authentication comes before
// any controller sees the body: a request without a live key is 401 whatever it carries. Then every
// authenticated request counts against its key's limit (requestsPerMinute), whatever it asks for.
class ApiRouter final
{
public:
    using Handler = std::function<void(ApiCall &)>;

    ApiRouter(AccountService &accounts, RateLimiter &limiter, int requestsPerMinute);
    Q_DISABLE_COPY_MOVE(ApiRouter)

    // pattern: "/deploy/:id/slug" — literal segments and ":name" placeholders.
    void add(const QByteArray &method, const QString &pattern, Handler handler);
    // Every row of a controller's table, answered by that controller.
    template<typename Controller, std::size_t N>
    void addRoutes(Controller *controller, const ControllerRoute<Controller> (&routes)[N])
    {
        for (const auto &route : routes)
            add(route.method, QString::fromLatin1(route.pattern),
                [controller, handler = route.handler](ApiCall &call) { (controller->*handler)(call); });
    }
    void handle(const HttpRequest &request, ResponseSink sink) const;

private:
    struct Route
    {
        QByteArray method;
        QStringList segments;
        Handler handler;
    };
    static bool matches(const Route &route, const QStringList &segments, QStringList *params);

    AccountService &m_accounts;
    RateLimiter &m_limiter;
    const int m_requestsPerMinute;
    QList<Route> m_routes;
};

} // namespace berth
