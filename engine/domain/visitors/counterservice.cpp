#include "domain/visitors/counterservice.h"

#include "domain/common/clock.h"
#include "domain/visitors/deploymentowner.h"
#include "domain/visitors/storagefailure.h"
#include "storage/counterrepository.h"
#include "storage/deployment.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
Error invalidName()
{
    return {Error::Kind::BadRequest,
        u"Invalid counter name: use 1 to %1 letters, digits, hyphens or underscores"_s.arg(
            CounterService::kMaxNameLength)};
}
} // namespace

CounterService::CounterService(CounterRepository &counters, DeploymentRepository &deployments, UserRepository &users,
    const PlanTable &plans, const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_counters(counters)
    , m_deployments(deployments)
    , m_users(users)
    , m_plans(plans)
    , m_clock(clock)
{
}

bool CounterService::isValidName(const QString &name)
{
    if (name.isEmpty() || name.size() > kMaxNameLength)
        return false;
    return std::all_of(name.cbegin(), name.cend(), [](QChar c) {
        return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9') || c == u'-'
            || c == u'_';
    });
}

Result<qint64> CounterService::value(const Deployment &deployment, const QString &name) const
{
    if (!isValidName(name))
        return invalidName();
    const auto counter = m_counters.find(deployment.id, name);
    return counter ? counter->value : 0;
}

Result<qint64> CounterService::increment(const Deployment &deployment, const QString &name)
{
    if (!isValidName(name))
        return invalidName();
    const PlanLimits tier = DeploymentOwner::tierOf(m_users, m_plans, deployment);
    const Result<qint64> incremented
        = m_counters.increment(deployment.id, name, tier.countersPerDeployment, m_clock.now());
    if (!incremented) // a limit reached (403 + CounterLimitReached), a full disk (507), or a failure (500)
        return storageFailure(incremented.error(), u"Could not update the counter"_s);
    const qint64 value = incremented.value();
    Q_EMIT counterChanged(deployment.id, name, value);
    return value;
}

Result<QList<Counter>> CounterService::list(const User &owner, const QString &deploymentId) const
{
    if (const Result<void> owned = DeploymentOwner::check(m_deployments, owner, deploymentId); !owned)
        return owned.error();
    return m_counters.list(deploymentId);
}

Result<Counter> CounterService::remove(const User &owner, const QString &deploymentId, const QString &name)
{
    if (const Result<void> owned = DeploymentOwner::check(m_deployments, owner, deploymentId); !owned)
        return owned.error();
    const auto counter = m_counters.find(deploymentId, name);
    if (!counter)
        return Error {Error::Kind::NotFound, u"Counter not found"_s, Error::Code::CounterNotFound};
    if (!m_counters.remove(deploymentId, name))
        return Error {Error::Kind::Internal, u"Could not delete the counter"_s};
    Q_EMIT counterRemoved(deploymentId, name);
    return *counter;
}

} // namespace berth
