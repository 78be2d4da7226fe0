// BlobStore's folder as a node's cache of the blobs in a shared backend: fetching what it lacks, and keeping it under
// its size limit by evicting the least recently used files that the backend holds.
#include "storage/blobbackend.h"
#include "storage/blobfiles.h"
#include "storage/blobstore.h"
#include "storage/contentdigest.h"
#include "storage/sqlhelpers.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QSaveFile>
#include <QScopeGuard>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace berth {

BlobStore::~BlobStore() = default;

void BlobStore::setBackend(BlobBackend *backend, qint64 cacheLimitBytes, int recentUseMs)
{
    m_backend = backend;
    m_cache = std::make_unique<Cache>();
    m_cache->limitBytes = cacheLimitBytes;
    m_cache->recentUseMs = recentUseMs;
    m_cache->clock.start();
}

qint64 BlobStore::cachedBytes() const
{
    if (!m_cache)
        return 0;
    QMutexLocker locker(&m_cache->lock);
    return m_cache->bytes;
}

bool BlobStore::isCached(const QByteArray &hash, const QByteArray &suffix) const
{
    QString path = pathOf(hash);
    if (path.isEmpty() || (!suffix.isEmpty() && !isValidSuffix(suffix)))
        return false;
    if (!suffix.isEmpty())
        path += u'.' + QLatin1String(suffix);
    const QFileInfo file(path);
    if (!file.exists())
        return false;
    noteUse(path, file.size());
    return true;
}

Result<void> BlobStore::fetch(const QByteArray &hash, const QByteArray &suffix) const
{
    QString path = pathOf(hash);
    if (path.isEmpty() || (!suffix.isEmpty() && !isValidSuffix(suffix)))
        return Error {Error::Kind::NotFound, u"invalid blob name"_s};
    if (!suffix.isEmpty())
        path += u'.' + QLatin1String(suffix);
    if (QFileInfo::exists(path))
        return {};
    if (!m_backend)
        return Error {Error::Kind::NotFound, u"no blob %1"_s.arg(QLatin1String(hash))};
    std::shared_ptr<QMutex> gate;
    {
        QMutexLocker locker(&m_cache->lock);
        auto &slot = m_cache->fetching[path];
        if (!slot)
            slot = std::make_shared<QMutex>();
        gate = slot;
    }
    Result<void> fetched;
    {
        QMutexLocker one(gate.get());
        fetched = QFileInfo::exists(path) ? Result<void>() : fetchInto(path, hash, suffix);
    }
    {
        QMutexLocker locker(&m_cache->lock);
        if (m_cache->fetching.value(path) == gate && gate.use_count() <= 2) // this map's and ours: no one waits
            m_cache->fetching.remove(path);
    }
    if (!fetched)
        return fetched;
    trimCache(path);
    return {};
}

Result<bool> BlobStore::retain(const QByteArray &hash) const
{
    if (!isValidHash(hash))
        return false;
    if (!m_backend)
        return QFileInfo::exists(pathOf(hash));
    const Result<bool> retained = m_backend->retain(hash);
    if (!retained)
        qCWarning(lcStorage).noquote() << "cannot renew blob" << QLatin1String(hash)
                                       << "in the database:" << retained.error().message;
    return retained;
}

Result<QSet<QByteArray>> BlobStore::retainAll(const QList<QByteArray> &hashes) const
{
    QList<QByteArray> valid;
    for (const QByteArray &hash : hashes) {
        if (isValidHash(hash))
            valid.append(hash);
    }
    if (m_backend) {
        const Result<QSet<QByteArray>> retained = m_backend->retainAll(valid);
        if (!retained)
            qCWarning(lcStorage).noquote() << "cannot renew blobs in the database:" << retained.error().message;
        return retained;
    }
    QSet<QByteArray> held;
    for (const QByteArray &hash : std::as_const(valid)) {
        if (QFileInfo::exists(pathOf(hash)))
            held.insert(hash);
    }
    return held;
}

QHash<QByteArray, qint64> BlobStore::variantSizes(const QList<QByteArray> &hashes, const QByteArray &suffix) const
{
    QHash<QByteArray, qint64> sizes;
    if (!isValidSuffix(suffix))
        return sizes;
    QList<QByteArray> uncached;
    for (const QByteArray &hash : hashes) {
        if (!isValidHash(hash))
            continue;
        const QFileInfo variant(pathOf(hash) + u'.' + QLatin1String(suffix));
        if (variant.exists())
            sizes.insert(hash, variant.size());
        else if (m_backend)
            uncached.append(hash);
    }
    if (uncached.isEmpty())
        return sizes;
    const Result<QHash<QByteArray, qint64>> stored = m_backend->variantSizes(uncached, suffix);
    if (!stored) {
        qCWarning(lcStorage).noquote() << "cannot list the database's compressed variants:" << stored.error().message;
        return sizes;
    }
    sizes.insert(stored.value());
    return sizes;
}

void BlobStore::restoreVariants(const QByteArray &hash) const
{
    for (const QByteArray &suffix : variantsOf(hash)) {
        QFile file(pathOf(hash) + u'.' + QLatin1String(suffix));
        if (!file.open(QIODevice::ReadOnly))
            continue; // gone meanwhile: nothing to bring back
        // A variant that fails only costs other nodes its compression: logged, the blob stays stored.
        if (const Result<bool> stored = m_backend->store(hash, suffix, file.readAll()); !stored)
            qCWarning(lcStorage).noquote() << "cannot store a variant of blob" << QLatin1String(hash)
                                           << "in the database:" << stored.error().message;
    }
}

