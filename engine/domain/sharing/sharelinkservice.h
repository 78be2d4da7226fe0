#pragma once

#include "core/error.h"
#include "domain/sharing/sharelinktable.h"
#include "storage/sharelink.h"

#include <QList>
#include <optional>

namespace berth {

class Clock;
class DeploymentService;
class ShareLinkRepository;
class SiteAddresses;
struct User;

// What the owner asks of a new link; every field may be left out.
struct ShareLinkRequest
{
    QString label;
    // expires_at (an empty inner value: never) or expires_in seconds, as ExpiryRules reads them.
    std::optional<std::optional<QDateTime>> expiresAt;
    std::optional<qint64> expiresIn;
    int maxOpens = 0; // 0: no limit
};

// A link as its owner sees it: its opens as counted so far, in memory too, and why it no longer opens, if it does not.
struct ShareLinkView
{
    ShareLink link;
    ShareLinkState state = ShareLinkState::Open;
    QString url; // only when just made: the address with its token, shown once
};

// The owner's named share links: made, listed and revoked on the engine's thread, each change written to the database
// first and then to the ShareLinkTable the serving threads read, so that it takes effect at the next request. Opens
// are counted there and written here, in batches (flush).
class ShareLinkService final
{
public:
    static constexpr int kMaxLinksPerSite = 100; // not revoked
    static constexpr int kMaxLabelLength = 200;
    static constexpr int kMaxOpensLimit = 1000000;

    ShareLinkService(ShareLinkRepository &repository, const DeploymentService &deployments, ShareLinkTable &table,
        const SiteAddresses &addresses, const Clock &clock);
    Q_DISABLE_COPY_MOVE(ShareLinkService)

    // Every stored link into the table (at start).
    Result<void> load();
    // A deployment's links read again: another server of a PostgreSQL cluster may have made or revoked one.
    void reload(const QString &deploymentId);

    // NotFound unless owner owns the deployment; BadRequest for a label too long, a bad expiry or max_opens;
    // Forbidden beyond kMaxLinksPerSite.
    Result<ShareLinkView> create(const User &owner, const QString &deploymentId, const ShareLinkRequest &request);
    Result<QList<ShareLinkView>> list(const User &owner, const QString &deploymentId) const; // oldest first
    Result<ShareLinkView> revoke(const User &owner, const QString &deploymentId, const QString &linkId);

    // The opens counted since the last flush, added to their rows; on a failed write they wait for the next one.
    void flush();
    // A deployment that went away: its links leave the table (their rows went with it).
    void forget(const QString &deploymentId);

private:
    ShareLinkView viewOf(const ShareLink &stored) const;

    ShareLinkRepository &m_repository;
    const DeploymentService &m_deployments;
    ShareLinkTable &m_table;
    const SiteAddresses &m_addresses;
    const Clock &m_clock;
};

} // namespace berth
