#pragma once

#include "core/error.h"
#include "domain/plans/plantable.h"

namespace berth {

class SettingsRepository;

// The owner's changes to the plan table, kept in the settings ("plan_limits", the table as JSON). Changes go to
// the one PlanTable every service reads, so they apply at once in this process; another process (a running
// berthd while `berthd plans set` runs) reads them at its next start.
class PlanSettings final
{
public:
    PlanSettings(SettingsRepository &settings, PlanTable &plans);
    Q_DISABLE_COPY_MOVE(PlanSettings)

    // Applies the stored table; false (with the reason) when it is not a valid table.
    Result<void> load();

    const PlanTable &table() const { return m_plans; }
    Result<PlanLimits> setLimits(const QString &plan, const PlanLimits &limits); // 400 for an unknown plan
    Result<PlanLimits> resetLimits(const QString &plan); // back to Berth's defaults

private:
    bool store();

    SettingsRepository &m_settings;
    PlanTable &m_plans;
};

} // namespace berth
