#include "domain/sharing/sharelinkservice.h"

#include "domain/common/clock.h"
#include "domain/common/randomid.h"
#include "domain/deploy/deploymentservice.h"
#include "domain/deploy/expiryrules.h"
#include "domain/siterules/siteaddresses.h"
#include "storage/sharelinkrepository.h"

using namespace Qt::StringLiterals;

namespace berth {

ShareLinkService::ShareLinkService(ShareLinkRepository &repository, const DeploymentService &deployments,
    ShareLinkTable &table, const SiteAddresses &addresses, const Clock &clock)
    : m_repository(repository)
    , m_deployments(deployments)
    , m_table(table)
    , m_addresses(addresses)
    , m_clock(clock)
{
}

Result<void> ShareLinkService::load()
{
    const Result<QList<ShareLink>> links = m_repository.listAll();
    if (!links)
        return links.error();
    for (const ShareLink &link : links.value())
        m_table.put(link);
    return {};
}

void ShareLinkService::reload(const QString &deploymentId)
{
    const Result<QList<ShareLink>> links = m_repository.listForDeployment(deploymentId);
    if (!links) {
        qWarning().noquote() << "cannot read share links:" << links.error().message;
        return;
    }
    for (const ShareLink &link : links.value())
        m_table.put(link);
}

Result<ShareLinkView> ShareLinkService::create(
    const User &owner, const QString &deploymentId, const ShareLinkRequest &request)
{
    const Result<Deployment> deployment = m_deployments.get(owner, deploymentId);
    if (!deployment)
        return deployment.error();
    if (request.label.size() > kMaxLabelLength)
        return Error {Error::Kind::BadRequest, u"label must be at most %1 characters"_s.arg(kMaxLabelLength)};
    if (request.maxOpens < 0 || request.maxOpens > kMaxOpensLimit)
        return Error {Error::Kind::BadRequest, u"max_opens must be a whole number from 1 to %1"_s.arg(kMaxOpensLimit)};
    const QDateTime now = m_clock.now();
    // The same rules as a site's own expiry: in the future, at most ten years ahead.
    DeployRequest timing;
    timing.expiresAt = request.expiresAt;
    timing.expiresIn = request.expiresIn;
    if (const Result<void> settled = ExpiryRules::settle(timing, now); !settled)
        return settled.error();

    const QByteArray token = RandomId::token();
    ShareLink link;
    link.id = RandomId::make(u"lnk_");
    link.deploymentId = deploymentId;
    link.label = request.label;
    link.tokenHash = shareLinkTokenHash(token);
    link.createdAt = now;
    if (timing.expiresAt && timing.expiresAt->has_value())
        link.expiresAt = **timing.expiresAt;
    link.maxOpens = request.maxOpens;
    if (const Result<void> inserted = m_repository.insert(link, kMaxLinksPerSite); !inserted)
        return inserted.error();
    m_table.put(link);
    ShareLinkView view = viewOf(link);
    view.url = m_addresses.shareUrl(deployment.value().slug, token);
    return view;
}

Result<QList<ShareLinkView>> ShareLinkService::list(const User &owner, const QString &deploymentId) const
{
    if (const Result<Deployment> deployment = m_deployments.get(owner, deploymentId); !deployment)
        return deployment.error();
    const Result<QList<ShareLink>> links = m_repository.listForDeployment(deploymentId);
    if (!links)
        return links.error();
    QList<ShareLinkView> views;
    for (const ShareLink &link : links.value())
        views.append(viewOf(link));
    return views;
}

Result<ShareLinkView> ShareLinkService::revoke(const User &owner, const QString &deploymentId, const QString &linkId)
{
    if (const Result<Deployment> deployment = m_deployments.get(owner, deploymentId); !deployment)
        return deployment.error();
    const Result<ShareLink> revoked = m_repository.revoke(deploymentId, linkId);
    if (!revoked)
        return revoked.error();
    m_table.revoke(linkId);
    return viewOf(revoked.value());
}

ShareLinkView ShareLinkService::viewOf(const ShareLink &stored) const
{
    ShareLinkView view {stored, ShareLinkState::Open, {}};
    // The serving threads' counts are ahead of the row by what the next flush writes.
    if (const auto live = m_table.find(stored.id); live && live->deploymentId == stored.deploymentId) {
        view.link.opens = qMax(stored.opens, live->opens());
        if (live->lastOpenedAt() > stored.lastOpenedAt)
            view.link.lastOpenedAt = live->lastOpenedAt();
    }
    if (view.link.revoked)
        view.state = ShareLinkState::Revoked;
    else if (view.link.expiresAt.isValid() && view.link.expiresAt <= m_clock.now())
        view.state = ShareLinkState::Expired;
    else if (view.link.maxOpens > 0 && view.link.opens >= view.link.maxOpens)
        view.state = ShareLinkState::Exhausted;
    return view;
}

void ShareLinkService::flush()
{
    const QList<ShareLinkOpens> opens = m_table.takeUnwrittenOpens();
    if (opens.isEmpty())
        return;
    if (const Result<void> written = m_repository.addOpens(opens); !written) {
        qWarning().noquote() << "cannot count share link opens:" << written.error().message;
        m_table.giveBack(opens);
    }
}

void ShareLinkService::forget(const QString &deploymentId)
{
    m_table.removeDeployment(deploymentId);
}

} // namespace berth
