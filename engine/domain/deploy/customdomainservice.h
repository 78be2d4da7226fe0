#pragma once

#include "core/error.h"
#include "domain/deploy/domainpolicy.h"
#include "storage/user.h"

#include <QDateTime>
#include <QObject>
#include <QStringList>
#include <functional>

namespace berth {

class Clock;
class CustomDomainTable;
class DomainRepository;
class SettingsRepository;
class SiteAddresses;

// The state of a custom domain's certificate as answers show it. "none" until a certificate source (TLS files, ACME)
// is attached through CustomDomainService::setCertificates.
struct DomainCertificate
{
    QString status = QStringLiteral("none"); // none, pending, active or failed
    QDateTime expiresAt = {}; // UTC; invalid: unknown
    QString error = {}; // the last failure, in words fit for the owner
};

// Custom domains: host names that serve a site besides its own address. Checks a site's new list (names, the owner's
// policy, the limit, names other sites hold), stores it, and publishes every name with its site's slug into the
// CustomDomainTable the serving threads route by. Republishes after any change to a site (publish(), connected to
// SiteLoader's signals), so that a rename moves the names along and a delete or an expiry frees them. On the thread
// that owns the database connection.
class CustomDomainService final : public QObject
{
    Q_OBJECT

public:
    CustomDomainService(DomainRepository &repository, SettingsRepository &settings, CustomDomainTable &table,
        const SiteAddresses &addresses, const Clock &clock, QObject *parent = nullptr);

    DomainPolicy &policy() { return m_policy; }
    static QString ownerOnlyMessage(); // the 403 of a user's names while the policy keeps them to the owner
    static QString inUseMessage(); // the 409 of a name another site holds

    // The names normalised (CustomDomainName), without repeats, for the site deploymentId (empty: a site not yet
    // made) of owner: Forbidden when the policy keeps domains to the owner's sites, BadRequest for a refused name
    // or too many, Conflict ("Domain already in use") for a name another site holds. An empty list always passes.
    Result<QStringList> check(const User &owner, const QString &deploymentId, const QStringList &names) const;
    // Makes checked names the site's whole list, then publishes.
    Result<void> assign(const QString &deploymentId, const QStringList &names);
    QStringList namesOf(const QString &deploymentId) const; // sorted

    // The seam for certificates: whoever knows them (the TLS files, an ACME client) answers per name; without one,
    // every name's state is "none".
    using CertificateSource = std::function<DomainCertificate(const QString &name)>;
    void setCertificates(CertificateSource source) { m_certificates = std::move(source); }
    DomainCertificate certificate(const QString &name) const;

    // Every custom domain of the instance, sorted: the names that need certificates (for SNI and ACME). Changes are
    // announced by namesChanged, on this object's thread.
    QStringList names() const;
    // Reads every name and its site's slug from the database into the table; emits namesChanged when the set of names
    // changed. At start, and after any change to a site.
    void publish();

Q_SIGNALS:
    void namesChanged(const QStringList &names);

private:
    DomainRepository &m_repository;
    DomainPolicy m_policy;
    CustomDomainTable &m_table;
    const SiteAddresses &m_addresses;
    const Clock &m_clock;
    CertificateSource m_certificates;
};

} // namespace berth
