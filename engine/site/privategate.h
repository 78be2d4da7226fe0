#pragma once

#include "domain/sharing/sharelinktable.h"
#include "http/requesthandler.h"

#include <QHostAddress>
#include <QList>
#include <memory>

namespace berth {

class AccessControl;
class GateChecks;
class RateLimitService;
class ShareLinkGate;
struct Deployment;
struct Site;

// The door of a private site. A visitor passes with a valid access cookie; a share link
// (?_token=...) sets that cookie and redirects to the same URL without the token (a named link's, through
// ShareLinkGate, sets one that names the link, good while the link is); the password gate
// (POST /_gate) sets it for the right password. Everyone else gets the 403 page, or the gate when
// the site has a password. An attempt counts against the client's address and then against the site, whatever its
// answer; then its check (Argon2id, slow on purpose) waits its site's turn in GateChecks, or is refused with 503 when
// the queues are full. With shared rate limits, the attempt is counted on the engine's thread first (a database round
// trip), never on the serving one.
class PrivateGate final
{
public:
    static constexpr char kGatePath[] = "/_gate";

    PrivateGate(
        const AccessControl &access, RateLimitService &limits, GateChecks &checks, QList<QHostAddress> trustedProxies);
    Q_DISABLE_COPY_MOVE(PrivateGate)

    void setSecureCookies(bool secure) { m_secureCookies = secure; }
    // The site's named share links, which let visitors in as its own share link does; none until set.
    void setShareLinks(ShareLinkGate *links) { m_links = links; }

    // True when the request may go on to the site; otherwise it has been answered.
    bool admit(const HttpRequest &request, const Site &site, ResponseSink &sink);

private:
    struct Attempt;

    void checkPassword(const HttpRequest &request, const Site &site, ResponseSink &sink);
    // From any thread: the attempt counted against its site, then its check queued.
    void countForSite(const std::shared_ptr<const Attempt> &attempt);
    void queueCheck(const Attempt &attempt);
    void answer(const Attempt &attempt, bool correct) const; // on the worker that checked
    // A JSON refusal, or its page for the gate's own form.
    static void refuse(const Attempt &attempt, const HttpResponse &refusal);
    HttpResponse denied(const Deployment &deployment, const QString &next, const QString &message) const;
    static QString targetWithoutToken(const HttpRequest &request);
    // The redirect that sets an access cookie and drops the token from the address.
    static HttpResponse enter(const HttpRequest &request, const QByteArray &setCookie);
    // Why a named link no longer lets the visitor in: its page, or the password gate saying so.
    HttpResponse linkClosed(const Deployment &deployment, const HttpRequest &request, ShareLinkState state) const;

    const AccessControl &m_access;
    RateLimitService &m_limits;
    GateChecks &m_checks;
    QList<QHostAddress> m_trustedProxies;
    bool m_secureCookies = false;
    ShareLinkGate *m_links = nullptr;
};

} // namespace berth
