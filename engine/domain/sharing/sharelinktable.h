#pragma once

#include "storage/sharelink.h"

#include <QHash>
#include <QList>
#include <QReadWriteLock>
#include <atomic>
#include <memory>

namespace berth {

// Why a link lets a visitor in or not.
enum class ShareLinkState
{
    Open,
    Expired,
    Exhausted, // its opens are used up: its token lets nobody new in
    Revoked,
};

// How a link's token is kept and looked up: its SHA-256, in hex.
QByteArray shareLinkTokenHash(const QByteArray &token);

// One named link as the serving threads see it: its fixed fields, and its opens counted in place, without a lock.
class LiveShareLink final
{
public:
    explicit LiveShareLink(const ShareLink &stored);
    Q_DISABLE_COPY_MOVE(LiveShareLink)

    const QString id;
    const QString deploymentId;
    const QByteArray tokenHash;
    const QDateTime expiresAt; // invalid: never
    const int maxOpens; // 0: no limit

    // For a visitor already let in by it (its cookie): revoked and expired end the visit, used-up opens do not.
    ShareLinkState stateForVisitor(const QDateTime &now) const;
    bool isRevoked() const { return m_revoked.load(std::memory_order_acquire); }
    qint64 opens() const { return m_opens.load(std::memory_order_relaxed); }
    QDateTime lastOpenedAt() const; // invalid: never opened

private:
    friend class ShareLinkTable;

    std::atomic<bool> m_revoked;
    std::atomic<qint64> m_opens;
    std::atomic<qint64> m_lastOpenedMs; // 0: never
    std::atomic<qint64> m_unwrittenOpens {0}; // counted here, not yet added to the database
};

// Every named link of every live site, in memory: what the private gate reads on the serving threads, so that no
// visitor waits for the database. The engine's thread puts and revokes links; the serving threads count opens in
// place, and the engine's thread takes those counts to write them in batches. Readers hold the lock only for a
// lookup.
class ShareLinkTable final
{
public:
    ShareLinkTable() = default;
    Q_DISABLE_COPY_MOVE(ShareLinkTable)

    std::shared_ptr<LiveShareLink> find(const QString &id) const;
    std::shared_ptr<LiveShareLink> findByToken(const QByteArray &tokenHash) const;
    // Replaces any entry of the same id, keeping the opens it counted and a revoke.
    void put(const ShareLink &stored);
    void revoke(const QString &id);
    void removeDeployment(const QString &deploymentId);

    // A use of the link's token, from any thread: counts one open and says Open, unless the link is revoked,
    // expired or used up.
    ShareLinkState open(LiveShareLink &link, const QDateTime &now);

    // On the engine's thread: the opens counted since the last call, link by link.
    QList<ShareLinkOpens> takeUnwrittenOpens();
    // What the engine's thread gave back when its write failed, to be tried again with the next batch.
    void giveBack(const QList<ShareLinkOpens> &opens);

private:
    mutable QReadWriteLock m_lock;
    QHash<QString, std::shared_ptr<LiveShareLink>> m_byId;
    QHash<QByteArray, std::shared_ptr<LiveShareLink>> m_byTokenHash;
    std::atomic<bool> m_anyUnwritten {false};
};

} // namespace berth
