#include "storage/agentclaimrepository.h"

#include "storage/database.h"
#include "storage/sqlhelpers.h"

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
