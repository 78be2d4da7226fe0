#pragma once

#include "core/error.h"
#include "domain/ratelimit/ratelimits.h"
#include "http/requesthandler.h"
#include "storage/user.h"

#include <QHostAddress>
#include <QStringList>
#include <functional>
#include <optional>

namespace berth {

class AccountService;
class RateLimitService;

// Who may call a route.
enum class RouteAccess
{
    ApiKey, // holders of a live key: 401 otherwise; then every call counts against the key's requests per minute
    Public, // anyone, within the route's per-address limit if it has one
};

// How large a body a route accepts. The front door enforces it from the request head, before reading the body.
enum class RouteBody
{
    Small, // kMaxSmallBodyBytes: JSON commands
    Deployment, // kMaxDeploymentBodyBytes: a deployment's files; on an ApiKey route only sent once the key is checked
    Files, // as Deployment, and also a tar archive (ArchiveUpload::mediaTypes()), handed over as it arrives
};

// One management request on its way to a controller.
struct ApiCall
{
    const HttpRequest &request;
    ResponseSink sink;
    User user; // the key's owner; empty on a public route
    QStringList params; // the values of the pattern's ":name" segments, in order
};

// One row of a controller's route table: method, path pattern, the member function that answers, who may call, how
// large a body it takes and, for a public route, how often one client address may call it (429 beyond; a browser
// gets the refusal as a page). Keyed routes count against their key's allowance instead.
template<typename Controller>
struct ControllerRoute
{
    const char *method;
    const char *pattern;
    void (Controller::*handler)(ApiCall &);
    RouteAccess access = RouteAccess::ApiKey;
    RouteBody body = RouteBody::Small;
    const RateRule *perAddress = nullptr;
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

    // Bodies: a deployment carries up to 50 MiB of files, which is 66.7 MiB as base64, plus the JSON around them.
    static constexpr qint64 kMaxDeploymentBodyBytes = 72 * 1024 * 1024;
    static constexpr qint64 kMaxSmallBodyBytes = 64 * 1024;
    // The 413 of a body over the route's limit (for a deployment: the JSON itself, before its files are counted).
    static QString bodyTooLarge(RouteBody body);

    // trustedProxies: reverse proxies whose X-Forwarded-For names the client of a per-address limit.
    ApiRouter(AccountService &accounts, RateLimitService &limits, int requestsPerMinute,
        QList<QHostAddress> trustedProxies = {});
    Q_DISABLE_COPY_MOVE(ApiRouter)

    // pattern: "/deploy/:id/slug" — literal segments and ":name" placeholders.
    void add(const QByteArray &method, const QString &pattern, Handler handler,
        RouteAccess access = RouteAccess::ApiKey, RouteBody body = RouteBody::Small,
        const RateRule *perAddress = nullptr);
    // Every row of a controller's table, answered by that controller.
    template<typename Controller, std::size_t N>
    void addRoutes(Controller *controller, const ControllerRoute<Controller> (&routes)[N])
    {
        for (const auto &route : routes)
            add(
                route.method, QString::fromLatin1(route.pattern),
                [controller, handler = route.handler](ApiCall &call) { (controller->*handler)(call); }, route.access,
                route.body, route.perAddress);
    }
    void handle(const HttpRequest &request, ResponseSink sink) const;
    // The body limit of the route a request head names (the small one for no route). Called on the serving
    // threads: it reads only the route table, which does not change once the engine is built.
    BodyLimit bodyLimit(const QByteArray &method, const QString &path) const;
    // What the front door answers before reading a large body whose Authorization header carries no live key (the
    // 401 of refused()); nothing when the key is live, or when the database cannot be asked (the request then gets
    // the 503 that says so).
    std::optional<HttpResponse> uploadRefusal(const QByteArray &authorization) const;
    // The answer to a request whose key authenticate() refused: 503 when the database could not be asked; else 401
    // {"error": "Unauthorized"} with WWW-Authenticate per RFC 6750 - no error code without an Authorization header,
    // "invalid_request" when it is not "Bearer <key>", "invalid_token" with the refusal's message otherwise.
    static HttpResponse refused(const QByteArray &authorization, const Error &refusal);

    // The route table, read-only: what the OpenAPI document is generated from.
    struct RouteInfo
    {
        QByteArray method;
        QString pattern; // e.g. "/deploy/:id/slug"
        RouteAccess access;
        RouteBody body;
        std::optional<RateRule> perAddress;
    };
    QList<RouteInfo> routes() const;

private:
    struct Route
    {
        QByteArray method;
        QStringList segments;
        Handler handler;
        RouteAccess access;
        RouteBody body;
        std::optional<RateRule> perAddress;
    };
    bool admitAddress(const Route &route, const HttpRequest &request, ResponseSink &sink) const;
    bool admitKey(const HttpRequest &request, ResponseSink &sink) const;
    static QStringList segmentsOf(const QString &path);
    static bool matches(const Route &route, const QStringList &segments, QStringList *params);

    AccountService &m_accounts;
    RateLimitService &m_limits;
    const int m_requestsPerMinute;
    const QList<QHostAddress> m_trustedProxies;
    QList<Route> m_routes;
};

} // namespace berth
