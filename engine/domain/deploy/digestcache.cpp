#include "domain/deploy/digestcache.h"

#include "domain/deploy/deploymentlimits.h"
#include "storage/contentdigest.h"

#include <QDataStream>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>
#include <algorithm>
#include <time.h>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

constexpr quint32 kMagic = 0x42444332; // "BDC2"
constexpr qsizetype kDigestLength = 64; // hex SHA-256, also the checksum at the end of the file

QDataStream &operator<<(QDataStream &out, const FileStamp &stamp)
{
    return out << stamp.size << stamp.modifiedNs << stamp.changedNs << stamp.inode << stamp.device;
}

QDataStream &operator>>(QDataStream &in, FileStamp &stamp)
{
    return in >> stamp.size >> stamp.modifiedNs >> stamp.changedNs >> stamp.inode >> stamp.device;
}

bool isHexDigest(const QByteArray &digest)
{
    return digest.size() == kDigestLength && std::all_of(digest.cbegin(), digest.cend(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    });
}

} // namespace

DigestCache DigestCache::load(const QString &folder, const QString &cacheFolder, qint64 takenAtNs)
{
    DigestCache cache;
    cache.m_folder = QFileInfo(folder).canonicalFilePath();
    cache.m_cacheFolder = cacheFolder;
    cache.m_takenAtNs = takenAtNs;
    if (cache.m_folder.isEmpty() || cacheFolder.isEmpty())
        return cache; // no such folder, or no cache folder: nothing is kept
    cache.m_file = fileFor(cacheFolder, cache.m_folder);
    cache.read();
    return cache;
}

QString DigestCache::defaultFolder()
{
    const QString base = QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation);
    return base.isEmpty() ? QString() : base + u"/berth/digests"_s;
}

QString DigestCache::fileFor(const QString &cacheFolder, const QString &canonicalFolder)
{
    return cacheFolder + u'/' + QString::fromLatin1(ContentDigest::hexOf(canonicalFolder.toUtf8()).left(32))
        + u".digests"_s;
}

qint64 DigestCache::coarseNow()
{
    timespec now = {};
    clock_gettime(CLOCK_REALTIME_COARSE, &now);
    return qint64(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

void DigestCache::read()
{
    QFile file(m_file);
    if (!file.open(QIODevice::ReadOnly) || file.size() > kMaxFileBytes)
        return;
    const QByteArray bytes = file.readAll();
    if (bytes.size() < kDigestLength)
        return;
    const QByteArray payload = bytes.left(bytes.size() - kDigestLength);
    if (ContentDigest::hexOf(payload) != bytes.right(kDigestLength))
        return; // damaged or cut short: read every file again

    QDataStream in(payload);
    in.setVersion(QDataStream::Qt_6_4);
    quint32 magic = 0;
    QString folder;
    qint64 takenAtNs = 0;
    quint32 count = 0;
    in >> magic >> folder >> takenAtNs >> count;
    if (in.status() != QDataStream::Ok || magic != kMagic || folder != m_folder
        || count > quint32(kMaxFilesPerDeployment))
        return; // another format, or another folder's cache under this name
    QHash<QString, Entry> entries;
    entries.reserve(count);
    for (quint32 i = 0; i < count; ++i) {
        QString path;
        Entry entry;
        in >> path >> entry.stamp >> entry.digest >> entry.secret;
        const bool knownSecret = entry.secret >= kUnscanned && entry.secret <= qint8(PublishIssue::Finding::MoreOfKind);
        if (in.status() != QDataStream::Ok || !isHexDigest(entry.digest) || !knownSecret)
            return;
        entries.insert(path, entry);
    }
    m_loaded = std::move(entries);
    m_loadedTakenAtNs = takenAtNs;
}

const DigestCache::Entry *DigestCache::trusted(const QString &relativePath, const FileStamp &stamp) const
{
    const auto found = m_loaded.constFind(relativePath);
    if (found == m_loaded.cend() || found->stamp != stamp)
        return nullptr;
    // Touched in or after the tick the digests were taken in: a later write in that tick would look the same.
    if (qMax(stamp.modifiedNs, stamp.changedNs) >= m_loadedTakenAtNs)
        return nullptr;
    return &*found;
}

DigestCache::Entry &DigestCache::current(const QString &relativePath, const FileStamp &stamp)
{
    Entry &entry = m_remembered[relativePath];
    if (entry.stamp != stamp)
        entry = {stamp, {}, kUnscanned};
    return entry;
}

QByteArray DigestCache::digestOf(const QString &relativePath, const FileStamp &stamp) const
{
    const Entry *entry = trusted(relativePath, stamp);
    return entry ? entry->digest : QByteArray();
}

void DigestCache::remember(const QString &relativePath, const FileStamp &stamp, const QByteArray &digest)
{
    current(relativePath, stamp).digest = digest;
}

std::optional<PublishChecks::SecretMemory::Scan> DigestCache::recall(const FolderFile &file) const
{
    const Entry *entry = file.stamp ? trusted(file.relativePath, *file.stamp) : nullptr;
    if (!entry || entry->secret == kUnscanned)
        return std::nullopt;
    return Scan {entry->secret == kNoSecret ? std::nullopt : std::optional(PublishIssue::Finding(entry->secret))};
}

void DigestCache::keep(const FolderFile &file, Scan scan)
{
    if (file.stamp)
        current(file.relativePath, *file.stamp).secret = scan.found ? qint8(*scan.found) : kNoSecret;
}

Result<void> DigestCache::save() const
{
    if (m_file.isEmpty())
        return {};
    QByteArray payload;
    QDataStream out(&payload, QIODevice::WriteOnly);
    out.setVersion(QDataStream::Qt_6_4);
    qsizetype count = 0; // a file listed but never read (the reading was refused) is not kept
    for (const Entry &entry : m_remembered)
        count += entry.digest.isEmpty() ? 0 : 1;
    out << kMagic << m_folder << m_takenAtNs << quint32(count);
    for (auto it = m_remembered.cbegin(); it != m_remembered.cend(); ++it) {
        if (!it->digest.isEmpty())
            out << it.key() << it->stamp << it->digest << it->secret;
    }

    if (!QDir().mkpath(m_cacheFolder))
        return Error {Error::Kind::Internal, u"cannot create the cache folder"_s};
    QFile::setPermissions(m_cacheFolder, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    QSaveFile file(m_file);
    if (!file.open(QIODevice::WriteOnly))
        return Error {Error::Kind::Internal, u"cannot write the digest cache: "_s + file.errorString()};
    file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    file.write(payload);
    file.write(ContentDigest::hexOf(payload));
    if (!file.commit())
        return Error {Error::Kind::Internal, u"cannot write the digest cache: "_s + file.errorString()};
    pruneOthers();
    return {};
}

void DigestCache::pruneOthers() const
{
    const QFileInfoList caches
        = QDir(m_cacheFolder).entryInfoList({u"*.digests"_s}, QDir::Files, QDir::Time); // newest first
    const QString own = QFileInfo(m_file).absoluteFilePath();
    qsizetype count = caches.size();
    for (qsizetype i = caches.size() - 1; i >= 0 && count > kMaxFolders; --i) {
        if (caches.at(i).absoluteFilePath() != own && QFile::remove(caches.at(i).absoluteFilePath()))
            --count;
    }
}

} // namespace berth
