#include "api/apirouter.h"

#include "api/archiveupload.h"
#include "domain/accounts/accountservice.h"
#include "domain/ratelimit/ratelimitservice.h"
#include "http/clientaddress.h"
#include "web/apierror.h"
#include "web/builtinpages.h"
#include "web/ratelimited.h"

using namespace Qt::StringLiterals;

namespace berth {

ApiRouter::ApiRouter(
    AccountService &accounts, RateLimitService &limits, int requestsPerMinute, QList<QHostAddress> trustedProxies)
    : m_accounts(accounts)
    , m_limits(limits)
    , m_requestsPerMinute(requestsPerMinute)
    , m_trustedProxies(std::move(trustedProxies))
{
}

QString ApiRouter::bodyTooLarge(RouteBody body)
{
    if (body != RouteBody::Small)
        return u"Request body exceeds the %1 MB limit"_s.arg(kMaxDeploymentBodyBytes / (1024 * 1024));
    return u"Request body too large"_s;
}

void ApiRouter::add(const QByteArray &method, const QString &pattern, Handler handler, RouteAccess access,
    RouteBody body, const RateRule *perAddress)
{
    m_routes.append({method, pattern.split(u'/', Qt::SkipEmptyParts), std::move(handler), access, body,
        perAddress ? std::optional<RateRule>(*perAddress) : std::nullopt});
}

BodyLimit ApiRouter::bodyLimit(const QByteArray &method, const QString &path) const
{
    const QStringList segments = segmentsOf(path);
    QStringList params;
    for (const Route &route : m_routes) {
        if (route.method == method && matches(route, segments, &params)) {
            if (route.body == RouteBody::Small)
                break;
            // Only a key holder may send a large body to a keyed route: the front door asks uploadRefusal() first.
            // A deployment's files may also come as an archive, stored as it arrives.
            BodyLimit limit {
                kMaxDeploymentBodyBytes, bodyTooLarge(route.body), true, route.access == RouteAccess::ApiKey};
            if (route.body == RouteBody::Files)
                limit.streamedTypes = ArchiveUpload::mediaTypes();
            return limit;
        }
    }
    return {kMaxSmallBodyBytes, bodyTooLarge(RouteBody::Small), true};
}

QStringList ApiRouter::segmentsOf(const QString &path)
{
    // A trailing slash names the same resource; empty segments in between do not match anything.
    QString trimmed = path;
    if (trimmed.size() > 1 && trimmed.endsWith(u'/'))
        trimmed.chop(1);
    return trimmed == u"/" ? QStringList() : trimmed.split(u'/').mid(1);
}

QList<ApiRouter::RouteInfo> ApiRouter::routes() const
{
    QList<RouteInfo> table;
    for (const Route &route : m_routes)
        table.append({route.method, u'/' + route.segments.join(u'/'), route.access, route.body, route.perAddress});
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

std::optional<HttpResponse> ApiRouter::uploadRefusal(const QByteArray &authorization) const
{
    // A database that cannot be asked lets the body in: the request then gets the 503 that says so, not a 401.
    const Result<User> user = m_accounts.authenticate(authorization);
    if (user || user.error().kind == Error::Kind::Unavailable)
        return std::nullopt;
    return refused(authorization, user.error());
}

HttpResponse ApiRouter::refused(const QByteArray &authorization, const Error &refusal)
{
    if (refusal.kind != Error::Kind::Unauthorized)
        return errorResponse(refusal);
    HttpResponse response = HttpResponse::jsonError(401, u"Unauthorized"_s);
    if (authorization.trimmed().isEmpty()) // RFC 6750 section 3.1: no key offered, no error code
        response.setHeader("WWW-Authenticate", bearerChallenge());
    else if (AccountService::bearerSecret(authorization).isEmpty())
        response.setHeader("WWW-Authenticate", bearerChallenge("invalid_request", AccountService::notBearerMessage()));
    else
        response.setHeader("WWW-Authenticate", bearerChallenge("invalid_token", refusal.message));
    return response;
}

void ApiRouter::handle(const HttpRequest &request, ResponseSink sink) const
{
    const QStringList segments = segmentsOf(request.path);
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
        if (!admitAddress(*found, request, sink))
            return;
        ApiCall call {request, std::move(sink), User(), params};
        found->handler(call);
        return;
    }

    const Result<User> user = m_accounts.authenticate(request.header("authorization"));
    if (!user) {
        sink.send(refused(request.header("authorization"), user.error()));
        return;
    }
    if (!admitKey(request, sink))
        return;
    ApiCall call {request, std::move(sink), user.value(), params};
    found->handler(call);
}

bool ApiRouter::admitAddress(const Route &route, const HttpRequest &request, ResponseSink &sink) const
{
    if (!route.perAddress)
        return true;
    const QString key = QString::fromLatin1(route.method) + u' ' + route.segments.join(u'/') + u':'
        + clientAddress(request, m_trustedProxies).toString();
    const RateDecision decision = m_limits.hit(key, *route.perAddress);
    if (decision.allowed)
        return true;
    // A browser's navigation (GET /auth/login) reads the refusal on a page, unless it asks for JSON alone.
    const HttpResponse refused = rateLimited(decision);
    sink.send(BuiltinPages::prefersPage(request) ? BuiltinPages::refusalPage(refused) : refused);
    return false;
}

bool ApiRouter::admitKey(const HttpRequest &request, ResponseSink &sink) const
{
    // Keyed by the key's hash (never the secret itself); only after authentication, so nobody can use up
    // another key's allowance with a made-up header.
    const QByteArray secret = AccountService::bearerSecret(request.header("authorization"));
    const RateDecision decision = m_limits.hit(u"api:"_s + QString::fromLatin1(AccountService::hashSecret(secret)),
        RateRule {m_requestsPerMinute, RateLimits::kMinuteMs});
    if (!decision.allowed)
        sink.send(rateLimited(decision));
    return decision.allowed;
}

} // namespace berth
