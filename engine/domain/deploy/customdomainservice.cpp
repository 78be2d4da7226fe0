#include "domain/deploy/customdomainservice.h"

#include "domain/common/clock.h"
#include "domain/deploy/deploymentlimits.h"
#include "domain/siterules/customdomainname.h"
#include "domain/siterules/customdomaintable.h"
#include "storage/domainrepository.h"

using namespace Qt::StringLiterals;

namespace berth {

CustomDomainService::CustomDomainService(DomainRepository &repository, SettingsRepository &settings,
    CustomDomainTable &table, const SiteAddresses &addresses, const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_repository(repository)
    , m_policy(settings)
    , m_table(table)
    , m_addresses(addresses)
    , m_clock(clock)
{
}

Result<QStringList> CustomDomainService::check(
    const User &owner, const QString &deploymentId, const QStringList &names) const
{
    if (names.isEmpty())
        return QStringList();
    if (!owner.isOwner && m_policy.who() == DomainPolicy::Who::Owner)
        return Error {Error::Kind::Forbidden, ownerOnlyMessage()};
    QStringList normalised;
    for (const QString &name : names) {
        Result<QString> ascii = CustomDomainName::normalise(name, m_addresses);
        if (!ascii)
            return ascii.error();
        if (!normalised.contains(ascii.value()))
            normalised.append(ascii.value());
    }
    if (normalised.size() > kMaxDomainsPerSite)
        return Error {Error::Kind::BadRequest, DeploymentLimits::tooManyDomains()};
    for (const QString &name : std::as_const(normalised)) {
        const QString holder = m_repository.holderOf(name);
        if (!holder.isEmpty() && holder != deploymentId)
            return Error {Error::Kind::Conflict, inUseMessage()};
    }
    normalised.sort();
    return normalised;
}

QString CustomDomainService::ownerOnlyMessage()
{
    return u"Custom domains are for the instance owner's sites on this server"_s;
}

QString CustomDomainService::inUseMessage()
{
    return u"Domain already in use"_s;
}

Result<void> CustomDomainService::assign(const QString &deploymentId, const QStringList &names)
{
    const Result<void> replaced = m_repository.replace(deploymentId, names, m_clock.now());
    publish();
    return replaced;
}

QStringList CustomDomainService::namesOf(const QString &deploymentId) const
{
    return m_repository.namesOf(deploymentId);
}

DomainCertificate CustomDomainService::certificate(const QString &name) const
{
    return m_certificates ? m_certificates(name) : DomainCertificate {};
}

QStringList CustomDomainService::names() const
{
    return m_table.names();
}

void CustomDomainService::publish()
{
    const QStringList before = m_table.names();
    m_table.replace(m_repository.slugsByName());
    if (const QStringList after = m_table.names(); after != before)
        Q_EMIT namesChanged(after);
}

} // namespace berth
