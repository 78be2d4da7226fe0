#pragma once

#include "core/error.h"
#include "storage/counter.h"
#include "storage/user.h"

#include <QObject>

namespace berth {

class Clock;
class CounterRepository;
class DeploymentRepository;
class PlanTable;
class UserRepository;
struct Deployment;

// Named counters of a site: read and incremented by visitors through /_counter, listed and deleted by the
// owner. A counter exists from its first increment; the owner's plan caps how many a deployment has.
class CounterService final : public QObject
{
    Q_OBJECT

public:
    static constexpr int kMaxNameLength = 64;

    CounterService(CounterRepository &counters, DeploymentRepository &deployments, UserRepository &users,
        const PlanTable &plans, const Clock &clock, QObject *parent = nullptr);

    // 1 to kMaxNameLength characters of [A-Za-z0-9_-].
    static bool isValidName(const QString &name);

    // The current value; 0 for a counter never incremented (which is not created by reading).
    Result<qint64> value(const Deployment &deployment, const QString &name) const;
    // Adds 1 and returns the new value. Forbidden ("Counter limit reached") when this would create a counter
    // beyond the plan's count per deployment.
    Result<qint64> increment(const Deployment &deployment, const QString &name);

    Result<QList<Counter>> list(const User &owner, const QString &deploymentId) const;
    Result<Counter> remove(const User &owner, const QString &deploymentId, const QString &name);

Q_SIGNALS:
    void counterChanged(const QString &deploymentId, const QString &name, qint64 value);
    void counterRemoved(const QString &deploymentId, const QString &name);

private:
    CounterRepository &m_counters;
    DeploymentRepository &m_deployments;
    UserRepository &m_users;
    const PlanTable &m_plans;
    const Clock &m_clock;
};

} // namespace berth
