#include "site/privategate.h"

#include "domain/common/passwordhasher.h"
#include "domain/ratelimit/ratelimitservice.h"
#include "domain/siterules/accesscontrol.h"
#include "domain/siterules/sitetable.h"
#include "http/clientaddress.h"
#include "http/cookieheader.h"
#include "http/formencoding.h"
#include "site/gatechecks.h"
#include "site/localtarget.h"
#include "site/sharelinkgate.h"
#include "site/sitelimits.h"
#include "web/builtinpages.h"
#include "web/ratelimited.h"

#include <QUrlQuery>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

// Only a path on this same site (never "//other.host", "/\other.host", hidden controls or an absolute URL), and
// never the gate itself.
QString safeNext(const QString &next)
{
    if (!LocalTarget::isLocal(next) || next.startsWith(u"/_gate"_s))
        return u"/"_s;
    return next;
}

} // namespace

PrivateGate::PrivateGate(
    const AccessControl &access, RateLimitService &limits, GateChecks &checks, QList<QHostAddress> trustedProxies)
    : m_access(access)
    , m_limits(limits)
    , m_checks(checks)
    , m_trustedProxies(std::move(trustedProxies))
{
}

QString PrivateGate::targetWithoutToken(const HttpRequest &request)
{
    const qsizetype question = request.target.indexOf('?');
    QString target = QString::fromUtf8(question < 0 ? request.target : request.target.left(question));
    if (request.query.isEmpty())
        return target;
    QUrlQuery query(QString::fromUtf8(request.query));
    query.removeAllQueryItems(u"_token"_s);
    const QString rest = query.query(QUrl::FullyEncoded);
    return rest.isEmpty() ? target : target + u'?' + rest;
}

bool PrivateGate::admit(const HttpRequest &request, const Site &site, ResponseSink &sink)
{
    const Deployment &deployment = site.deployment;
    if (!deployment.isProtected)
        return true;

    const bool secure = m_secureCookies || request.secure;
    const QString token = QUrlQuery(QString::fromUtf8(request.query)).queryItemValue(u"_token"_s, QUrl::FullyDecoded);
    if (!token.isEmpty() && AccessControl::tokenMatches(deployment, token.toUtf8())) {
        sink.send(enter(request, m_access.setCookieHeader(deployment, secure)));
        return false;
    }
    if (!token.isEmpty() && m_links) {
        if (const auto use = m_links->useToken(deployment, token, secure)) {
            sink.send(use->state == ShareLinkState::Open ? enter(request, use->setCookie)
                                                         : linkClosed(deployment, request, use->state));
            return false;
        }
    }
    // Every access cookie sent counts (a sibling site may plant one of the same name for the whole domain).
    const QByteArray cookies = request.header("cookie");
    const QList<QByteArray> values
        = cookieValues(cookies, AccessControl::kSecureCookieName, AccessControl::kMaxCookieValues)
        + cookieValues(cookies, AccessControl::kCookieName, AccessControl::kMaxCookieValues);
    if (m_access.anyCookieGrantsAccess(deployment, values))
        return true;
    const auto linked = m_links ? m_links->checkCookies(deployment, values) : std::nullopt;
    if (linked == ShareLinkState::Open)
        return true;

    if (request.path == QLatin1String(kGatePath) && request.method == "POST" && !deployment.passwordHash.isEmpty()) {
        checkPassword(request, site, sink);
        return false;
    }
    sink.send(
        linked ? linkClosed(deployment, request, *linked) : denied(deployment, targetWithoutToken(request), QString()));
    return false;
}

HttpResponse PrivateGate::enter(const HttpRequest &request, const QByteArray &setCookie)
{
    HttpResponse redirect;
    redirect.status = 302;
    // The request's own target, so "GET //evil.example/?_token=..." must not become "Location: //evil.example/".
    redirect.setHeader("Location", LocalTarget::orRoot(targetWithoutToken(request)).toUtf8());
    redirect.setHeader("Set-Cookie", setCookie);
    redirect.setHeader("Cache-Control", "no-store");
    redirect.setHeader("Referrer-Policy", "no-referrer");
    return redirect;
}

