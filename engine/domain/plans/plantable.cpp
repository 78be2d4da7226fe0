#include "domain/plans/plantable.h"

#include <QJsonValue>
#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

const QString kAgent = u"agent"_s;
const QString kFree = u"free"_s;
const QString kPro = u"pro"_s;

// The JSON names of PlanLimits' fields, bound to the members so that toJson and fromJson cannot drift apart.
struct Field
{
    QLatin1String name;
    int PlanLimits::*member;
};
const Field kFields[] = {
    {"deployments"_L1, &PlanLimits::deployments},
    {"submissions_per_day"_L1, &PlanLimits::submissionsPerDay},
    {"submissions_stored"_L1, &PlanLimits::submissionsStored},
    {"counters_per_deployment"_L1, &PlanLimits::countersPerDeployment},
};

std::optional<int> toCount(const QJsonValue &value)
{
    if (!value.isDouble())
        return std::nullopt;
    const double number = value.toDouble();
    if (number < 0 || number > std::numeric_limits<int>::max() || std::floor(number) != number)
        return std::nullopt;
    return int(number);
}

} // namespace

PlanTable::PlanTable()
{
    m_limits.insert(kAgent, {5, 50, 200, 10});
    m_limits.insert(kFree, {5, 250, 500, 50});
    m_limits.insert(kPro, {50, 1000, 10000, 100});
}

QStringList PlanTable::plans()
{
    return {kAgent, kFree, kPro};
}

bool PlanTable::isPlan(const QString &plan)
{
    return plan == kAgent || plan == kFree || plan == kPro;
}

PlanLimits PlanTable::limits(const QString &plan) const
{
    return m_limits.value(isPlan(plan) ? plan : kFree);
}

void PlanTable::setLimits(const QString &plan, const PlanLimits &limits)
{
    if (isPlan(plan))
        m_limits.insert(plan, limits);
}

QJsonObject PlanTable::toJson() const
{
    QJsonObject json;
    for (const QString &plan : plans()) {
        const PlanLimits planLimits = limits(plan);
        QJsonObject object;
        for (const Field &field : kFields)
            object.insert(field.name, planLimits.*field.member);
        json.insert(plan, object);
    }
    return json;
}

std::optional<PlanTable> PlanTable::fromJson(const QJsonObject &json)
{
    PlanTable table;
    for (auto it = json.constBegin(); it != json.constEnd(); ++it) {
        if (!isPlan(it.key()) || !it.value().isObject())
            return std::nullopt;
        const QJsonObject object = it.value().toObject();
        PlanLimits planLimits = table.limits(it.key());
        int known = 0;
        for (const Field &field : kFields) {
            const auto value = object.constFind(field.name);
            if (value == object.constEnd())
                continue;
            const std::optional<int> count = toCount(*value);
            if (!count)
                return std::nullopt;
            planLimits.*field.member = *count;
            ++known;
        }
        if (known != object.size())
            return std::nullopt; // an unknown field
        table.setLimits(it.key(), planLimits);
    }
    return table;
}

} // namespace berth
