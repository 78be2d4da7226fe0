#pragma once

#include "storage/deployment.h"

#include <QByteArray>
#include <QList>

namespace berth {

class Clock;

// Who may see a private site. A share token opens it; so does the password gate. Either way the
// visitor gets a cookie for that site's host alone, signed with the instance's secret and bound to
// the deployment's current protection: turning protection off and on (a new token) or changing the
// password invalidates every cookie issued before.
//
// All sites share one parent domain, so a sibling site's script can set a cookie of the same name for the whole
// domain. It cannot spoil a visit: every value sent is tried, not only the first. Over HTTPS the cookie is
// "__Host-berth_access", which browsers accept only host-only and Secure, so no sibling can set one at all.
class AccessControl final
{
public:
    static constexpr char kCookieName[] = "berth_access";
    static constexpr char kSecureCookieName[] = "__Host-berth_access";
    // Values tried per cookie name in one request (each costs an HMAC): enough for a visitor's own cookie behind a
    // few planted ones, bounded against a request that carries thousands.
    static constexpr qsizetype kMaxCookieValues = 8;
    static constexpr qint64 kCookieLifetimeSeconds = 7 * 24 * 3600;

    explicit AccessControl(const Clock &clock);
    Q_DISABLE_COPY_MOVE(AccessControl)

    // The instance's signing key (kept in the database so cookies survive a restart); set once at open.
    void setSecret(QByteArray secret) { m_secret = std::move(secret); }

    static bool tokenMatches(const Deployment &deployment, const QByteArray &token); // constant time
    QByteArray issueCookie(const Deployment &deployment) const; // the cookie's value
    bool cookieGrantsAccess(const Deployment &deployment, const QByteArray &value) const;
    // Whether any of the values (of either cookie name, as read from the request) grants access.
    bool anyCookieGrantsAccess(const Deployment &deployment, const QList<QByteArray> &values) const;
    // The Set-Cookie header value for a site: host-only, HttpOnly, SameSite=Lax; over https Secure, and named with the
    // "__Host-" prefix.
    QByteArray setCookieHeader(const Deployment &deployment, bool secure) const;

    // A named share link's cookie names its link ("<link id>.<expiry>.<signature>", bound to the site and the link),
    // so that every request can ask whether the link is still good: it outlives the link's own expiry, so that a
    // visitor is told the link expired rather than that the site is private.
    QByteArray setLinkCookieHeader(const Deployment &deployment, const QString &linkId, bool secure) const;
    // The link a cookie value names when its signature is this site's and it has not run out; empty otherwise (the
    // site's own cookie included).
    QString linkOfCookie(const Deployment &deployment, const QByteArray &value) const;

private:
    QByteArray signature(const Deployment &deployment, qint64 expiry) const;
    QByteArray linkSignature(const Deployment &deployment, const QByteArray &linkId, qint64 expiry) const;
    static QByteArray cookieHeader(const QByteArray &value, qint64 lifetimeSeconds, bool secure);

    QByteArray m_secret;
    const Clock &m_clock;
};

} // namespace berth
