#include "domain/accounts/agentservice.h"

#include "domain/common/clock.h"
#include "domain/common/randomid.h"
#include "domain/deploy/deploymentservice.h"
#include "domain/plans/plantable.h"
#include "storage/agentclaimrepository.h"
#include "storage/apikeyrepository.h"
#include "storage/database.h"
#include "storage/deploymentrepository.h"
#include "storage/userrepository.h"

#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

constexpr QStringView kClaimPrefix = u"clm_";
constexpr int kClaimTokenLength = 40; // base62 characters: ~238 bits
constexpr qint64 kHourMs = 60 * 60 * 1000;
// A removed agent's key answers "expired" this long; after that it reads as any unknown key.
constexpr qint64 kRemovedKeyMemoryMs = 30 * 24 * kHourMs;

Error unknownToken()
{
    return {Error::Kind::NotFound, u"Claim token not found or already used"_s};
}

// A full plan or an unreachable database as such; any other storage failure in the domain's words.
Error claimFailed(const Error &error)
{
    if (error.code == Error::Code::DeploymentLimitReached)
        return {Error::Kind::Forbidden, DeploymentService::limitReachedMessage(), Error::Code::DeploymentLimitReached};
    if (error.kind == Error::Kind::Unavailable)
        return error;
    return {Error::Kind::Internal, u"Could not claim the agent"_s};
}

} // namespace

AgentService::AgentService(Database &db, UserRepository &users, ApiKeyRepository &keys, AgentClaimRepository &claims,
    DeploymentRepository &deployments, AccountService &accounts, const PlanTable &plans, const Clock &clock,
    QObject *parent)
    : QObject(parent)
    , m_db(db)
    , m_users(users)
    , m_keys(keys)
    , m_claims(claims)
    , m_deployments(deployments)
    , m_accounts(accounts)
    , m_plans(plans)
    , m_clock(clock)
{
}

bool AgentService::looksLikeClaimToken(const QString &token)
{
    static const QRegularExpression kShape(u"^clm_[0-9A-Za-z]{%1}$"_s.arg(kClaimTokenLength));
    return kShape.match(token).hasMatch();
}

Result<AgentService::Session> AgentService::createSession()
{
    Session session;
    session.agent.id = RandomId::make(u"usr_");
    session.agent.plan = u"agent"_s;
    session.agent.createdAt = m_clock.now();
    session.claimToken = RandomId::make(kClaimPrefix, kClaimTokenLength);

    Transaction transaction(m_db.connection());
    if (!transaction.isActive() || !m_users.insert(session.agent))
        return Error {Error::Kind::Internal, u"Could not create the agent"_s};
    auto key = m_accounts.createKey(session.agent.id, u"agent"_s);
    if (!key)
        return key.error();
    session.key = std::move(key).value();
    const AgentClaim claim {
        session.agent.id, AccountService::hashSecret(session.claimToken.toLatin1()), session.agent.createdAt, {}, {}};
    if (!m_claims.insert(claim) || !transaction.commit())
        return Error {Error::Kind::Internal, u"Could not create the agent"_s};
    return session;
}

Result<int> AgentService::secondsUntilNextAgent(int perHour) const
{
    const QDateTime now = m_clock.now();
    if (perHour <= 0)
        return int(kHourMs / 1000);
    const Result<AgentClaimRepository::Made> made = m_claims.madeSince(now.addMSecs(-kHourMs));
    if (!made)
        return Error {Error::Kind::Unavailable, AccountService::databaseUnavailableMessage()};
    if (made.value().count < perHour)
        return 0;
    const qint64 waitMs = now.msecsTo(made.value().first.addMSecs(kHourMs));
    return int(qMax<qint64>(1, (waitMs + 999) / 1000));
}

Result<int> AgentService::removeIdleAgents()
{
    const QDateTime now = m_clock.now();
    return m_claims.removeIdle(now.addMSecs(-kIdleAgentLifetimeMs), now, now.addMSecs(-kRemovedKeyMemoryMs));
}

Result<AgentService::Claimed> AgentService::claim(const User &claimer, const QString &claimToken)
{
    if (claimer.plan == u"agent")
        return Error {Error::Kind::Forbidden, u"Sign in with an account to claim an agent"_s};
    if (!looksLikeClaimToken(claimToken))
        return unknownToken();
    const auto claim = m_claims.findByTokenHash(AccountService::hashSecret(claimToken.toLatin1()));
    if (!claim || claim->claimedAt.isValid())
        return unknownToken();

    const QDateTime now = m_clock.now();
    Transaction transaction(m_db.connection());
    if (const Result<void> begun = transaction.begun(); !begun)
        return claimFailed(begun.error());
    // Counted and moved in this transaction, with the claimer's and the agent's rows locked as a create locks its
    // owner's: a deploy through another server cannot take the claimer past the plan meanwhile.
    const Result<QStringList> moved
        = m_deployments.reassignAll(claim->agentId, claimer.id, m_plans.limits(claimer.plan).deployments);
    if (!moved)
        return claimFailed(moved.error());
    const Claimed claimed {claim->agentId, moved.value()};
    if (!m_keys.revokeAllForUser(claim->agentId, now))
        return Error {Error::Kind::Internal, u"Could not claim the agent"_s};
    if (!m_claims.markClaimed(claim->agentId, claimer.id, now))
        return unknownToken(); // spent meanwhile (another process)
    if (!transaction.commit())
        return Error {Error::Kind::Internal, u"Could not claim the agent"_s};
    Q_EMIT agentClaimed(claimed.agentId, claimer.id, claimed.deploymentIds);
    return claimed;
}

} // namespace berth
