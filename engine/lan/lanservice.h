#pragma once

#include "lan/lanaddresses.h"
#include "lan/lannames.h"
#include "lan/siteports.h"

#include <QHash>
#include <QObject>
#include <QTimer>
#include <memory>
#include <optional>

namespace berth {

class HttpService;
class MdnsAnnouncer;
class RequestHandler;
class SettingsRepository;
class SitePortHandler;
class SiteRequests;
class SiteTable;

// "Share on local network": while on, the front door also listens on the machine's LAN addresses (same port as on
// loopback), every live site is announced as <slug>.local and the API as <name>.local (mDNS), and each site gets
// a port of its own on the LAN addresses. Off by default. Lives on the engine's thread; follows the site table
// through siteChanged()/siteRemoved() (the SiteLoader's signals) and the machine's addresses by polling.
// With HTTPS (--tls-cert/--tls-key), the LAN addresses take HTTPS on the HTTPS port too, each site's own port speaks
// HTTPS only (one port cannot speak both), and every address given out is an https:// one.
class LanService final : public QObject
{
    Q_OBJECT

public:
    struct Options
    {
        SitePorts::Range sitePorts;
        QString apiName = QStringLiteral("berth"); // announced as berth.local
        // Tests: these (loopback) addresses instead of the machine's, and nothing announced by mDNS, so that a
        // test never reaches a real network.
        QList<QHostAddress> fixedAddresses;
    };

    LanService(SettingsRepository &settings, const SiteTable &sites, Options options, QObject *parent = nullptr);
    ~LanService() override;
    Q_DISABLE_COPY_MOVE(LanService)

    // What the engine serves through, once it listens (listenAddress: where it already listens, e.g. loopback).
    void attach(
        HttpService &http, RequestHandler &main, SiteRequests &sites, const QHostAddress &listenAddress, quint16 port);
    // Before the HTTP service goes: closes every LAN listener and withdraws every name.
    void detach();

    void setEnabled(bool enabled);
    bool isEnabled() const { return m_enabled; }

    // What is in use, for the dashboard and berthd (empty while off).
    QList<LanAddress> addresses() const { return m_enabled ? m_addresses : QList<LanAddress>(); }
    quint16 port() const { return m_port; }
    quint16 httpsPort() const { return m_httpsPort; } // 0 without TLS
    bool isHttps() const { return m_httpsPort != 0; }
    QString apiHost() const; // "berth.local" (or "berth-2.local"); empty while off
    // http://berth.local:8080/ first, then http://<address>:8080/ for each address; with TLS https:// on the HTTPS
    // port.
    QStringList apiUrls() const;
    QString siteHost(const QString &deploymentId) const; // "blog.local", "blog-2.local"; empty while off
    std::optional<quint16> sitePort(const QString &deploymentId) const; // its own port (assigned while on)
    // The one address of a site to hand to another device (e.g. as a QR code): its own port on the first LAN
    // address, which needs nothing of the network; else its .local name; empty while off.
    QString bestSiteUrl(const QString &deploymentId) const;
    // Every LAN address of a site: the .local name, then its port on each LAN address.
    QStringList siteUrls(const QString &deploymentId) const;
    // Why part of LAN sharing does not work (no Avahi daemon, a port in use), empty when all is well.
    QString notice() const;
    bool isAnnouncing() const;

    LanNames &names() { return m_names; }
    const LanNames &names() const { return m_names; }

    // The site table changed (connected to SiteLoader::deploymentChanged/deploymentRemoved).
    void siteChanged(const QString &deploymentId);
    void siteRemoved(const QString &deploymentId);

Q_SIGNALS:
    void changed(); // switched, addresses, names, ports or the notice changed

private:
    struct SiteListener
    {
        std::shared_ptr<SitePortHandler> handler; // shared: QHash copies values
        QList<int> listeners;
    };

    void turnOn();
    void turnOff();
    void refreshAddresses();
    QList<LanAddress> lanAddresses() const;
    void openMainListeners();
    void closeMainListeners();
    void openSitePort(const QString &deploymentId, const QString &slug);
    void closeSitePort(const QString &deploymentId);
    QString siteSlug(const QString &deploymentId) const;
    // "http://host/" or "https://host/": the scheme visitors use on the LAN.
    QString url(const QString &hostAndPort) const;
    // The port the .local names and the API are reached on: the HTTPS port with TLS.
    quint16 namePort() const { return isHttps() ? m_httpsPort : m_port; }

    SettingsRepository &m_settings;
    const SiteTable &m_sites;
    Options m_options;
    LanNames m_names;
    SitePorts m_ports;
    std::unique_ptr<MdnsAnnouncer> m_announcer;
    QTimer m_addressPoll;

    HttpService *m_http = nullptr;
    RequestHandler *m_main = nullptr;
    SiteRequests *m_siteRequests = nullptr;
    QHostAddress m_listenAddress;
    quint16 m_port = 0;
    quint16 m_httpsPort = 0; // the engine's HTTPS port, 0 without TLS

    bool m_enabled = false;
    QList<LanAddress> m_addresses;
    QList<int> m_mainListeners;
    QHash<QString, SiteListener> m_siteListeners; // by deployment id
    QHash<QString, QString> m_listenErrors; // "10.0.0.5:8101" -> reason
};

} // namespace berth
