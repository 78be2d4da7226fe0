#include "site/sharelinkgate.h"

#include "domain/common/clock.h"
#include "domain/siterules/accesscontrol.h"
#include "web/builtinpages.h"

using namespace Qt::StringLiterals;

namespace berth {

ShareLinkGate::ShareLinkGate(ShareLinkTable &links, const AccessControl &access, const Clock &clock)
    : m_links(links)
    , m_access(access)
    , m_clock(clock)
{
}

std::optional<ShareLinkGate::TokenUse> ShareLinkGate::useToken(
    const Deployment &deployment, const QString &token, bool secure)
{
    const auto link = m_links.findByToken(shareLinkTokenHash(token.toUtf8()));
    if (!link || link->deploymentId != deployment.id)
        return std::nullopt;
    TokenUse use;
    use.state = m_links.open(*link, m_clock.now());
    if (use.state == ShareLinkState::Open)
        use.setCookie = m_access.setLinkCookieHeader(deployment, link->id, secure);
    return use;
}

std::optional<ShareLinkState> ShareLinkGate::checkCookies(
    const Deployment &deployment, const QList<QByteArray> &values) const
{
    std::optional<ShareLinkState> closed;
    for (const QByteArray &value : values) {
        const QString id = m_access.linkOfCookie(deployment, value);
        if (id.isEmpty())
            continue;
        const auto link = m_links.find(id);
        // Signed for this site but no longer held: its revoked row was pruned, or it went with an earlier site.
        const ShareLinkState state = link && link->deploymentId == deployment.id ? link->stateForVisitor(m_clock.now())
                                                                                 : ShareLinkState::Revoked;
        if (state == ShareLinkState::Open)
            return state;
        closed = state;
    }
    return closed;
}

ShareLinkGate::Closed ShareLinkGate::closed(ShareLinkState state)
{
    switch (state) {
    case ShareLinkState::Expired:
        return {u"This share link has expired"_s, u"This share link has expired."_s};
    case ShareLinkState::Exhausted:
        return {u"This share link is used up"_s, u"This share link has been opened as many times as it may be."_s};
    case ShareLinkState::Revoked:
    case ShareLinkState::Open:
        break;
    }
    return {u"This share link was revoked"_s, u"This share link was revoked by the site's owner."_s};
}

HttpResponse ShareLinkGate::closedPage(ShareLinkState state)
{
    const Closed words = closed(state);
    HttpResponse page = BuiltinPages::response(403, u"link-closed"_s,
        {{u"title"_s, words.title}, {u"message"_s, words.message + u" Ask the site's owner for a new one."_s}});
    page.setHeader("Cache-Control", "no-store");
    return page;
}

} // namespace berth
