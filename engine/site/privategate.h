#pragma once

#include "http/requesthandler.h"

#include <QHostAddress>
#include <QList>

QT_BEGIN_NAMESPACE
class QThreadPool;
QT_END_NAMESPACE

namespace berth {

class AccessControl;
class RateLimitService;
struct Deployment;
struct Site;

// The door of a private site. A visitor passes with a valid access cookie; a share link
// (?_token=...) sets that cookie and redirects to the same URL without the token; the password gate
// (POST /_gate) sets it for the right password. Everyone else gets the 403 page, or the gate when
// the site has a password. Password checks (Argon2id, slow on purpose) run on the worker pool; with shared rate
// limits, the attempt is counted on the engine's thread first (a database round trip), never on the serving one.
class PrivateGate final
{
public:
    static constexpr char kGatePath[] = "/_gate";

    PrivateGate(const AccessControl &access, RateLimitService &limits, QThreadPool &workers,
        QList<QHostAddress> trustedProxies);
    Q_DISABLE_COPY_MOVE(PrivateGate)

    void setSecureCookies(bool secure) { m_secureCookies = secure; }

    // True when the request may go on to the site; otherwise it has been answered.
    bool admit(const HttpRequest &request, const Site &site, ResponseSink &sink);

private:
    void checkPassword(const HttpRequest &request, const Site &site, ResponseSink &sink);
    // From any thread: hashes on the worker pool, answers through sink.
    void verifyPassword(const Deployment &deployment, const QString &password, const QString &next, bool secure,
        const ResponseSink &sink);
    HttpResponse denied(const Deployment &deployment, const QString &next, const QString &message) const;
    static QString targetWithoutToken(const HttpRequest &request);

    const AccessControl &m_access;
    RateLimitService &m_limits;
    QThreadPool &m_workers;
    QList<QHostAddress> m_trustedProxies;
    bool m_secureCookies = false;
};

} // namespace berth
