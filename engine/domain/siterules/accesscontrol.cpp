#include "domain/siterules/accesscontrol.h"

#include "domain/common/clock.h"

#include <QMessageAuthenticationCode>
#include <algorithm>

namespace berth {

namespace {
constexpr auto kEncoding = QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals;

bool constantTimeEquals(const QByteArray &a, const QByteArray &b)
{
    if (a.size() != b.size())
        return false;
    unsigned char difference = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        difference |= static_cast<unsigned char>(a.at(i) ^ b.at(i));
    return difference == 0;
}
} // namespace

AccessControl::AccessControl(const Clock &clock)
    : m_clock(clock)
{
}

bool AccessControl::tokenMatches(const Deployment &deployment, const QByteArray &token)
{
    return deployment.isProtected && !deployment.shareToken.isEmpty()
        && constantTimeEquals(deployment.shareToken, token);
}

QByteArray AccessControl::signature(const Deployment &deployment, qint64 expiry) const
{
    // Bound to the token and the password hash: changing either retires every cookie.
    const QByteArray message = deployment.id.toUtf8() + '\n' + deployment.shareToken + '\n' + deployment.passwordHash
        + '\n' + QByteArray::number(expiry);
    return QMessageAuthenticationCode::hash(message, m_secret, QCryptographicHash::Sha256).toBase64(kEncoding);
}

QByteArray AccessControl::issueCookie(const Deployment &deployment) const
{
    const qint64 expiry = m_clock.now().toSecsSinceEpoch() + kCookieLifetimeSeconds;
    return QByteArray::number(expiry) + '.' + signature(deployment, expiry);
}

bool AccessControl::cookieGrantsAccess(const Deployment &deployment, const QByteArray &value) const
{
    if (!deployment.isProtected)
        return true;
    const qsizetype dot = value.indexOf('.');
    if (dot <= 0)
        return false;
    bool ok = false;
    const qint64 expiry = value.left(dot).toLongLong(&ok);
    if (!ok || expiry <= m_clock.now().toSecsSinceEpoch())
        return false;
    return constantTimeEquals(value.mid(dot + 1), signature(deployment, expiry));
}

bool AccessControl::anyCookieGrantsAccess(const Deployment &deployment, const QList<QByteArray> &values) const
{
    if (!deployment.isProtected)
        return true;
    return std::any_of(
        values.cbegin(), values.cend(), [&](const QByteArray &value) { return cookieGrantsAccess(deployment, value); });
}

QByteArray AccessControl::setCookieHeader(const Deployment &deployment, bool secure) const
{
    return cookieHeader(issueCookie(deployment), kCookieLifetimeSeconds, secure);
}

QByteArray AccessControl::cookieHeader(const QByteArray &value, qint64 lifetimeSeconds, bool secure)
{
    // "__Host-" needs Secure, Path=/ and no Domain, which this header always has over https.
    QByteArray header = QByteArray(secure ? kSecureCookieName : kCookieName) + '=' + value
        + "; Path=/; Max-Age=" + QByteArray::number(lifetimeSeconds) + "; HttpOnly; SameSite=Lax";
    if (secure)
        header += "; Secure";
    return header;
}

QByteArray AccessControl::linkSignature(const Deployment &deployment, const QByteArray &linkId, qint64 expiry) const
{
    // Unlike the site's own cookie it is not bound to the token or the password: the link itself is checked on every
    // request, and it outlives a change of either.
    const QByteArray message = "link\n" + deployment.id.toUtf8() + '\n' + linkId + '\n' + QByteArray::number(expiry);
    return QMessageAuthenticationCode::hash(message, m_secret, QCryptographicHash::Sha256).toBase64(kEncoding);
}

QByteArray AccessControl::setLinkCookieHeader(const Deployment &deployment, const QString &linkId, bool secure) const
{
    const qint64 expiry = m_clock.now().toSecsSinceEpoch() + kCookieLifetimeSeconds;
    const QByteArray id = linkId.toUtf8();
    return cookieHeader(id + '.' + QByteArray::number(expiry) + '.' + linkSignature(deployment, id, expiry),
        kCookieLifetimeSeconds, secure);
}

QString AccessControl::linkOfCookie(const Deployment &deployment, const QByteArray &value) const
{
    const qsizetype first = value.indexOf('.');
    const qsizetype second = first < 0 ? -1 : value.indexOf('.', first + 1);
    if (first <= 0 || second < 0)
        return {};
    bool ok = false;
    const qint64 expiry = value.mid(first + 1, second - first - 1).toLongLong(&ok);
    if (!ok || expiry <= m_clock.now().toSecsSinceEpoch())
        return {};
    const QByteArray linkId = value.left(first);
    if (!constantTimeEquals(value.mid(second + 1), linkSignature(deployment, linkId, expiry)))
        return {};
    return QString::fromUtf8(linkId);
}

} // namespace berth
