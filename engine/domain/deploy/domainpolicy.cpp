#include "domain/deploy/domainpolicy.h"

#include "storage/settingsrepository.h"

using namespace Qt::StringLiterals;

namespace berth {

namespace {

const QString kSetting = u"custom_domains_policy"_s;

} // namespace

DomainPolicy::DomainPolicy(SettingsRepository &settings)
    : m_settings(settings)
{
}

DomainPolicy::Who DomainPolicy::who() const
{
    return parse(m_settings.value(kSetting)).value_or(Who::Owner);
}

Result<void> DomainPolicy::set(Who who)
{
    return m_settings.setValue(kSetting, name(who));
}

std::optional<DomainPolicy::Who> DomainPolicy::parse(const QString &name)
{
    if (name == u"owner")
        return Who::Owner;
    if (name == u"everyone")
        return Who::Everyone;
    return std::nullopt;
}

QString DomainPolicy::name(Who who)
{
    return who == Who::Everyone ? u"everyone"_s : u"owner"_s;
}

} // namespace berth
