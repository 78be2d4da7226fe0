#pragma once

#include "core/error.h"
#include "storage/sharelink.h"

#include <QList>

namespace berth {

class Database;

// Named share links of private sites. Used only on the thread that opened the Database.
class ShareLinkRepository final
{
    Q_DISABLE_COPY_MOVE(ShareLinkRepository)
public:
    // Revoked links kept per site, so that their tokens and cookies are still refused with the reason; older ones go.
    static constexpr int kKeptRevokedPerSite = 100;

    explicit ShareLinkRepository(Database &db);

    // Inserts unless the deployment already has maxLivePerSite links that are not revoked (Forbidden), counted in the
    // same transaction.
    Result<void> insert(const ShareLink &link, int maxLivePerSite);
    Result<QList<ShareLink>> listForDeployment(const QString &deploymentId) const; // oldest first
    Result<QList<ShareLink>> listAll() const;
    // NotFound when the deployment has no such link; revoking a revoked link again changes nothing.
    Result<ShareLink> revoke(const QString &deploymentId, const QString &id);
    // Adds each link's opens to its row, in one transaction (a link gone meanwhile is skipped).
    Result<void> addOpens(const QList<ShareLinkOpens> &opens);

private:
    Database &m_db;
};

} // namespace berth