HttpResponse PrivateGate::linkClosed(
    const Deployment &deployment, const HttpRequest &request, ShareLinkState state) const
{
    // With a password the visitor may still come in by it: the gate, saying what became of the link.
    if (!deployment.passwordHash.isEmpty())
        return denied(deployment, targetWithoutToken(request), ShareLinkGate::closed(state).message);
    return ShareLinkGate::closedPage(state);
}

// One password attempt, on its way through the limits and the queue to its check.
struct PrivateGate::Attempt
{
    Deployment deployment;
    QString password;
    QString next;
    bool prefersPage = false; // the gate's own form posted it: refusals are pages
    bool secure = false;
    GateChecks::Client client;
};

void PrivateGate::checkPassword(const HttpRequest &request, const Site &site, ResponseSink &sink)
{
    const FormFields fields = parseUrlEncoded(request.body);
    const auto attempt = std::make_shared<const Attempt>(
        Attempt {site.deployment, formValue(fields, u"password"_s), safeNext(formValue(fields, u"next"_s)),
            BuiltinPages::prefersPage(request), m_secureCookies || request.secure, GateChecks::clientHere(sink)});
    // Every attempt counts, right or wrong, before any work is done for it: against the client's address, and once
    // let through, against the site, so that many addresses together cannot try more than the site's limit. Shared
    // limits are asked on the engine's thread (a database round trip), so a decision may come later and from there.
    const QString client = clientAddress(request, m_trustedProxies).toString();
    m_limits.hitFromAnyThread(
        u"gate:"_s + client, RateLimits::kPasswordAttemptsPerIp, [this, attempt](RateDecision decision) {
            if (!decision.allowed)
                return refuse(*attempt, rateLimited(decision));
            countForSite(attempt);
        });
}

void PrivateGate::countForSite(const std::shared_ptr<const Attempt> &attempt)
{
    m_limits.hitFromAnyThread(u"gate-site:"_s + attempt->deployment.id, RateLimits::kPasswordAttemptsPerSite,
        [this, attempt](RateDecision decision) {
            if (!decision.allowed)
                return refuse(*attempt, rateLimited(decision, u"Too many password attempts on this site"_s));
            queueCheck(*attempt);
        });
}

void PrivateGate::queueCheck(const Attempt &attempt)
{
    const GateChecks::Admission admission = m_checks.submit(attempt.deployment.id, attempt.client, [this, attempt] {
        answer(attempt, PasswordHasher::verify(attempt.deployment.passwordHash, attempt.password));
    });
    if (admission == GateChecks::Admission::Queued)
        return;
    HttpResponse busy = HttpResponse::jsonError(503,
        admission == GateChecks::Admission::SiteFull
            ? u"Too many passwords are being checked for this site; try again in a few seconds"_s
            : u"Too many passwords are being checked; try again in a few seconds"_s);
    busy.setHeader("Retry-After", QByteArray::number(kGateBusyRetrySeconds));
    refuse(attempt, busy);
}

void PrivateGate::answer(const Attempt &attempt, bool correct) const
{
    // What follows is thread-safe, and send() carries the answer to the connection's thread, or drops it when the
    // visitor has left.
    const ResponseSink &sink = attempt.client.sink;
    if (!correct) {
        sink.send(denied(attempt.deployment, attempt.next, u"That password is not right. Try again."_s));
        return;
    }
    HttpResponse response;
    response.status = 303;
    response.setHeader("Location", attempt.next.toUtf8());
    response.setHeader("Set-Cookie", m_access.setCookieHeader(attempt.deployment, attempt.secure));
    response.setHeader("Cache-Control", "no-store");
    sink.send(std::move(response));
}

void PrivateGate::refuse(const Attempt &attempt, const HttpResponse &refusal)
{
    // The gate's own form posts here: the visitor reads why on a page, a script asking for JSON gets JSON.
    attempt.client.sink.send(attempt.prefersPage ? BuiltinPages::refusalPage(refusal, attempt.next) : refusal);
}

HttpResponse PrivateGate::denied(const Deployment &deployment, const QString &next, const QString &message) const
{
    if (deployment.passwordHash.isEmpty())
        return BuiltinPages::response(403, u"private"_s);
    // 401: the page itself is the way to authenticate (a form, not an HTTP scheme).
    return BuiltinPages::response(401, u"password-gate"_s, {{u"next"_s, safeNext(next)}, {u"message"_s, message}});
}

} // namespace berth
