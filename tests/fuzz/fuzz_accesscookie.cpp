// The private-site cookie verifier. The input is either a cookie value as sent (even first byte) or a genuine
// cookie edited by the input (odd: second byte an offset, the rest spliced in there), so that the fuzzer works near
// valid signatures. Whatever it finds, a cookie may only grant access when it carries the true signature for the
// expiry it names, that expiry is in the future, and it never opens a deployment whose protection has changed. A named
// share link's cookie (second bit of the first byte: the genuine one edited) may only name a link when it carries that
// link's true signature for a future expiry, for this deployment alone; no value is both kinds.
#include "fuzzcheck.h"

#include <domain/common/clock.h>
#include <domain/siterules/accesscontrol.h>

using namespace berth;
using berth::fuzz::check;

namespace {

const QDateTime kNow = QDateTime::fromSecsSinceEpoch(1795000000, Qt::UTC);

Deployment protectedDeployment(const QByteArray &shareToken)
{
    Deployment deployment;
    deployment.id = QStringLiteral("dep_fuzz");
    deployment.slug = QStringLiteral("fuzz-site");
    deployment.isProtected = true;
    deployment.shareToken = shareToken;
    deployment.passwordHash = "$argon2id$fuzz";
    return deployment;
}

// The signature part of the genuine cookie for an expiry, from an AccessControl whose clock is set to issue it.
QByteArray genuineSignature(const Deployment &deployment, qint64 expiry)
{
    ManualClock clock(QDateTime::fromSecsSinceEpoch(expiry - AccessControl::kCookieLifetimeSeconds, Qt::UTC));
    AccessControl access(clock);
    access.setSecret("fuzz-secret-0123456789abcdef");
    const QByteArray cookie = access.issueCookie(deployment);
    return cookie.mid(cookie.indexOf('.') + 1);
}

// The value of a genuine link cookie (what its Set-Cookie header carries), issued at `now`.
QByteArray linkCookie(const Deployment &deployment, const QString &linkId, const QDateTime &now)
{
    ManualClock clock(now);
    AccessControl access(clock);
    access.setSecret("fuzz-secret-0123456789abcdef");
    const QByteArray header = access.setLinkCookieHeader(deployment, linkId, false);
    const qsizetype start = header.indexOf('=') + 1;
    return header.mid(start, header.indexOf(';') - start);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size < 2)
        return 0;
    static const ManualClock clock(kNow);
    static AccessControl *const access = [] {
        auto *control = new AccessControl(clock);
        control->setSecret("fuzz-secret-0123456789abcdef");
        return control;
    }();
    static const Deployment deployment = protectedDeployment("token-one");
    static const Deployment reprotected = protectedDeployment("token-two");

    QByteArray value;
    if (data[0] & 1) {
        value
            = data[0] & 2 ? linkCookie(deployment, QStringLiteral("lnk_fuzz"), kNow) : access->issueCookie(deployment);
        const qsizetype at = qMin<qsizetype>(data[1], value.size());
        const QByteArray edit = fuzz::bytes(data + 2, size - 2);
        value = value.first(at) + edit + value.sliced(qMin(value.size(), at + edit.size()));
    } else {
        value = fuzz::bytes(data + 1, size - 1);
    }

    if (const QString link = access->linkOfCookie(deployment, value); !link.isEmpty()) {
        check(!access->cookieGrantsAccess(deployment, value));
        check(access->linkOfCookie(reprotected, value) == link); // bound to the site and the link, not the token
        Deployment other = deployment;
        other.id = QStringLiteral("dep_other");
        check(access->linkOfCookie(other, value).isEmpty());
        const QList<QByteArray> parts = value.split('.');
        check(parts.size() == 3 && QString::fromUtf8(parts.at(0)) == link);
        bool ok = false;
        const qint64 expiry = parts.at(1).toLongLong(&ok);
        check(ok && expiry > kNow.toSecsSinceEpoch());
        const QDateTime issued = QDateTime::fromSecsSinceEpoch(expiry - AccessControl::kCookieLifetimeSeconds, Qt::UTC);
        check(parts.at(2) == linkCookie(deployment, link, issued).split('.').value(2));
        return 0;
    }
    if (!access->cookieGrantsAccess(deployment, value))
        return 0;
    const qsizetype dot = value.indexOf('.');
    check(dot > 0);
    bool ok = false;
    const qint64 expiry = value.left(dot).toLongLong(&ok);
    check(ok && expiry > kNow.toSecsSinceEpoch());
    check(value.mid(dot + 1) == genuineSignature(deployment, expiry));
    check(!access->cookieGrantsAccess(reprotected, value));
    return 0;
}
