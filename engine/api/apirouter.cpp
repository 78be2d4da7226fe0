#include "apirouter.h"

#include "ratelimited.h"
#include "domain/accountservice.h"

using namespace Qt::StringLiterals;

namespace berth {

ApiRouter::ApiRouter(AccountService &accounts, RateLimiter &limiter, int requestsPerMinute)
    : m_accounts(accounts)
    , m_limiter(limiter)
    , m_requestsPerMinute(requestsPerMinute)
{
}

void ApiRouter::add(const QByteArray &method, const QString &pattern, Handler handler, RouteAccess access)
{
    m_routes.append({method, pattern.split(u'/', Qt::SkipEmptyParts), std::move(handler), access});
}

QList<ApiRouter::RouteInfo> ApiRouter::routes() const
{
    QList<RouteInfo> table;
    for (const Route &route : m_routes)
        table.append({route.method, u'/' + route.segments.join(u'/'), route.access});
    return table;
}

bool ApiRouter::matches(const Route &route, const QStringList &segments, QStringList *params)
{
    if (route.segments.size() != segments.size())
        return false;
    params->clear();
    for (qsizetype i = 0; i < segments.size(); ++i) {
        const QString &expected = route.segments.at(i);
        if (expected.startsWith(u':'))
            params->append(segments.at(i));
        else if (expected != segments.at(i))
            return false;
    }
    return true;
}

bool ApiRouter::isAuthorized(const QByteArray &authorization) const
{
    return m_accounts.authenticate(authorization).has_value();
}

void ApiRouter::handle(const HttpRequest &request, ResponseSink sink) const
{
    // A trailing slash names the same resource; empty segments in between do not match anything.
    QString path = request.path;
    if (path.size() > 1 && path.endsWith(u'/'))
        path.chop(1);
    const QStringList segments = path == u"/" ? QStringList() : path.split(u'/').mid(1);
    const QByteArray method = request.isHead() ? QByteArray("GET") : request.method;

    const Route *found = nullptr;
    QStringList params;
    QByteArrayList allowed;
    for (const Route &route : m_routes) {
        QStringList candidate;
        if (!matches(route, segments, &candidate))
            continue;
        allowed.append(route.method);
        if (route.method == "GET")
            allowed.append("HEAD");
        if (route.method == method && !found) {
            found = &route;
            params = candidate;
        }
    }
    if (allowed.isEmpty()) {
        sink.send(HttpResponse::jsonError(404, u"Not found"_s));
        return;
    }
    if (!found) {
        HttpResponse response = HttpResponse::jsonError(405, u"Method not allowed"_s);
        response.setHeader("Allow", allowed.join(", "));
        sink.send(std::move(response));
        return;
    }

    if (found->access == RouteAccess::Public) {
        ApiCall call {request, std::move(sink), User(), params};
        found->handler(call);
        return;
    }

    const auto user = m_accounts.authenticate(request.header("authorization"));
    if (!user) {
        HttpResponse response = HttpResponse::jsonError(401, u"Unauthorized"_s);
        response.setHeader("WWW-Authenticate", "Bearer");
        sink.send(std::move(response));
        return;
    }
    // Keyed by the key's hash (never the secret itself); only after authentication, so nobody can use up
    // another key's allowance with a made-up header.
    static constexpr QByteArrayView kScheme = "Bearer ";
    const QByteArray secret = request.header("authorization").mid(kScheme.size()).trimmed();
    const RateDecision decision = m_limiter.hit(u"api:"_s + QString::fromLatin1(AccountService::hashSecret(secret)),
        m_requestsPerMinute, RateLimits::kMinuteMs);
    if (!decision.allowed) {
        sink.send(rateLimited(decision));
        return;
    }
    ApiCall call {request, std::move(sink), *user, params};
    found->handler(call);
}

} // namespace berth
