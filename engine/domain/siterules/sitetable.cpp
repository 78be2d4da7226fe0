#include "domain/siterules/sitetable.h"

#include "domain/common/gzip.h"
#include "domain/common/threadlocalcache.h"
#include "storage/blobstore.h"

#include <algorithm>

namespace berth {

bool SiteFile::hasVariants() const
{
    return std::any_of(variants.cbegin(), variants.cend(), [](const Variant &variant) { return variant.size > 0; });
}

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
    const Deployment &deployment, const QList<StoredFile> &files, const BlobStore &blobs, int version)
{
    auto site = std::make_shared<Site>();
    site->deployment = deployment;
    site->version = version;
    site->fileCount = int(files.size());
    site->files.reserve(files.size());
    // The compressed variants this node holds, and (blobs in the database) those it has not fetched yet: a site
    // deployed through another node is served compressed here too. Fetched on the first request that chooses them.
    // Only files a deploy compresses can have them: a static site generator's thousands of small pages cost no look
    // at the folder.
    QList<QByteArray> hashes;
    hashes.reserve(files.size());
    for (const StoredFile &file : files) {
        if (!Site::isRulesFile(file.path) && Gzip::isWorthCompressing(file.contentType, file.size))
            hashes.append(file.blob);
    }
    std::array<QHash<QByteArray, qint64>, kContentCodingCount> variantSizes;
    for (const ContentCoding coding : kContentCodings)
        variantSizes[size_t(coding)] = blobs.variantSizes(hashes, ContentCodings::suffix(coding));
    for (const StoredFile &file : files) {
        site->totalBytes += file.size;
        if (Site::isRulesFile(file.path)) {
            compileRules(*site, file, blobs);
            continue;
        }
        SiteFile served {file.blob, file.size, file.contentType, '"' + file.blob + '"', {}};
        for (const ContentCoding coding : kContentCodings) {
            const qint64 size = variantSizes[size_t(coding)].value(file.blob);
            if (size <= 0)
                continue;
            const QByteArray &suffix = ContentCodings::suffix(coding);
            served.variants[size_t(coding)] = {size, '"' + file.blob + '-' + suffix + '"'};
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

SiteTable::SiteTable()
    : m_id(ThreadLocalCaches::newOwnerId())
{
}

namespace {
struct FoundSites; // the tag of the threads' caches of found sites
} // namespace

std::shared_ptr<const Site> SiteTable::find(const QString &slug) const
{
    using Cache = ThreadLocalCache<FoundSites, QString, std::shared_ptr<const Site>>;
    Cache &cache = Cache::of(m_id, m_generation.load(std::memory_order_acquire));
    std::shared_ptr<const Site> site;
    if (const auto *found = cache.find(slug)) {
        site = *found;
    } else {
        // Kept as found, absent or not: a change since the generation read above only makes the next find look again.
        site = ThreadLocalCaches::threadOwned(findShared(slug));
        cache.insert(slug, site, 1, kThreadCacheEntries, kThreadCacheEntries);
    }
    if (site && site->loaded)
        stampUse(*site);
    return site;
}

std::shared_ptr<const Site> SiteTable::findShared(const QString &slug) const
{
    QReadLocker locker(&m_lock);
    return m_bySlug.value(slug);
}

void SiteTable::stampUse(const Site &site) const
{
    const quint64 generation = m_generation.load(std::memory_order_relaxed);
    if (site.lastUse.load(std::memory_order_relaxed) < generation)
        site.lastUse.store(generation, std::memory_order_relaxed);
}

void SiteTable::changed()
{
    m_generation.fetch_add(1, std::memory_order_release);
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
        stampUse(*site);
    dropVersionsOf(id);
    m_slugById.insert(id, slug);
    m_bySlug.insert(slug, std::move(site));
    if (loaded) {
        m_loadedSlugs.insert(slug);
        evictOver(slug);
    } else {
        m_loadedSlugs.remove(slug);
    }
    changed();
}

void SiteTable::evictOver(const QString &keptSlug)
{
    // A linear scan of the loaded entries only (at most the limit, plus one): cheap next to the load that led here.
    while (m_loadedSlugs.size() > m_loadedLimit) {
        QString oldest;
        quint64 oldestUse = 0;
        for (const QString &slug : std::as_const(m_loadedSlugs)) {
            if (slug == keptSlug)
                continue;
            const quint64 use = m_bySlug.value(slug)->lastUse.load(std::memory_order_relaxed);
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
    dropVersionsOf(deploymentId);
    const QString slug = m_slugById.take(deploymentId);
    if (!slug.isEmpty()) {
        m_bySlug.remove(slug);
        m_loadedSlugs.remove(slug);
    }
    changed();
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
    changed();
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

QString SiteTable::versionKey(const QString &deploymentId, int number)
{
    return deploymentId + u'/' + QString::number(number);
}

std::shared_ptr<const Site> SiteTable::findVersion(const QString &deploymentId, int number) const
{
    std::shared_ptr<const Site> version;
    {
        QReadLocker locker(&m_lock);
        version = m_versions.value(versionKey(deploymentId, number));
    }
    if (version)
        stampUse(*version);
    return version;
}

void SiteTable::putVersion(std::shared_ptr<const Site> version)
{
    QWriteLocker locker(&m_lock);
    if (!m_slugById.contains(version->deployment.id)) // removed while it was read
        return;
    stampUse(*version);
    m_versions.insert(versionKey(version->deployment.id, version->version), std::move(version));
    while (m_versions.size() > kVersionLimit) {
        auto oldest = m_versions.begin();
        for (auto it = m_versions.begin(); it != m_versions.end(); ++it) {
            if (it.value()->lastUse.load(std::memory_order_relaxed)
                < oldest.value()->lastUse.load(std::memory_order_relaxed))
                oldest = it;
        }
        m_versions.erase(oldest);
    }
    changed();
}

void SiteTable::dropVersionsOf(const QString &deploymentId)
{
    m_versions.removeIf([&deploymentId](const auto &entry) { return entry.value()->deployment.id == deploymentId; });
}

int SiteTable::versionCount() const
{
    QReadLocker locker(&m_lock);
    return int(m_versions.size());
}

int SiteTable::size() const
{
    QReadLocker locker(&m_lock);
    return int(m_bySlug.size());
}

} // namespace berth
