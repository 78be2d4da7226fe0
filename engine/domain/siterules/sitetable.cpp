#include "domain/siterules/sitetable.h"

#include "storage/blobstore.h"

#include <chrono>

namespace berth {

const SiteFile *Site::file(const QString &path) const
{
    const auto it = files.constFind(path);
    return it == files.constEnd() ? nullptr : &it.value();
}

namespace {

// Reads and compiles one rules file. This runs where a version is committed or loaded, never on a serving thread.
void compileRules(Site &site, const StoredFile &file, const BlobStore &blobs)
{
    if (file.size > Site::kMaxRulesFileBytes) {
        site.ruleWarnings.append(QStringLiteral("%1 is larger than %2 KB and is ignored")
                                     .arg(file.path)
                                     .arg(Site::kMaxRulesFileBytes / 1024));
        return;
    }
    const QByteArray text = blobs.read(file.blob);
    if (file.path == u"_redirects")
        site.redirects = RedirectRules::parse(text, &site.ruleWarnings);
    else
        site.headers = HeaderRules::parse(text, &site.ruleWarnings);
}

} // namespace

std::shared_ptr<const Site> Site::make(
    const Deployment &deployment, const QList<StoredFile> &files, const BlobStore &blobs)
{
    auto site = std::make_shared<Site>();
    site->deployment = deployment;
    site->fileCount = int(files.size());
    site->files.reserve(files.size());
    // The gzip variants this node holds, and (blobs in the database) those it has not fetched yet: a site deployed
    // through another node is served compressed here too. Fetched with the file on its first request.
    QList<QByteArray> hashes;
    hashes.reserve(files.size());
    for (const StoredFile &file : files) {
        if (!Site::isRulesFile(file.path))
            hashes.append(file.blob);
    }
    const QHash<QByteArray, qint64> gzipSizes = blobs.variantSizes(hashes, "gz");
    for (const StoredFile &file : files) {
        site->totalBytes += file.size;
        if (Site::isRulesFile(file.path)) {
            compileRules(*site, file, blobs);
            continue;
        }
        const qint64 gzipSize = gzipSizes.value(file.blob);
        SiteFile served {file.blob, file.size, file.contentType, '"' + file.blob + '"', gzipSize, {}, {}};
        if (gzipSize > 0) {
            served.gzipKey = file.blob + ".gz";
            served.gzipEtag = '"' + file.blob + "-gz\"";
        }
        site->files.insert(file.path, std::move(served));
    }
    return site;
}

std::shared_ptr<const Site> Site::placeholder(const Deployment &deployment, int fileCount, qint64 totalBytes)
{
    auto site = std::make_shared<Site>();
    site->deployment = deployment;
    site->loaded = false;
    site->fileCount = fileCount;
    site->totalBytes = totalBytes;
    return site;
}

std::shared_ptr<const Site> SiteTable::find(const QString &slug) const
{
    std::shared_ptr<const Site> site;
    {
        QReadLocker locker(&m_lock);
        site = m_bySlug.value(slug);
    }
    // The steady clock (vDSO, no shared counter for the serving threads to contend on) orders the uses for eviction.
    if (site && site->loaded)
        site->lastUse.store(std::chrono::steady_clock::now().time_since_epoch().count(), std::memory_order_relaxed);
    return site;
}

void SiteTable::put(std::shared_ptr<const Site> site)
{
    QWriteLocker locker(&m_lock);
    const QString &id = site->deployment.id;
    const QString slug = site->deployment.slug;
    const auto previous = m_slugById.constFind(id);
    if (previous != m_slugById.constEnd() && previous.value() != slug) {
        m_bySlug.remove(previous.value());
        m_loadedSlugs.remove(previous.value());
    }
    const bool loaded = site->loaded;
    if (loaded) // a site just put counts as just used: it is not the one evicted next
        site->lastUse.store(std::chrono::steady_clock::now().time_since_epoch().count(), std::memory_order_relaxed);
    m_slugById.insert(id, slug);
    m_bySlug.insert(slug, std::move(site));
    if (loaded) {
        m_loadedSlugs.insert(slug);
        evictOver(slug);
    } else {
        m_loadedSlugs.remove(slug);
    }
}

void SiteTable::evictOver(const QString &keptSlug)
{
    // A linear scan of the loaded entries only (at most the limit, plus one): cheap next to the load that led here.
    while (m_loadedSlugs.size() > m_loadedLimit) {
        QString oldest;
        qint64 oldestUse = 0;
        for (const QString &slug : std::as_const(m_loadedSlugs)) {
            if (slug == keptSlug)
                continue;
            const qint64 use = m_bySlug.value(slug)->lastUse.load(std::memory_order_relaxed);
            if (oldest.isEmpty() || use < oldestUse) {
                oldest = slug;
                oldestUse = use;
            }
        }
        if (oldest.isEmpty())
            return;
        const std::shared_ptr<const Site> evicted = m_bySlug.value(oldest);
        m_bySlug.insert(oldest, Site::placeholder(evicted->deployment, evicted->fileCount, evicted->totalBytes));
        m_loadedSlugs.remove(oldest);
    }
}

void SiteTable::remove(const QString &deploymentId)
{
    QWriteLocker locker(&m_lock);
    const QString slug = m_slugById.take(deploymentId);
    if (!slug.isEmpty()) {
        m_bySlug.remove(slug);
        m_loadedSlugs.remove(slug);
    }
}

int SiteTable::loadedLimit() const
{
    QReadLocker locker(&m_lock);
    return m_loadedLimit;
}

void SiteTable::setLoadedLimit(int count)
{
    QWriteLocker locker(&m_lock);
    m_loadedLimit = qMax(1, count);
    evictOver(QString());
}

int SiteTable::loadedCount() const
{
    QReadLocker locker(&m_lock);
    return int(m_loadedSlugs.size());
}

QString SiteTable::slugOf(const QString &deploymentId) const
{
    QReadLocker locker(&m_lock);
    return m_slugById.value(deploymentId);
}

QHash<QString, QString> SiteTable::slugsById() const
{
    QReadLocker locker(&m_lock);
    return m_slugById;
}

int SiteTable::size() const
{
    QReadLocker locker(&m_lock);
    return int(m_bySlug.size());
}

} // namespace berth
