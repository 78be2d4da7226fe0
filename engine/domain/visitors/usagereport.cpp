#include "domain/visitors/usagereport.h"

#include "domain/common/clock.h"
#include "storage/counterrepository.h"
#include "storage/deploymentrepository.h"
#include "storage/submissionrepository.h"

namespace berth {

UsageReport::UsageReport(DeploymentRepository &deployments, SubmissionRepository &submissions,
    CounterRepository &counters, const PlanTable &plans, const Clock &clock)
    : m_deployments(deployments)
    , m_submissions(submissions)
    , m_counters(counters)
    , m_plans(plans)
    , m_clock(clock)
{
}

UsageReport::Usage UsageReport::of(const User &user) const
{
    Usage usage;
    usage.limits = m_plans.limits(user.plan);
    // The same day key SubmissionService counts under (the UTC date).
    const QString today = m_clock.now().toUTC().date().toString(Qt::ISODate);
    const QList<Deployment> deployments = m_deployments.listForUser(user.id);
    usage.deployments = int(deployments.size());
    for (const Deployment &deployment : deployments) {
        usage.sites.append({deployment.id, deployment.slug, m_submissions.countOnDay(deployment.id, today),
            m_submissions.count(deployment.id), int(m_counters.list(deployment.id).size())});
    }
    return usage;
}

} // namespace berth
