#pragma once

#include "instance/enginesettings.h"

#include <QByteArray>
#include <QString>
#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QSettings;
QT_END_NAMESPACE

namespace berth {

// The dashboard's saved settings (QSettings): how the embedded engine serves, whether Berth keeps
// serving from the tray, window state, and the folder each deployment was published from.
class AppSettings final
{
public:
    // An empty path means ~/.config/berth/dashboard.conf; tests pass a temporary file.
    explicit AppSettings(const QString &iniPath = {});
    ~AppSettings();
    Q_DISABLE_COPY_MOVE(AppSettings)

    static constexpr quint16 kDefaultPort = 8080;
    static constexpr int kMaxServingThreads = 256;

    // Serving options given on the command line: they win over the saved values for one run and are
    // never saved. Kept here so that Settings can show what is in effect.
    struct Overrides
    {
        std::optional<QString> listen, dataDir, siteDomain, baseUrl;
        std::optional<QString> database; // a postgresql:// URL (--database, $BERTH_DATABASE); never saved
    };
    const Overrides &overrides() const { return m_overrides; }
    void setOverrides(const Overrides &overrides) { m_overrides = overrides; }

    QString listen() const; // "127.0.0.1:8080"
    void setListen(const QString &listen);
    QString siteDomain() const; // empty: localhost:<port>
    void setSiteDomain(const QString &domain);
    QString dataDir() const; // empty: the engine's default
    void setDataDir(const QString &dir);
    int servingThreads() const; // 0: one per core
    void setServingThreads(int threads);
    bool lanSharing() const; // "Share on local network"; off by default
    void setLanSharing(bool share);
    // HTTPS: PEM files of the server certificate (chain) and its unencrypted key; both empty: plain HTTP
    // only. Served on httpsPort (0 picks a free one), also on the LAN addresses while sharing.
    QString tlsCertFile() const;
    void setTlsCertFile(const QString &file);
    QString tlsKeyFile() const;
    void setTlsKeyFile(const QString &file);
    quint16 httpsPort() const;
    void setHttpsPort(quint16 port);
    // The access log (one line per request, Apache's vhost_combined format); off by default. An empty file means
    // logs/access.log in the data folder.
    bool accessLogEnabled() const;
    void setAccessLogEnabled(bool enabled);
    QString accessLogFile() const;
    void setAccessLogFile(const QString &file);
    // Certificates by ACME, as berthd's --acme-* options: off while the directory URL is empty. The CA file is trusted
    // for the ACME server's own HTTPS (a private ACME server); allNames adds the API's host and every site's name.
    QString acmeDirectory() const;
    void setAcmeDirectory(const QString &url);
    QString acmeEmail() const;
    void setAcmeEmail(const QString &email);
    QString acmeCaFile() const;
    void setAcmeCaFile(const QString &file);
    bool acmeAllNames() const;
    void setAcmeAllNames(bool all);
    bool keepServingInTray() const;
    void setKeepServingInTray(bool keep);
    QString appearance() const; // "system", "light" or "dark"
    void setAppearance(const QString &appearance);

    QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray &geometry);
    QByteArray tableHeaderState() const;
    void setTableHeaderState(const QByteArray &state);

    // Where a deployment's content came from, for "Redeploy from folder".
    QString sourcePath(const QString &deploymentId) const;
    void setSourcePath(const QString &deploymentId, const QString &path);
    void removeSourcePath(const QString &deploymentId);
    // The deployments whose content came from path (the same folder or file).
    QStringList deploymentsFrom(const QString &path) const;

    // The engine settings these values describe (command-line overrides are applied by the caller).
    EngineSettings engineSettings() const;

    // "ADDR:PORT", "[v6]:PORT" or "PORT"; false when it is none of them.
    static bool parseListen(const QString &text, QHostAddress *address, quint16 *port);

    void sync();

private:
    std::unique_ptr<QSettings> m_settings;
    Overrides m_overrides;
};

} // namespace berth
