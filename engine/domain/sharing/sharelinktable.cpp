#include "domain/sharing/sharelinktable.h"

#include <QCryptographicHash>

namespace berth {

QByteArray shareLinkTokenHash(const QByteArray &token)
{
    return QCryptographicHash::hash(token, QCryptographicHash::Sha256).toHex();
}

LiveShareLink::LiveShareLink(const ShareLink &stored)
    : id(stored.id)
    , deploymentId(stored.deploymentId)
    , tokenHash(stored.tokenHash)
    , expiresAt(stored.expiresAt)
    , maxOpens(stored.maxOpens)
    , m_revoked(stored.revoked)
    , m_opens(stored.opens)
    , m_lastOpenedMs(stored.lastOpenedAt.isValid() ? stored.lastOpenedAt.toMSecsSinceEpoch() : 0)
{
}

ShareLinkState LiveShareLink::stateForVisitor(const QDateTime &now) const
{
    if (isRevoked())
        return ShareLinkState::Revoked;
    if (expiresAt.isValid() && expiresAt <= now)
        return ShareLinkState::Expired;
    return ShareLinkState::Open;
}

QDateTime LiveShareLink::lastOpenedAt() const
{
    const qint64 ms = m_lastOpenedMs.load(std::memory_order_relaxed);
    return ms == 0 ? QDateTime() : QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
}

std::shared_ptr<LiveShareLink> ShareLinkTable::find(const QString &id) const
{
    QReadLocker locker(&m_lock);
    return m_byId.value(id);
}

std::shared_ptr<LiveShareLink> ShareLinkTable::findByToken(const QByteArray &tokenHash) const
{
    QReadLocker locker(&m_lock);
    return m_byTokenHash.value(tokenHash);
}

void ShareLinkTable::put(const ShareLink &stored)
{
    auto link = std::make_shared<LiveShareLink>(stored);
    QWriteLocker locker(&m_lock);
    if (const auto previous = m_byId.value(stored.id)) {
        // The row read again (another server's change): what was counted here and not yet written stays counted.
        link->m_opens.store(qMax(stored.opens, previous->opens()));
        link->m_lastOpenedMs.store(qMax(link->m_lastOpenedMs.load(), previous->m_lastOpenedMs.load()));
        link->m_unwrittenOpens.store(previous->m_unwrittenOpens.exchange(0));
        link->m_revoked.store(stored.revoked || previous->isRevoked());
        m_byTokenHash.remove(previous->tokenHash);
    }
    m_byId.insert(link->id, link);
    m_byTokenHash.insert(link->tokenHash, link);
}

void ShareLinkTable::revoke(const QString &id)
{
    if (const auto link = find(id))
        link->m_revoked.store(true, std::memory_order_release);
}

void ShareLinkTable::removeDeployment(const QString &deploymentId)
{
    QWriteLocker locker(&m_lock);
    for (auto it = m_byId.begin(); it != m_byId.end();) {
        if (it.value()->deploymentId == deploymentId) {
            m_byTokenHash.remove(it.value()->tokenHash);
            it = m_byId.erase(it);
        } else {
            ++it;
        }
    }
}

ShareLinkState ShareLinkTable::open(LiveShareLink &link, const QDateTime &now)
{
    if (const ShareLinkState state = link.stateForVisitor(now); state != ShareLinkState::Open)
        return state;
    // Taken one at a time: two visitors racing for the last open cannot both have it.
    qint64 opens = link.m_opens.load(std::memory_order_relaxed);
    do {
        if (link.maxOpens > 0 && opens >= link.maxOpens)
            return ShareLinkState::Exhausted;
    } while (!link.m_opens.compare_exchange_weak(opens, opens + 1, std::memory_order_relaxed));
    const qint64 nowMs = now.toMSecsSinceEpoch();
    qint64 last = link.m_lastOpenedMs.load(std::memory_order_relaxed);
    while (last < nowMs && !link.m_lastOpenedMs.compare_exchange_weak(last, nowMs, std::memory_order_relaxed)) { }
    link.m_unwrittenOpens.fetch_add(1, std::memory_order_release);
    m_anyUnwritten.store(true, std::memory_order_release);
    return ShareLinkState::Open;
}

QList<ShareLinkOpens> ShareLinkTable::takeUnwrittenOpens()
{
    QList<ShareLinkOpens> taken;
    if (!m_anyUnwritten.exchange(false, std::memory_order_acq_rel))
        return taken;
    QReadLocker locker(&m_lock);
    for (const auto &link : std::as_const(m_byId)) {
        if (const qint64 opens = link->m_unwrittenOpens.exchange(0, std::memory_order_acq_rel); opens > 0)
            taken.append({link->id, opens, link->lastOpenedAt()});
    }
    return taken;
}

void ShareLinkTable::giveBack(const QList<ShareLinkOpens> &opens)
{
    QReadLocker locker(&m_lock);
    for (const ShareLinkOpens &entry : opens) {
        if (const auto link = m_byId.value(entry.id)) {
            link->m_unwrittenOpens.fetch_add(entry.opens, std::memory_order_release);
            m_anyUnwritten.store(true, std::memory_order_release);
        }
    }
}

} // namespace berth
