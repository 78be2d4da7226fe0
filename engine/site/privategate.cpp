#include "site/privategate.h"

#include "domain/common/passwordhasher.h"
#include "domain/ratelimit/ratelimitservice.h"
#include "domain/siterules/accesscontrol.h"
#include "domain/siterules/sitetable.h"
#include "http/clientaddress.h"
#include "http/cookieheader.h"
#include "http/formencoding.h"
#include "site/localtarget.h"
#include "web/builtinpages.h"
#include "web/ratelimited.h"

#include <QThreadPool>
#include <QUrlQuery>
#include <QtConcurrent>

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
    const AccessControl &access, RateLimitService &limits, QThreadPool &workers, QList<QHostAddress> trustedProxies)
    : m_access(access)
    , m_limits(limits)
    , m_workers(workers)
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

    const QString token = QUrlQuery(QString::fromUtf8(request.query)).queryItemValue(u"_token"_s, QUrl::FullyDecoded);
    if (!token.isEmpty() && AccessControl::tokenMatches(deployment, token.toUtf8())) {
        HttpResponse redirect;
        redirect.status = 302;
        // The request's own target, so "GET //evil.example/?_token=..." must not become "Location: //evil.example/".
        redirect.setHeader("Location", LocalTarget::orRoot(targetWithoutToken(request)).toUtf8());
        redirect.setHeader("Set-Cookie", m_access.setCookieHeader(deployment, m_secureCookies || request.secure));
        redirect.setHeader("Cache-Control", "no-store");
        redirect.setHeader("Referrer-Policy", "no-referrer");
        sink.send(std::move(redirect));
        return false;
    }
    if (m_access.cookieGrantsAccess(deployment, cookieValue(request.header("cookie"), AccessControl::kCookieName)))
        return true;

    if (request.path == QLatin1String(kGatePath) && request.method == "POST" && !deployment.passwordHash.isEmpty()) {
        checkPassword(request, site, sink);
        return false;
    }
    sink.send(denied(deployment, targetWithoutToken(request), QString()));
    return false;
}

void PrivateGate::checkPassword(const HttpRequest &request, const Site &site, ResponseSink &sink)
{
    const FormFields fields = parseUrlEncoded(request.body);
    const QString next = safeNext(formValue(fields, u"next"_s));
    const QString password = formValue(fields, u"password"_s);
    const bool prefersPage = BuiltinPages::prefersPage(request);
    const bool secure = m_secureCookies || request.secure;
    // Every attempt counts, right or wrong, before any work is done for it. Shared limits are asked on the engine's
    // thread (a database round trip), so the decision may come later and from there.
    const QString client = clientAddress(request, m_trustedProxies).toString();
    m_limits.hitFromAnyThread(u"gate:"_s + client, RateLimits::kPasswordAttemptsPerIp,
        [this, sink, deployment = site.deployment, next, password, prefersPage, secure](RateDecision decision) {
            if (!decision.allowed) {
                // The gate's own form posts here: the visitor reads why on a page, a script asking for JSON gets JSON.
                const HttpResponse refused = rateLimited(decision);
                sink.send(prefersPage ? BuiltinPages::refusalPage(refused, next) : refused);
                return;
            }
            verifyPassword(deployment, password, next, secure, sink);
        });
}

void PrivateGate::verifyPassword(
    const Deployment &deployment, const QString &password, const QString &next, bool secure, const ResponseSink &sink)
{
    QtConcurrent::run(&m_workers, [hash = deployment.passwordHash, password] {
        return PasswordHasher::verify(hash, password);
    }).then([this, sink, deployment, next, secure](bool correct) {
        // On the worker that checked: what follows is thread-safe, and send() carries the answer to the connection's
        // thread, or drops it when the visitor has left.
        if (!correct) {
            sink.send(denied(deployment, next, u"That password is not right. Try again."_s));
            return;
        }
        HttpResponse response;
        response.status = 303;
        response.setHeader("Location", next.toUtf8());
        response.setHeader("Set-Cookie", m_access.setCookieHeader(deployment, secure));
        response.setHeader("Cache-Control", "no-store");
        sink.send(std::move(response));
    });
}

HttpResponse PrivateGate::denied(const Deployment &deployment, const QString &next, const QString &message) const
{
    if (deployment.passwordHash.isEmpty())
        return BuiltinPages::response(403, u"private"_s);
    // 401: the page itself is the way to authenticate (a form, not an HTTP scheme).
    return BuiltinPages::response(401, u"password-gate"_s, {{u"next"_s, safeNext(next)}, {u"message"_s, message}});
}

} // namespace berth
