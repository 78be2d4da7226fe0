#pragma once

#include <QHash>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <optional>

namespace berth {

// What one plan allows.
struct PlanLimits
{
    int deployments = 0;
    int submissionsPerDay = 0;
    int submissionsStored = 0;
    int countersPerDeployment = 0;

    friend bool operator==(const PlanLimits &a, const PlanLimits &b)
    {
        return a.deployments == b.deployments && a.submissionsPerDay == b.submissionsPerDay
            && a.submissionsStored == b.submissionsStored && a.countersPerDeployment == b.countersPerDeployment;
    }
    friend bool operator!=(const PlanLimits &a, const PlanLimits &b) { return !(a == b); }
};

// The limits of each plan: Berth's defaults (docs/configuration.md), adjustable by the operator (stored as JSON in
// the settings).
class PlanTable final
{
public:
    // agent {5, 50, 200, 10}, free {5, 250, 500, 50}, pro {50, 1000, 10000, 100}
    PlanTable();

    static QStringList plans(); // {"agent", "free", "pro"}
    static bool isPlan(const QString &plan);

    // An unknown plan gets free's limits.
    PlanLimits limits(const QString &plan) const;
    // Ignored for an unknown plan.
    void setLimits(const QString &plan, const PlanLimits &limits);

    // {"free": {"deployments": 5, "submissions_per_day": 250, "submissions_stored": 500,
    //           "counters_per_deployment": 50}, ...}
    QJsonObject toJson() const;
    // Plans and fields left out keep their defaults; an unknown plan or field, or a value that is not an
    // integer from 0 to INT_MAX, makes it nullopt so that a typo in the settings is not silently ignored.
    static std::optional<PlanTable> fromJson(const QJsonObject &json);

private:
    QHash<QString, PlanLimits> m_limits;
};

} // namespace berth
