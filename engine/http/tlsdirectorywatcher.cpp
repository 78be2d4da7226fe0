#include "http/tlsdirectorywatcher.h"

#include "http/clienthello.h"
#include "http/tlscertificatestore.h"
#include "http/tlscredentials.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <sys/stat.h>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

const QString kWildcardStem = u"_wildcard."_s;

// The certificate name a file stands for: "Docs.Example.org.pem" -> "docs.example.org", "_wildcard.example.org.pem"
// -> "*.example.org"; empty for a file name that is no host name.
QString nameOfStem(const QString &stem)
{
    QString name = stem.toLower();
    if (name.startsWith(kWildcardStem))
        name = u"*."_s + name.mid(kWildcardStem.size());
    return QString::fromLatin1(normalisedServerName(name.toLatin1(), true));
}

// Inode, size, modification and change time: a file rewritten in place, or replaced by a rename, differs.
void fingerprintOf(const QString &path, qint64 *into, mode_t *mode)
{
    struct stat info
    {
    };
    if (::stat(QFile::encodeName(path).constData(), &info) != 0)
        return;
    into[0] = qint64(info.st_ino);
    into[1] = qint64(info.st_size);
    into[2] = qint64(info.st_mtim.tv_sec) * 1000000000 + info.st_mtim.tv_nsec;
    into[3] = qint64(info.st_ctim.tv_sec) * 1000000000 + info.st_ctim.tv_nsec;
    if (mode)
        *mode = info.st_mode;
}

} // namespace

TlsDirectoryWatcher::TlsDirectoryWatcher(TlsCertificateStore &store, QString folder, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_folder(std::move(folder))
{
    m_settle.setSingleShot(true);
    m_settle.setInterval(kSettleMs);
    connect(&m_settle, &QTimer::timeout, this, &TlsDirectoryWatcher::rescan);
    m_periodic.setInterval(kRescanMs);
    connect(&m_periodic, &QTimer::timeout, this, &TlsDirectoryWatcher::rescan);
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, &TlsDirectoryWatcher::scheduleRescan);
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, &TlsDirectoryWatcher::scheduleRescan);
}

TlsDirectoryWatcher::~TlsDirectoryWatcher() = default;

Result<void> TlsDirectoryWatcher::start()
{
    const QFileInfo folder(m_folder);
    if (!folder.isDir() || !folder.isReadable() || !folder.isExecutable())
        return Error {Error::Kind::BadRequest, u"--tls-dir %1 is not a folder Berth can read"_s.arg(m_folder)};
    m_watcher.addPath(folder.absoluteFilePath());
    rescan();
    m_periodic.start();
    return {};
}

void TlsDirectoryWatcher::scheduleRescan()
{
    m_settle.start(); // restarted by every change: the pair is read once both files have settled
}

void TlsDirectoryWatcher::rescan()
{
    const QDir folder(m_folder);
    const QStringList certificates = folder.entryList({u"*.pem"_s}, QDir::Files, QDir::Name);
    if (certificates.size() > kMaxPairs && !m_warnedTooMany) {
        m_warnedTooMany = true;
        qWarning("berth: --tls-dir %s holds more than %d certificates; only the first %d are read",
            qUtf8Printable(m_folder), kMaxPairs, kMaxPairs);
    }
    QSet<QString> present;
    QStringList watched;
    for (const QString &file : certificates.mid(0, kMaxPairs)) {
        const QString stem = file.chopped(4);
        const QString name = nameOfStem(stem);
        if (name.isEmpty() || present.contains(name))
            continue; // not a host name (a CA's file, say), or the same name in other letter case
        present.insert(name);
        const QString certPath = folder.filePath(file);
        const QString keyPath = folder.filePath(stem + u".key"_s);
        watched << certPath << keyPath;
        Fingerprint fingerprint {};
        mode_t keyMode = 0;
        fingerprintOf(certPath, fingerprint.data(), nullptr);
        fingerprintOf(keyPath, fingerprint.data() + 4, &keyMode);
        const auto seen = m_seen.constFind(name);
        if (seen != m_seen.cend() && *seen == fingerprint)
            continue;
        m_seen.insert(name, fingerprint);
        if (!QFileInfo::exists(keyPath)) {
            // No pair (yet): a CA's file, or a certificate whose key is still being copied. A name served from this
            // folder keeps what it had.
            if (m_installed.contains(name))
                qWarning("berth: the TLS certificate for %s has no key file %s; the one read before stays",
                    qUtf8Printable(name), qUtf8Printable(keyPath));
            continue;
        }
        if (keyMode & (S_IRWXG | S_IRWXO))
            qWarning("berth: the TLS key %s can be read by other users of this machine; make it 0600",
                qUtf8Printable(keyPath));
        loadPair(name, certPath, keyPath);
    }
    for (auto it = m_seen.begin(); it != m_seen.end();) {
        if (present.contains(it.key())) {
            ++it;
            continue;
        }
        if (m_installed.remove(it.key())) {
            m_store.remove(it.key());
            qInfo("berth: the TLS certificate for %s is gone from --tls-dir; the default one serves it now",
                qUtf8Printable(it.key()));
        }
        it = m_seen.erase(it);
    }
    // Files rewritten in place do not change the folder: watch each of them too (a path is watched only once).
    const QStringList already = m_watcher.files();
    QStringList added;
    for (const QString &path : std::as_const(watched)) {
        if (!already.contains(path) && QFileInfo::exists(path))
            added << path;
    }
    if (!added.isEmpty())
        m_watcher.addPaths(added);
}

void TlsDirectoryWatcher::loadPair(const QString &name, const QString &certPath, const QString &keyPath)
{
    const char *kept = m_installed.contains(name) ? "the one read before stays" : "the default one serves it";
    const Result<TlsCredentials> credentials = TlsCredentials::load(certPath, keyPath);
    if (!credentials) {
        qWarning("berth: the TLS certificate for %s is not taken: %s; %s", qUtf8Printable(name),
            qUtf8Printable(credentials.error().message), kept);
        return;
    }
    if (const Result<void> installed = m_store.install(name, credentials.value()); !installed) {
        qWarning("berth: the TLS certificate for %s is not taken: %s", qUtf8Printable(name),
            qUtf8Printable(installed.error().message));
        return;
    }
    m_installed.insert(name);
    qInfo("berth: TLS certificate for %s read from %s", qUtf8Printable(name), qUtf8Printable(certPath));
}

} // namespace berth
