#pragma once

#include "core/error.h"
#include "domain/accounts/accountservice.h"

#include <QObject>
#include <QStringList>

namespace berth {

class AgentClaimRepository;
class ApiKeyRepository;
class Clock;
class Database;
class DeploymentRepository;
class PlanTable;
class UserRepository;

// Agents: identities with no account (plan agent, no email) that a script or an AI agent gets with one request
// (POST /auth/session) and deploys with at once. Each comes with a claim token, kept only as a hash: a signed-in
// user who presents it takes over the agent's deployments, and the agent's keys stop working.
class AgentService final : public QObject
{
    Q_OBJECT

public:
    AgentService(Database &db, UserRepository &users, ApiKeyRepository &keys, AgentClaimRepository &claims,
        DeploymentRepository &deployments, AccountService &accounts, const PlanTable &plans, const Clock &clock,
        QObject *parent = nullptr);
    Q_DISABLE_COPY_MOVE(AgentService)

    struct Session
    {
        User agent;
        AccountService::NewKey key; // shown once
        QString claimToken; // "clm_" + 40 base62; shown once
    };
    // A new agent with its first key and its claim token, in one transaction.
    Result<Session> createSession();
    // How long until one more agent may be made when the instance makes at most `perHour` in any hour: 0 now, else
    // whole seconds (at least 1) until the first agent of the last hour leaves it.
    Result<int> secondsUntilNextAgent(int perHour) const;

    // An agent that holds no deployment a day after it was made, and was not claimed, is removed with its keys:
    // those then answer agentRemovedMessage(). Returns how many went. Run now and then, on the database's thread.
    static constexpr qint64 kIdleAgentLifetimeMs = 24 * 60 * 60 * 1000;
    Result<int> removeIdleAgents();

    struct Claimed
    {
        QString agentId;
        QStringList deploymentIds; // now the claimer's
    };
    // Moves the agent's deployments to the claimer, revokes the agent's keys and spends the token, all or nothing.
    // 404 for an unknown or spent token; 403 when the claimer is an agent, or when the deployments would take the
    // claimer past their plan's limit (nothing moves then: free a slot or raise the plan, then claim again).
    Result<Claimed> claim(const User &claimer, const QString &claimToken);

    static bool looksLikeClaimToken(const QString &token);

Q_SIGNALS:
    void agentClaimed(const QString &agentId, const QString &userId, const QStringList &deploymentIds);

private:
    Database &m_db;
    UserRepository &m_users;
    ApiKeyRepository &m_keys;
    AgentClaimRepository &m_claims;
    DeploymentRepository &m_deployments;
    AccountService &m_accounts;
    const PlanTable &m_plans;
    const Clock &m_clock;
};

} // namespace berth
