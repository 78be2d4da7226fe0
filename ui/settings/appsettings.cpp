#include "ui/settings/appsettings.h"

#include "instance/listenaddress.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
const QString kListenKey = u"server/listen"_s;
const QString kSiteDomainKey = u"server/siteDomain"_s;
const QString kDataDirKey = u"server/dataDir"_s;
const QString kThreadsKey = u"server/servingThreads"_s;
const QString kTrayKey = u"window/keepServingInTray"_s;
const QString kLanSharingKey = u"server/lanSharing"_s;
const QString kTlsCertKey = u"server/tlsCertFile"_s;
const QString kTlsKeyKey = u"server/tlsKeyFile"_s;
const QString kHttpsPortKey = u"server/httpsPort"_s;
const QString kAccessLogKey = u"server/accessLog"_s;
const QString kAccessLogFileKey = u"server/accessLogFile"_s;
const QString kAcmeDirectoryKey = u"server/acmeDirectory"_s;
const QString kAcmeEmailKey = u"server/acmeEmail"_s;
const QString kAcmeCaFileKey = u"server/acmeCaFile"_s;
const QString kAcmeAllNamesKey = u"server/acmeAllNames"_s;
const QString kGeometryKey = u"window/geometry"_s;
const QString kAppearanceKey = u"window/appearance"_s;
const QString kHeaderKey = u"window/tableHeader"_s;
const QString kSourcesGroup = u"sources/"_s;
} // namespace

AppSettings::AppSettings(const QString &iniPath)
    // An explicit file rather than QSettings' default, which would depend on an organization name that would
    // also move the engine's default data folder away from berthd's.
    : m_settings(std::make_unique<QSettings>(iniPath.isEmpty()
            ? QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) + u"/dashboard.conf"_s
            : iniPath,
        QSettings::IniFormat))
{
}

AppSettings::~AppSettings() = default;

QString AppSettings::listen() const
{
    return m_settings->value(kListenKey, u"127.0.0.1:%1"_s.arg(kDefaultPort)).toString();
}

void AppSettings::setListen(const QString &listen)
{
    m_settings->setValue(kListenKey, listen.trimmed());
}
QString AppSettings::siteDomain() const
{
    return m_settings->value(kSiteDomainKey).toString();
}
void AppSettings::setSiteDomain(const QString &domain)
{
    m_settings->setValue(kSiteDomainKey, domain.trimmed());
}
QString AppSettings::dataDir() const
{
    return m_settings->value(kDataDirKey).toString();
}
void AppSettings::setDataDir(const QString &dir)
{
    m_settings->setValue(kDataDirKey, dir.trimmed());
}
int AppSettings::servingThreads() const
{
    // A hand-edited value out of range means the default, as in berthd --threads.
    const int threads = m_settings->value(kThreadsKey, 0).toInt();
    return threads >= 0 && threads <= kMaxServingThreads ? threads : 0;
}

void AppSettings::setServingThreads(int threads)
{
    m_settings->setValue(kThreadsKey, threads);
}

