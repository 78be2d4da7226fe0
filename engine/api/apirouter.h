#pragma once

#include "http/requesthandler.h"
#include "storage/user.h"

#include <QStringList>

#include <functional>

namespace berth {

class AccountService;

// One authenticated management request on its way to a controller.
struct ApiCall
{
    const HttpRequest &request;
    ResponseSink sink;
    User user;
    QStringList params; // the values of the pattern's ":name" segments, in order
};

// Routes management requests by method and path pattern. Unknown paths are 404, a known path with
// another method is 405 with Allow, HEAD is served wherever GET is. Authentication comes before
// any controller sees the body: a request without a live key is 401 whatever it carries.
class ApiRouter final
{
public:
    using Handler = std::function<void(ApiCall &)>;

    explicit ApiRouter(AccountService &accounts);
    Q_DISABLE_COPY_MOVE(ApiRouter)

    // pattern: "/deploy/:id/slug" — literal segments and ":name" placeholders.
    void add(const QByteArray &method, const QString &pattern, Handler handler);
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
    QList<Route> m_routes;
};

} // namespace berth
