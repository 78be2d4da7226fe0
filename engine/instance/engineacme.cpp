// The Engine's certificates by ACME: which names are ordered, and where the certificates go.
#include "instance/engine.h"
#include "instance/engineparts.h"

#include <QUrl>

using namespace Qt::StringLiterals;

namespace berth {

void Engine::prepareAcme()
{
    if (!m_settings.acme.enabled() || m_parts->acme)
        return;
    m_parts->acme = std::make_unique<AcmeManager>(m_settings.acme, m_settings.dataDir, m_parts->clock);
    // Servers on one PostgreSQL database: one orders a name, all serve it, any answers the CA's challenge.
    if (Result<void> shared = m_parts->acme->shareThrough(m_parts->database); !shared)
        qWarning().noquote() << "acme: not shared with the other servers of the database:" << shared.error().message;
    m_parts->dispatcher.setAcmeChallenges(&m_parts->acme->challenges());
}

void Engine::startAcme()
{
    AcmeManager *acme = m_parts->acme.get();
    if (!acme)
        return;
    // New handshakes for the name get it at once; connections already encrypted keep theirs.
    connect(acme, &AcmeManager::certificateReady, this,
        [this](const QString &name, const QByteArray &chainPem, const QByteArray &keyPem) {
            const Result<TlsCredentials> credentials = TlsCredentials::fromPem(chainPem, keyPem);
            const Result<void> installed
                = credentials ? m_parts->tlsCertificates.install(name, credentials.value()) : credentials.error();
            if (!installed)
                qWarning().noquote() << "acme: cannot serve the certificate for" << name << installed.error().message;
        });
    // TLS-ALPN-01: the challenge's certificate to acme-tls/1 handshakes for the name, while the order waits.
    connect(acme, &AcmeManager::tlsChallengeReady, this,
        [this](const QString &name, const QByteArray &chainPem, const QByteArray &keyPem) {
            const Result<TlsCredentials> credentials = TlsCredentials::fromPem(chainPem, keyPem);
            const Result<void> installed = credentials
                ? m_parts->tlsCertificates.installChallenge(name, credentials.value())
                : credentials.error();
            if (!installed)
                qWarning().noquote() << "acme: cannot answer TLS-ALPN-01 for" << name << installed.error().message;
        });
    connect(acme, &AcmeManager::tlsChallengeDone, this,
        [this](const QString &name) { m_parts->tlsCertificates.removeChallenge(name); });
    // What GET /deploy/:id shows for each of a site's domains.
    m_parts->customDomains.setCertificates([this](const QString &name) {
        const CertificateStatus status = m_parts->acme->status(name);
        return DomainCertificate {CertificateStatus::stateName(status.state), status.expiresAt, status.error};
    });
    const auto refresh = [this] { m_parts->acme->setNames(acmeNames()); };
    connect(&m_parts->customDomains, &CustomDomainService::namesChanged, acme, refresh);
    if (m_settings.acme.apiAndSiteNames) {
        connect(&m_parts->siteLoader, &SiteLoader::deploymentChanged, acme, refresh);
        connect(&m_parts->siteLoader, &SiteLoader::deploymentRemoved, acme, refresh);
    }
    refresh();
    acme->start();
}

QStringList Engine::acmeNames() const
{
    // Only names that serve something: nobody can make Berth ask a CA for a name by merely sending a request.
    QStringList names = m_parts->customDomains.names();
    if (!m_settings.acme.apiAndSiteNames)
        return names;
    names.append(QUrl(m_parts->addresses.baseUrl()).host().toLower());
    const QString domain = m_parts->addresses.siteDomain().toLower();
    for (const QString &slug : m_parts->siteTable.slugsById())
        names.append(slug + u'.' + domain);
    return names; // AcmeManager leaves out what is no host name (a domain with a port, an address)
}

AcmeManager *Engine::acme()
{
    return m_parts->acme.get();
}

} // namespace berth
