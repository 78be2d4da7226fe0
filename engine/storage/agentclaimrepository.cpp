#include "storage/agentclaimrepository.h"

#include "storage/database.h"
#include "storage/sqlhelpers.h"
#include "storage/transaction.h"

#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace berth {

AgentClaimRepository::AgentClaimRepository(Database &db)
    : m_db(db)
{
}

Result<void> AgentClaimRepository::insert(const AgentClaim &claim)
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"INSERT INTO agent_claims (agent_id, token_hash, created_at, claimed_at, claimed_by) "
                  "VALUES (?, ?, ?, ?, ?)"_s);
    query.addBindValue(claim.agentId);
    query.addBindValue(sql::text(claim.tokenHash));
    query.addBindValue(sql::timeOrNull(claim.createdAt));
    query.addBindValue(sql::timeOrNull(claim.claimedAt));
    query.addBindValue(sql::textOrNull(claim.claimedBy));
    return sql::exec(query);
}

std::optional<AgentClaim> AgentClaimRepository::findByTokenHash(const QByteArray &tokenHash) const
{
    if (tokenHash.isEmpty())
        return std::nullopt;
    return findWhere(u"token_hash"_s, sql::text(tokenHash));
}

std::optional<AgentClaim> AgentClaimRepository::findByAgent(const QString &agentId) const
{
    return findWhere(u"agent_id"_s, agentId);
}

Result<void> AgentClaimRepository::markClaimed(const QString &agentId, const QString &claimedBy, const QDateTime &when)
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"UPDATE agent_claims SET claimed_at = ?, claimed_by = ? "
                  "WHERE agent_id = ? AND claimed_at IS NULL"_s);
    query.addBindValue(sql::timeOrNull(when));
    query.addBindValue(claimedBy);
    query.addBindValue(agentId);
    return sql::execAffecting(query, Error::Code::Other, u"Claim token not found or already used"_s);
}

Result<AgentClaimRepository::Made> AgentClaimRepository::madeSince(const QDateTime &since) const
{
    QSqlQuery query(m_db.connection());
    query.setForwardOnly(true);
    query.prepare(u"SELECT COUNT(*), MIN(created_at) FROM agent_claims WHERE created_at > ?"_s);
    query.addBindValue(sql::timeOrNull(since));
    if (const auto done = sql::exec(query); !done)
        return done.error();
    if (!query.next())
        return sql::loggedFailure(query, "counting recent agents");
    return Made {query.value(0).toInt(), sql::time(query, 1)};
}

Result<int> AgentClaimRepository::removeIdle(
    const QDateTime &madeBefore, const QDateTime &now, const QDateTime &forgetBefore)
{
    // An agent: plan agent, no email, not the owner, with an unspent claim; idle: nothing deployed.
    const QString idle = uR"(SELECT u.id FROM users u JOIN agent_claims c ON c.agent_id = u.id
                              WHERE u.plan = 'agent' AND u.email IS NULL AND u.is_owner = 0
                                AND c.claimed_at IS NULL AND c.created_at <= ?
                                AND NOT EXISTS (SELECT 1 FROM deployments d WHERE d.user_id = u.id))"_s;
    Transaction transaction(m_db.connection());
    if (const Result<void> begun = transaction.begun(); !begun)
        return begun.error();
    QSqlQuery keep(m_db.connection());
    keep.prepare(
        u"INSERT INTO removed_agent_keys (key_hash, removed_at) SELECT key_hash, CAST(? AS TEXT) FROM api_keys "
        "WHERE user_id IN ("_s
        + idle + u") ON CONFLICT (key_hash) DO NOTHING"_s); // another server's sweep may have kept them
    keep.addBindValue(sql::timeOrNull(now));
    keep.addBindValue(sql::timeOrNull(madeBefore));
    if (const auto done = sql::exec(keep); !done)
        return done.error();
    QSqlQuery remove(m_db.connection());
    remove.prepare(u"DELETE FROM users WHERE id IN ("_s + idle + u")"_s);
    remove.addBindValue(sql::timeOrNull(madeBefore));
    if (const auto done = sql::exec(remove); !done)
        return done.error();
    const int removed = remove.numRowsAffected();
    QSqlQuery forget(m_db.connection());
    forget.prepare(u"DELETE FROM removed_agent_keys WHERE removed_at < ?"_s);
    forget.addBindValue(sql::timeOrNull(forgetBefore));
    if (const auto done = sql::exec(forget); !done)
        return done.error();
    if (const Result<void> committed = transaction.commit(); !committed)
        return committed.error();
    return removed;
}

std::optional<AgentClaim> AgentClaimRepository::findWhere(const QString &column, const QString &value) const
{
    QSqlQuery query(m_db.connection());
    query.setForwardOnly(true);
    // column is one of the fixed names above; the value is always bound.
    query.prepare(u"SELECT agent_id, token_hash, created_at, claimed_at, claimed_by FROM agent_claims WHERE "_s + column
        + u" = ?"_s);
    query.addBindValue(value);
    if (const auto done = sql::exec(query); !done) {
        sql::warn("finding an agent claim", done.error());
        return std::nullopt;
    }
    if (!query.next())
        return std::nullopt;
    AgentClaim claim;
    claim.agentId = query.value(0).toString();
    claim.tokenHash = sql::bytes(query, 1);
    claim.createdAt = sql::time(query, 2);
    claim.claimedAt = sql::time(query, 3);
    claim.claimedBy = sql::nullableString(query, 4);
    return claim;
}

} // namespace berth
