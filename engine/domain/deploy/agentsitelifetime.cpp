#include "domain/deploy/agentsitelifetime.h"

#include "domain/deploy/expiryrules.h"
#include "storage/settingsrepository.h"

using namespace Qt::StringLiterals;

namespace berth {

namespace {

const QString kSetting = u"agent_site_lifetime_seconds"_s;

} // namespace

AgentSiteLifetime::AgentSiteLifetime(SettingsRepository &settings)
    : m_settings(settings)
{
}

std::optional<qint64> AgentSiteLifetime::seconds() const
{
    bool ok = false;
    const qint64 value = m_settings.value(kSetting).toLongLong(&ok);
    if (!ok || value < 1 || value > ExpiryRules::kMaxLifetimeSeconds)
        return std::nullopt;
    return value;
}

Result<void> AgentSiteLifetime::set(std::optional<qint64> seconds)
{
    if (!seconds)
        return m_settings.remove(kSetting);
    if (*seconds < 1 || *seconds > ExpiryRules::kMaxLifetimeSeconds)
        return Error {Error::Kind::BadRequest, u"An agent's site lives from 1 second to ten years"_s};
    return m_settings.setValue(kSetting, QString::number(*seconds));
}

} // namespace berth
