#include "lan/lanservice.h"

#include "domain/siterules/sitetable.h"
#include "http/httpservice.h"
#include "lan/mdnsannouncer.h"
#include "lan/siteporthandler.h"

using namespace Qt::StringLiterals;

namespace berth {

namespace {
constexpr int kAddressPollMs = 5000; // a new DHCP lease or a Wi-Fi change is picked up within this

QString hostPort(const QHostAddress &address, quint16 port)
{
    return urlHost(address) + u':' + QString::number(port);
}

bool isWildcard(const QHostAddress &address)
{
    return address == QHostAddress(QHostAddress::Any) || address == QHostAddress(QHostAddress::AnyIPv4)
        || address == QHostAddress(QHostAddress::AnyIPv6);
}
} // namespace

LanService::LanService(SettingsRepository &settings, const SiteTable &sites, Options options, QObject *parent)
    : QObject(parent)
    , m_settings(settings)
    , m_sites(sites)
    , m_options(std::move(options))
    , m_ports(settings, m_options.sitePorts)
    , m_announcer(std::make_unique<MdnsAnnouncer>(m_names))
{
    connect(m_announcer.get(), &MdnsAnnouncer::changed, this, &LanService::changed);
    m_addressPoll.setInterval(kAddressPollMs);
    connect(&m_addressPoll, &QTimer::timeout, this, &LanService::refreshAddresses);
}

LanService::~LanService()
{
    detach();
}

void LanService::attach(
    HttpService &http, RequestHandler &main, SiteRequests &sites, const QHostAddress &listenAddress, quint16 port)
{
    m_http = &http;
    m_main = &main;
    m_siteRequests = &sites;
    m_listenAddress = listenAddress;
    m_port = port;
    m_httpsPort = http.httpsPort();
    m_ports.load();
    // Deployments deleted while nothing served (berthd delete on a stopped instance) give their ports back.
    m_ports.keepOnly(m_sites.slugsById().keys());
}

void LanService::detach()
{
    turnOff();
    m_http = nullptr;
    m_main = nullptr;
    m_siteRequests = nullptr;
}

void LanService::setEnabled(bool enabled)
{
    if (enabled == m_enabled || (enabled && !m_http))
        return;
    if (enabled)
        turnOn();
    else
        turnOff();
    Q_EMIT changed();
}

void LanService::turnOn()
{
    m_enabled = true;
    m_addresses = lanAddresses();
    openMainListeners();
    m_announcer->setAddresses(m_addresses);
    m_announcer->setApi(m_options.apiName, m_port); // _http._tcp: the plain port, which LAN sharing always keeps
    const QHash<QString, QString> live = m_sites.slugsById();
    for (auto it = live.constBegin(); it != live.constEnd(); ++it) {
        m_announcer->setSite(it.key(), it.value());
        openSitePort(it.key(), it.value());
    }
    if (m_options.fixedAddresses.isEmpty()) {
        m_announcer->start();
        m_addressPoll.start();
    }
}

void LanService::turnOff()
{
    if (!m_enabled)
        return;
    m_enabled = false;
    m_addressPoll.stop();
    m_announcer->stop();
    m_announcer->clear();
    closeMainListeners();
    const QStringList ids = m_siteListeners.keys();
    for (const QString &id : ids)
        closeSitePort(id);
    m_listenErrors.clear();
    m_addresses.clear();
}

QList<LanAddress> LanService::lanAddresses() const
{
    if (m_options.fixedAddresses.isEmpty())
        return currentLanAddresses();
    QList<LanAddress> fixed;
    for (const QHostAddress &address : m_options.fixedAddresses)
        fixed.append({address, 0});
    return fixed;
}

void LanService::refreshAddresses()
{
    const QList<LanAddress> now = lanAddresses();
    if (now == m_addresses)
        return;
    // Listeners are bound to addresses: reopen all of them on the new set.
    closeMainListeners();
    const QHash<QString, QString> live = m_sites.slugsById();
    for (auto it = live.constBegin(); it != live.constEnd(); ++it)
        closeSitePort(it.key());
    m_listenErrors.clear();
    m_addresses = now;
    openMainListeners();
    for (auto it = live.constBegin(); it != live.constEnd(); ++it)
        openSitePort(it.key(), it.value());
    m_announcer->setAddresses(m_addresses);
    Q_EMIT changed();
}

void LanService::openMainListeners()
{
    // A wildcard listen address already takes every LAN address; a LAN address given to --listen is taken too.
    if (isWildcard(m_listenAddress))
        return;
    for (const LanAddress &lan : std::as_const(m_addresses)) {
        if (lan.address == m_listenAddress)
            continue;
        for (const bool tls : {false, true}) {
            if (tls && !isHttps())
                continue;
            const quint16 port = tls ? m_httpsPort : m_port;
            const Result<int> id = tls ? m_http->addTlsListener(lan.address, port, *m_main)
                                       : m_http->addListener(lan.address, port, *m_main);
            if (!id) {
                m_listenErrors.insert(hostPort(lan.address, port), id.error().message);
                qWarning("berth: cannot listen on %s: %s", qUtf8Printable(hostPort(lan.address, port)),
                    qUtf8Printable(id.error().message));
                continue;
            }
            m_mainListeners.append(id.value());
        }
    }
}

void LanService::closeMainListeners()
{
    for (const int id : std::as_const(m_mainListeners))
        m_http->removeListener(id);
    m_mainListeners.clear();
}

void LanService::openSitePort(const QString &deploymentId, const QString &slug)
{
    if (m_siteListeners.contains(deploymentId))
        return;
    const auto port = m_ports.assign(deploymentId);
    if (!port) {
        m_listenErrors.insert(
            slug, u"no free port left in %1-%2"_s.arg(m_ports.range().first).arg(m_ports.range().last));
        return;
    }
    SiteListener &site = m_siteListeners[deploymentId];
    site.handler = std::make_shared<SitePortHandler>(*m_siteRequests, slug);
    for (const LanAddress &lan : std::as_const(m_addresses)) {
        const Result<int> id = isHttps() ? m_http->addTlsListener(lan.address, *port, *site.handler)
                                         : m_http->addListener(lan.address, *port, *site.handler);
        if (!id) {
            // Kept: the port stays the site's (it is what people saved), and is tried again at the next start.
            m_listenErrors.insert(hostPort(lan.address, *port), id.error().message);
            qWarning("berth: cannot listen on %s for %s: %s", qUtf8Printable(hostPort(lan.address, *port)),
                qUtf8Printable(slug), qUtf8Printable(id.error().message));
            continue;
        }
        site.listeners.append(id.value());
    }
}

void LanService::closeSitePort(const QString &deploymentId)
{
    auto it = m_siteListeners.find(deploymentId);
    if (it == m_siteListeners.end())
        return;
    for (const int id : std::as_const(it->listeners))
        m_http->removeListener(id); // the doors go before their handler
    m_siteListeners.erase(it);
}

void LanService::siteChanged(const QString &deploymentId)
{
    const QString slug = m_sites.slugOf(deploymentId);
    if (slug.isEmpty()) {
        siteRemoved(deploymentId);
        return;
    }
    if (!m_enabled)
        return;
    m_announcer->setSite(deploymentId, slug); // nothing when the slug did not change
    if (const auto it = m_siteListeners.constFind(deploymentId); it != m_siteListeners.constEnd())
        it->handler->setSlug(slug);
    else
        openSitePort(deploymentId, slug);
    Q_EMIT changed();
}

void LanService::siteRemoved(const QString &deploymentId)
{
    if (m_enabled) {
        m_announcer->removeSite(deploymentId);
        closeSitePort(deploymentId);
    }
    if (m_http)
        m_ports.release(deploymentId);
    Q_EMIT changed();
}

QString LanService::siteSlug(const QString &deploymentId) const
{
    return m_sites.slugOf(deploymentId);
}

QString LanService::url(const QString &hostAndPort) const
{
    return (isHttps() ? u"https://%1/"_s : u"http://%1/"_s).arg(hostAndPort);
}

QString LanService::apiHost() const
{
    const QString label = m_enabled ? m_names.apiLabel() : QString();
    return label.isEmpty() ? QString() : label + u".local"_s;
}

QStringList LanService::apiUrls() const
{
    QStringList urls;
    if (!m_enabled)
        return urls;
    if (const QString host = apiHost(); !host.isEmpty())
        urls.append(url(u"%1:%2"_s.arg(host).arg(namePort())));
    for (const LanAddress &lan : m_addresses)
        urls.append(url(hostPort(lan.address, namePort())));
    return urls;
}

QString LanService::siteHost(const QString &deploymentId) const
{
    const QString label = m_enabled ? m_names.siteLabel(deploymentId) : QString();
    return label.isEmpty() ? QString() : label + u".local"_s;
}

std::optional<quint16> LanService::sitePort(const QString &deploymentId) const
{
    return m_enabled ? m_ports.port(deploymentId) : std::nullopt;
}

QString LanService::bestSiteUrl(const QString &deploymentId) const
{
    if (!m_enabled)
        return QString();
    const auto port = sitePort(deploymentId);
    const auto listening = m_siteListeners.constFind(deploymentId);
    if (port && !m_addresses.isEmpty() && listening != m_siteListeners.constEnd() && !listening->listeners.isEmpty())
        return url(hostPort(m_addresses.constFirst().address, *port));
    if (const QString host = siteHost(deploymentId); !host.isEmpty())
        return url(u"%1:%2"_s.arg(host).arg(namePort()));
    return QString();
}

QStringList LanService::siteUrls(const QString &deploymentId) const
{
    QStringList urls;
    if (!m_enabled)
        return urls;
    if (const QString host = siteHost(deploymentId); !host.isEmpty())
        urls.append(url(u"%1:%2"_s.arg(host).arg(namePort())));
    if (const auto port = sitePort(deploymentId)) {
        for (const LanAddress &lan : m_addresses)
            urls.append(url(hostPort(lan.address, *port)));
    }
    return urls;
}

QString LanService::notice() const
{
    if (!m_enabled)
        return QString();
    QStringList parts;
    if (m_addresses.isEmpty())
        parts.append(u"This computer has no address on a local network right now."_s);
    if (const QString mdns = m_announcer->notice(); !mdns.isEmpty())
        parts.append(mdns);
    for (auto it = m_listenErrors.constBegin(); it != m_listenErrors.constEnd(); ++it)
        parts.append(u"Cannot use %1: %2."_s.arg(it.key(), it.value()));
    return parts.join(u' ');
}

bool LanService::isAnnouncing() const
{
    return m_enabled && m_announcer->isAnnouncing();
}

} // namespace berth
