#pragma once

#include "core/error.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>
#include <optional>

namespace berth {

class Database;

// The claim token of an agent, stored as the hex SHA-256 of the token.
struct AgentClaim
{
    QString agentId;
    QByteArray tokenHash;
    QDateTime createdAt;
    QDateTime claimedAt; // null until spent
    QString claimedBy; // the user who claimed it; null until spent (or when that user is gone)
};

// Agents' claim tokens. Used only on the thread that opened the Database.
class AgentClaimRepository final
{
    Q_DISABLE_COPY_MOVE(AgentClaimRepository)
public:
    explicit AgentClaimRepository(Database &db);

    Result<void> insert(const AgentClaim &claim);
    std::optional<AgentClaim> findByTokenHash(const QByteArray &tokenHash) const;
    std::optional<AgentClaim> findByAgent(const QString &agentId) const;
    // Spends the token: NotFound when there is no such agent or it was spent already.
    Result<void> markClaimed(const QString &agentId, const QString &claimedBy, const QDateTime &when);

    // How many agents were made after `since`, and when the first of them was (null when none).
    struct Made
    {
        int count = 0;
        QDateTime first;
    };
    Result<Made> madeSince(const QDateTime &since) const;
    // Removes, in one transaction, every unclaimed agent made at or before `madeBefore` that holds no deployment,
    // with its keys and claim; each key's hash is kept in removed_agent_keys (at `now`), and the hashes kept since
    // before `forgetBefore` are dropped. The number of agents removed.
    Result<int> removeIdle(const QDateTime &madeBefore, const QDateTime &now, const QDateTime &forgetBefore);

private:
    std::optional<AgentClaim> findWhere(const QString &column, const QString &value) const;

    Database &m_db;
};

} // namespace berth
