#include "site/builtinendpoints.h"

#include "domain/ratelimit/ratelimitservice.h"
#include "domain/siterules/sitetable.h"
#include "domain/visitors/counterservice.h"
#include "domain/visitors/submissionservice.h"
#include "http/clientaddress.h"
#include "site/localtarget.h"
#include "site/sitelimits.h"
#include "site/submissionbody.h"
#include "web/apierror.h"
#include "web/builtinpages.h"
#include "web/ratelimited.h"

#include <QUrl>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

constexpr QStringView kSubmitPath = u"/_submit";
constexpr QStringView kSubmitPathSlash = u"/_submit/";
constexpr QStringView kCounterPath = u"/_counter";
constexpr QStringView kCounterPrefix = u"/_counter/";
constexpr QStringView kIncrementSuffix = u"/increment";
constexpr QByteArrayView kCounterReadCachePolicy = "public, max-age=10"; // reads may be cached 10 s (docs/api.md)
constexpr QByteArrayView kPrivateCounterReadCachePolicy = "private, max-age=10";

// A private site's answers depend on the visitor's access cookie: no shared cache may keep them, and whatever has
// no policy of its own is not stored at all.
HttpResponse keptPrivate(HttpResponse response, const Site &site)
{
    if (!site.deployment.isProtected)
        return response;
    if (response.header("cache-control").isEmpty())
        response.setHeader("Cache-Control", "no-store");
    response.setHeader("Vary", "Cookie");
    return response;
}

HttpResponse methodNotAllowed(const QByteArray &allow)
{
    HttpResponse response = HttpResponse::jsonError(405, u"Method not allowed"_s);
    response.setHeader("Allow", allow);
    return response;
}

// A URL the visitor may be sent to after a form post: a path on this site, or an absolute http(s) URL whose
// host and port are this request's. Anything else (another site, "//evil", "javascript:") is refused, so the
// endpoint cannot be used as an open redirect. Returns the encoded path and query, or empty.
QByteArray sameSiteTarget(const QString &candidate, const QByteArray &hostHeader)
{
    if (candidate.isEmpty() || candidate.contains(u'\\'))
        return {};
    const QUrl url(candidate, QUrl::StrictMode);
    if (!url.isValid())
        return {};
    if (url.isRelative()) {
        if (!url.host().isEmpty() || !candidate.startsWith(u'/') || candidate.startsWith(u"//"))
            return {};
    } else if ((url.scheme() != u"http"_s && url.scheme() != u"https"_s)
        || url.authority(QUrl::FullyEncoded).toLatin1().compare(hostHeader, Qt::CaseInsensitive) != 0) {
        return {};
    }
    QUrl local;
    local.setPath(url.path(QUrl::FullyDecoded).isEmpty() ? u"/"_s : url.path(QUrl::FullyDecoded));
    local.setQuery(url.query(QUrl::FullyEncoded), QUrl::StrictMode);
    local.setFragment(url.fragment(QUrl::FullyEncoded), QUrl::StrictMode);
    // Checked again as it leaves: a decoded "%2F" or an absolute URL with the path "//x" must not start the
    // result with "//".
    QByteArray target = local.toEncoded();
    return LocalTarget::isLocal(QString::fromLatin1(target)) ? target : QByteArray();
}

HttpResponse thankYouPage(const QByteArray &back)
{
    return BuiltinPages::response(200, u"thank-you"_s, {{u"back"_s, QString::fromLatin1(back)}});
}

// Whether a form post asked for JSON (a script's fetch with FormData) rather than a page.
bool acceptsJsonOnly(const HttpRequest &request)
{
    const QByteArray accept = request.header("accept");
    return accept.contains("application/json") && !accept.contains("text/html");
}

} // namespace

BuiltinEndpoints::BuiltinEndpoints(SubmissionService &submissions, CounterService &counters, RateLimitService &limits,
    QList<QHostAddress> trustedProxies)
    : m_submissions(submissions)
    , m_counters(counters)
    , m_limits(limits)
    , m_trustedProxies(std::move(trustedProxies))
{
}

QString BuiltinEndpoints::tooLargeMessage()
{
    return u"Submission exceeds the 10 KB limit"_s;
}

bool BuiltinEndpoints::claims(const QString &path) const
{
    return path == kSubmitPath || path == kSubmitPathSlash || path == kCounterPath || path.startsWith(kCounterPrefix);
}

std::optional<BodyLimit> BuiltinEndpoints::bodyLimit(const QByteArray &method, const QString &path) const
{
    // A form submission is small: refused before it is read (submit() checks again).
    if (method == "POST" && (path == kSubmitPath || path == kSubmitPathSlash))
        return BodyLimit {kMaxSubmissionBytes, tooLargeMessage()};
    return std::nullopt;
}