bool AppSettings::lanSharing() const
{
    return m_settings->value(kLanSharingKey, false).toBool();
}
void AppSettings::setLanSharing(bool share)
{
    m_settings->setValue(kLanSharingKey, share);
}
QString AppSettings::tlsCertFile() const
{
    return m_settings->value(kTlsCertKey).toString();
}
void AppSettings::setTlsCertFile(const QString &file)
{
    m_settings->setValue(kTlsCertKey, file.trimmed());
}
QString AppSettings::tlsKeyFile() const
{
    return m_settings->value(kTlsKeyKey).toString();
}
void AppSettings::setTlsKeyFile(const QString &file)
{
    m_settings->setValue(kTlsKeyKey, file.trimmed());
}
quint16 AppSettings::httpsPort() const
{
    // A hand-edited value out of range means the default.
    bool ok = false;
    const uint port = m_settings->value(kHttpsPortKey, EngineSettings().httpsPort).toUInt(&ok);
    return ok && port <= 65535 ? quint16(port) : EngineSettings().httpsPort;
}
void AppSettings::setHttpsPort(quint16 port)
{
    m_settings->setValue(kHttpsPortKey, port);
}
bool AppSettings::accessLogEnabled() const
{
    return m_settings->value(kAccessLogKey, false).toBool();
}
void AppSettings::setAccessLogEnabled(bool enabled)
{
    m_settings->setValue(kAccessLogKey, enabled);
}
QString AppSettings::accessLogFile() const
{
    return m_settings->value(kAccessLogFileKey).toString();
}
void AppSettings::setAccessLogFile(const QString &file)
{
    m_settings->setValue(kAccessLogFileKey, file.trimmed());
}
QString AppSettings::acmeDirectory() const
{
    return m_settings->value(kAcmeDirectoryKey).toString();
}
void AppSettings::setAcmeDirectory(const QString &url)
{
    m_settings->setValue(kAcmeDirectoryKey, url.trimmed());
}
QString AppSettings::acmeEmail() const
{
    return m_settings->value(kAcmeEmailKey).toString();
}
void AppSettings::setAcmeEmail(const QString &email)
{
    m_settings->setValue(kAcmeEmailKey, email.trimmed());
}
QString AppSettings::acmeCaFile() const
{
    return m_settings->value(kAcmeCaFileKey).toString();
}
void AppSettings::setAcmeCaFile(const QString &file)
{
    m_settings->setValue(kAcmeCaFileKey, file.trimmed());
}
bool AppSettings::acmeAllNames() const
{
    return m_settings->value(kAcmeAllNamesKey, false).toBool();
}
void AppSettings::setAcmeAllNames(bool all)
{
    m_settings->setValue(kAcmeAllNamesKey, all);
}
bool AppSettings::keepServingInTray() const
{
    return m_settings->value(kTrayKey, true).toBool();
}
void AppSettings::setKeepServingInTray(bool keep)
{
    m_settings->setValue(kTrayKey, keep);
}
QString AppSettings::appearance() const
{
    return m_settings->value(kAppearanceKey, u"system"_s).toString();
}
void AppSettings::setAppearance(const QString &appearance)
{
    m_settings->setValue(kAppearanceKey, appearance);
}
QByteArray AppSettings::windowGeometry() const
{
    return m_settings->value(kGeometryKey).toByteArray();
}
void AppSettings::setWindowGeometry(const QByteArray &geometry)
{
    m_settings->setValue(kGeometryKey, geometry);
}
QByteArray AppSettings::tableHeaderState() const
{
    return m_settings->value(kHeaderKey).toByteArray();
}
void AppSettings::setTableHeaderState(const QByteArray &state)
{
    m_settings->setValue(kHeaderKey, state);
}

QString AppSettings::sourcePath(const QString &deploymentId) const
{
    return m_settings->value(kSourcesGroup + deploymentId).toString();
}

void AppSettings::setSourcePath(const QString &deploymentId, const QString &path)
{
    m_settings->setValue(kSourcesGroup + deploymentId, path);
}

void AppSettings::removeSourcePath(const QString &deploymentId)
{
    m_settings->remove(kSourcesGroup + deploymentId);
}

QStringList AppSettings::deploymentsFrom(const QString &path) const
{
    const auto same = [](const QString &a, const QString &b) {
        const QFileInfo left(a), right(b);
        if (QDir::cleanPath(left.absoluteFilePath()) == QDir::cleanPath(right.absoluteFilePath()))
            return true;
        const QString canonical = left.canonicalFilePath(); // symlinks
        return !canonical.isEmpty() && canonical == right.canonicalFilePath();
    };
    QStringList ids;
    m_settings->beginGroup(kSourcesGroup.chopped(1));
    const QStringList keys = m_settings->childKeys();
    for (const QString &id : keys) {
        if (same(m_settings->value(id).toString(), path))
            ids.append(id);
    }
    m_settings->endGroup();
    return ids;
}

EngineSettings AppSettings::engineSettings() const
{
    EngineSettings settings;
    if (!parseListen(listen(), &settings.listenAddress, &settings.listenPort)) {
        settings.listenAddress = QHostAddress(QHostAddress::LocalHost);
        settings.listenPort = kDefaultPort;
    }
    settings.siteDomain = siteDomain();
    settings.dataDir = dataDir();
    settings.servingThreads = servingThreads();
    settings.lanSharing = lanSharing();
    settings.tlsCertFile = tlsCertFile();
    settings.tlsKeyFile = tlsKeyFile();
    settings.httpsPort = httpsPort();
    if (accessLogEnabled()) // a relative file is in the data folder, as the engine reads it
        settings.accessLog = accessLogFile().isEmpty() ? u"logs/access.log"_s : accessLogFile();
    // Without a contact the CA would refuse the account: off, as berthd refuses to start without one.
    if (!acmeDirectory().isEmpty() && !acmeEmail().isEmpty()) {
        settings.acme.directoryUrl = acmeDirectory();
        settings.acme.email = acmeEmail();
        settings.acme.caFile = acmeCaFile();
        settings.acme.apiAndSiteNames = acmeAllNames();
    }
    return settings;
}

bool AppSettings::parseListen(const QString &text, QHostAddress *address, quint16 *port)
{
    return parseListenAddress(text, address, port);
}

void AppSettings::sync()
{
    m_settings->sync();
}

} // namespace berth
