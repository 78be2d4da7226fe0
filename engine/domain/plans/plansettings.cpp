#include "domain/plans/plansettings.h"

#include "storage/settingsrepository.h"

#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
const QString kPlanLimits = u"plan_limits"_s;
} // namespace

PlanSettings::PlanSettings(SettingsRepository &settings, PlanTable &plans)
    : m_settings(settings)
    , m_plans(plans)
{
}

Result<void> PlanSettings::load()
{
    const QString stored = m_settings.value(kPlanLimits);
    if (stored.isEmpty())
        return {};
    const QJsonDocument document = QJsonDocument::fromJson(stored.toUtf8());
    const auto table = document.isObject() ? PlanTable::fromJson(document.object()) : std::nullopt;
    if (!table) {
        return Error {Error::Kind::Internal,
            u"The stored plan limits are not valid and are ignored; set them again with 'berthd plans'"_s};
    }
    m_plans = *table;
    return {};
}

Result<PlanLimits> PlanSettings::setLimits(const QString &plan, const PlanLimits &limits)
{
    if (!PlanTable::isPlan(plan))
        return Error {Error::Kind::BadRequest, u"plan must be one of agent, free, pro"_s};
    if (limits.deployments < 0 || limits.submissionsPerDay < 0 || limits.submissionsStored < 0
        || limits.countersPerDeployment < 0)
        return Error {Error::Kind::BadRequest, u"limits cannot be negative"_s};
    const PlanLimits previous = m_plans.limits(plan);
    m_plans.setLimits(plan, limits);
    if (!store()) {
        m_plans.setLimits(plan, previous);
        return Error {Error::Kind::Internal, u"Could not store the plan limits"_s};
    }
    return limits;
}

Result<PlanLimits> PlanSettings::resetLimits(const QString &plan)
{
    return setLimits(plan, PlanTable().limits(plan));
}

bool PlanSettings::store()
{
    return m_settings
        .setValue(kPlanLimits, QString::fromUtf8(QJsonDocument(m_plans.toJson()).toJson(QJsonDocument::Compact)))
        .ok();
}

} // namespace berth