Result<void> BlobStore::fetchInto(const QString &path, const QByteArray &hash, const QByteArray &suffix) const
{
    const QString folder = QFileInfo(path).absolutePath();
    if (!QFileInfo::exists(folder)) {
        if (!QDir().mkpath(folder))
            return Error {Error::Kind::Internal, u"cannot create %1"_s.arg(folder)};
        QFile::setPermissions(folder, blobfiles::PrivateFolder);
        blobfiles::syncDirectory(m_root);
    }
    // Written piece by piece as the chunks arrive, and checked on the way: a blob's name is its content's digest
    // (a variant has no such check: its bytes depend on the compressor that made it).
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return Error {Error::Kind::Internal, u"cannot write %1: %2"_s.arg(path, file.errorString())};
    ContentDigest digest;
    qint64 size = 0;
    const Result<bool> loaded = m_backend->load(hash, suffix, [&](const QByteArray &piece) {
        digest.addData(piece);
        size += piece.size();
        return file.write(piece) == piece.size();
    });
    if (!loaded) {
        qCWarning(lcStorage).noquote() << "cannot fetch blob" << QLatin1String(hash)
                                       << "from the database:" << loaded.error().message;
        return loaded.error();
    }
    if (!loaded.value())
        return Error {Error::Kind::NotFound, u"no blob %1"_s.arg(QLatin1String(hash))};
    if (suffix.isEmpty() && digest.hexResult() != hash) {
        qCWarning(lcStorage).noquote() << "the database's copy of blob" << QLatin1String(hash) << "is damaged";
        return Error {Error::Kind::Internal, u"damaged blob %1"_s.arg(QLatin1String(hash))};
    }
    if (!file.commit()) {
        // Another thread may have fetched the same blob meanwhile (QSaveFile refuses a read-only target).
        if (QFileInfo(path).size() == size)
            return {};
        return Error {Error::Kind::Internal, u"cannot write %1: %2"_s.arg(path, file.errorString())};
    }
    QFile::setPermissions(path, blobfiles::ReadOnly);
    blobfiles::syncDirectory(folder);
    noteUse(path, size);
    return {};
}

void BlobStore::noteUse(const QString &path, qint64 size) const
{
    if (!m_cache)
        return;
    QMutexLocker locker(&m_cache->lock);
    Cache::Entry &entry = m_cache->entries[path];
    m_cache->bytes += size - entry.size;
    entry.size = size;
    entry.lastUseMs = m_cache->clock.elapsed();
}

void BlobStore::forget(const QString &path) const
{
    if (!m_cache)
        return;
    QMutexLocker locker(&m_cache->lock);
    const auto found = m_cache->entries.constFind(path);
    if (found == m_cache->entries.constEnd())
        return;
    m_cache->bytes -= found->size;
    m_cache->entries.erase(found);
}

void BlobStore::trimCache(const QString &justUsed) const
{
    if (!m_cache || !m_cache->trimming.tryLock())
        return;
    const auto trimmed = qScopeGuard([this] { m_cache->trimming.unlock(); });

    // The files from before this start, counted once (here, off the serving threads) as not used since.
    bool scanned = false;
    {
        QMutexLocker locker(&m_cache->lock);
        scanned = m_cache->scanned;
    }
    if (!scanned) {
        QHash<QString, qint64> found;
        QDirIterator it(m_root, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            if (blobfiles::storedPattern().match(it.fileName()).hasMatch())
                found.insert(path, it.fileInfo().size());
        }
        QMutexLocker locker(&m_cache->lock);
        for (auto file = found.cbegin(); file != found.cend(); ++file) {
            if (!m_cache->entries.contains(file.key())) {
                m_cache->entries.insert(file.key(), {file.value(), -1});
                m_cache->bytes += file.value();
            }
        }
        m_cache->scanned = true;
    }

    // Down to 90% of the limit, so that the next few fetches do not each trim again.
    QList<std::pair<qint64, QString>> byAge;
    qint64 excess = 0;
    {
        QMutexLocker locker(&m_cache->lock);
        if (m_cache->bytes <= m_cache->limitBytes)
            return;
        excess = m_cache->bytes - m_cache->limitBytes / 10 * 9;
        const qint64 recent = m_cache->clock.elapsed() - m_cache->recentUseMs;
        for (auto entry = m_cache->entries.cbegin(); entry != m_cache->entries.cend(); ++entry) {
            if (entry.key() != justUsed && entry->lastUseMs < recent)
                byAge.append({entry->lastUseMs, entry.key()});
        }
    }
    std::sort(byAge.begin(), byAge.end());
    for (const auto &[lastUse, path] : std::as_const(byAge)) {
        if (excess <= 0)
            break;
        // Only what the backend holds: the folder's file may be the one copy (a blob from before PostgreSQL).
        const QFileInfo file(path);
        const QRegularExpressionMatch name = blobfiles::storedPattern().match(file.fileName());
        const QByteArray hash = file.dir().dirName().toLatin1() + name.captured(1).toLatin1();
        const Result<bool> held = m_backend->has(hash, name.captured(2).toLatin1());
        if (!held || !held.value())
            continue;
        const qint64 size = file.size();
        if (QFile::remove(path) || !file.exists()) {
            forget(path);
            excess -= size;
        }
    }
}

} // namespace berth