bool BuiltinEndpoints::handle(const HttpRequest &request, const Site &site, ResponseSink &sink)
{
    const QString &path = request.path;
    if (path == kSubmitPath || path == kSubmitPathSlash) {
        HttpResponse response = submit(request, site);
        // A visitor whose form post is refused reads why on a page; a script asking for JSON keeps the JSON.
        if (response.status >= 400 && BuiltinPages::prefersPage(request)) {
            const QByteArray back
                = sameSiteTarget(QString::fromUtf8(request.header("referer")), request.header("host"));
            response = BuiltinPages::refusalPage(response, back.isEmpty() ? u"/"_s : QString::fromLatin1(back));
        }
        sink.send(keptPrivate(std::move(response), site));
        return true;
    }
    if (path == kCounterPath || path.startsWith(kCounterPrefix)) {
        sink.send(keptPrivate(
            counter(request, site, QStringView(path).sliced(qMin(path.size(), kCounterPrefix.size()))), site));
        return true;
    }
    return false;
}

QString BuiltinEndpoints::limiterKey(QStringView scope, const HttpRequest &request) const
{
    return scope.toString() + u':' + clientAddress(request, m_trustedProxies).toString();
}

HttpResponse BuiltinEndpoints::submit(const HttpRequest &request, const Site &site)
{
    if (request.method != "POST")
        return methodNotAllowed("POST");
    if (const RateDecision decision = m_limits.hit(limiterKey(u"submit", request), RateLimits::kSubmitPerIp);
        !decision.allowed)
        return rateLimited(decision);
    if (request.body.size() > kMaxSubmissionBytes)
        return HttpResponse::jsonError(413, tooLargeMessage());

    const auto body = SubmissionBody::parse(request.header("content-type"), request.body);
    if (!body)
        return errorResponse(body.error());
    QJsonObject fields = body.value().fields;
    const QJsonValue honeypot = fields.take(u"_hp"_s);
    if (!honeypot.isUndefined() && !honeypot.isNull() && honeypot != QJsonValue(u""_s))
        return HttpResponse::jsonError(400, u"Submission rejected"_s);
    const QJsonValue next = fields.take(u"_next"_s);
    if (fields.isEmpty())
        return HttpResponse::jsonError(400, u"Submission is empty"_s);

    const auto stored = m_submissions.receive(site.deployment, fields, body.value().order);
    if (!stored) {
        if (stored.error().kind == Error::Kind::RateLimited)
            return rateLimited({false, m_submissions.secondsUntilNextDay()}, stored.error().message);
        return errorResponse(stored.error());
    }
    if (body.value().isJson || acceptsJsonOnly(request)) {
        HttpResponse response = HttpResponse::json(200, {{u"success"_s, true}, {u"id"_s, stored.value().id}});
        response.setHeader("Cache-Control", "no-store");
        return response;
    }
    const QByteArray host = request.header("host");
    if (const QByteArray target = sameSiteTarget(next.toString(), host); !target.isEmpty()) {
        HttpResponse response;
        response.status = 303;
        response.setHeader("Location", target);
        return response;
    }
    const QByteArray back = sameSiteTarget(QString::fromUtf8(request.header("referer")), host);
    return thankYouPage(back.isEmpty() ? QByteArray("/") : back);
}

HttpResponse BuiltinEndpoints::counter(const HttpRequest &request, const Site &site, QStringView rest)
{
    const bool increment = rest.endsWith(kIncrementSuffix);
    const QString name = (increment ? rest.chopped(kIncrementSuffix.size()) : rest).toString();
    if (increment && request.method != "POST")
        return methodNotAllowed("POST");
    if (!increment && request.method != "GET" && request.method != "HEAD")
        return methodNotAllowed("GET, HEAD");

    Result<qint64> value = 0;
    if (increment) {
        if (const RateDecision decision
            = m_limits.hit(limiterKey(u"counter", request), RateLimits::kCounterIncrementsPerIp);
            !decision.allowed)
            return rateLimited(decision);
        value = m_counters.increment(site.deployment, name);
    } else {
        value = m_counters.value(site.deployment, name);
    }
    if (!value)
        return errorResponse(value.error());
    HttpResponse response
        = HttpResponse::json(200, {{u"name"_s, name}, {u"value"_s, value.value()}, {u"slug"_s, site.deployment.slug}});
    const QByteArrayView readPolicy
        = site.deployment.isProtected ? kPrivateCounterReadCachePolicy : kCounterReadCachePolicy;
    response.setHeader("Cache-Control", increment ? QByteArray("no-store") : readPolicy.toByteArray());
    return response;
}

} // namespace berth
