#pragma once

#include "domain/sharing/sharelinktable.h"
#include "http/httpresponse.h"

#include <QList>
#include <optional>

namespace berth {

class AccessControl;
class Clock;
struct Deployment;

// The private gate's part for named share links, on the serving threads: a link's token lets a visitor in (and counts
// an open) while the link is good; the cookie it sets names the link, which is looked up in memory on every request,
// so that a revoke or an expiry ends the visit at once.
class ShareLinkGate final
{
public:
    ShareLinkGate(ShareLinkTable &links, const AccessControl &access, const Clock &clock);
    Q_DISABLE_COPY_MOVE(ShareLinkGate)

    struct TokenUse
    {
        ShareLinkState state = ShareLinkState::Open;
        QByteArray setCookie; // when Open: the Set-Cookie header value that names the link
    };
    // The use of a token that names one of this site's links; nothing for any other token.
    std::optional<TokenUse> useToken(const Deployment &deployment, const QString &token, bool secure);

    // What the access cookies sent say of this site's links: Open when one of them names a good link, else why the
    // last one naming a link does not let in; nothing when none names one.
    std::optional<ShareLinkState> checkCookies(const Deployment &deployment, const QList<QByteArray> &values) const;

    // Why a link no longer opens the site, in words: a title and a sentence.
    struct Closed
    {
        QString title;
        QString message;
    };
    static Closed closed(ShareLinkState state);
    // The 403 page that says it.
    static HttpResponse closedPage(ShareLinkState state);

private:
    ShareLinkTable &m_links;
    const AccessControl &m_access;
    const Clock &m_clock;
};

} // namespace berth
