#pragma once

#include "domain/plans/plantable.h"
#include "storage/user.h"

#include <QList>
#include <QString>

namespace berth {

class Clock;
class CounterRepository;
class DeploymentRepository;
class PlanTable;
class SubmissionRepository;

// What a user holds against each limit of their plan: GET /auth/me and the MCP whoami tool answer with it.
// Read-only; counts come from the same repositories the limits are enforced on, so they agree with the refusals.
class UsageReport final
{
public:
    struct Site
    {
        QString id;
        QString slug;
        int submissionsToday = 0; // counted against PlanLimits::submissionsPerDay (the UTC day)
        int submissionsStored = 0;
        int counters = 0;
    };
    struct Usage
    {
        PlanLimits limits;
        int deployments = 0;
        QList<Site> sites; // most recently updated first
    };

    UsageReport(DeploymentRepository &deployments, SubmissionRepository &submissions, CounterRepository &counters,
        const PlanTable &plans, const Clock &clock);
    Q_DISABLE_COPY_MOVE(UsageReport)

    Usage of(const User &user) const;

private:
    DeploymentRepository &m_deployments;
    SubmissionRepository &m_submissions;
    CounterRepository &m_counters;
    const PlanTable &m_plans;
    const Clock &m_clock;
};

} // namespace berth
