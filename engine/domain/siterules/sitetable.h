#pragma once

#include "domain/common/contentcoding.h"
#include "domain/siterules/headerrules.h"
#include "domain/siterules/redirectrules.h"
#include "storage/deployment.h"

#include <QHash>
#include <QReadWriteLock>
#include <QSet>
#include <QString>
#include <atomic>
#include <memory>

namespace berth {

class BlobStore;

// What serving needs of one file, precomputed at deploy time.
struct SiteFile
{
    QByteArray blob; // hex SHA-256
    qint64 size = 0;
    QByteArray contentType;
    QByteArray etag; // strong ETag: the quoted content hash
    // A precompressed encoding of the file.
    struct Variant
    {
        qint64 size = 0; // 0 when there is none
        // Its own ETag ("<hash>-br", quoted), so that each encoding is validated apart; also its name in caches,
        // which no blob's name can be.
        QByteArray etag;
    };
    std::array<Variant, kContentCodingCount> variants; // by ContentCoding

    const Variant &variant(ContentCoding coding) const { return variants[size_t(coding)]; }
    bool hasVariants() const;
};

// An immutable snapshot of one live deployment: replaced whole on every change, so a request
// that already holds it keeps a consistent view. A placeholder (loaded false) carries the deployment and its file
// totals only: at start every site is one, and its file table is read from the database on its first request, off
// the serving threads (SiteServer's loader), so that starting with many deployments costs neither time nor memory.
struct Site
{
    Deployment deployment;
    bool loaded = true; // false: a placeholder, without files, rules or warnings
    // A kept version served read-only at its own address (SiteAddresses::versionUrl); 0 for the live site.
    int version = 0;
    int fileCount = 0; // every file of the served version, the rules files included
    qint64 totalBytes = 0;
    QHash<QString, SiteFile> files; // by normalised path
    // The deployment's _redirects and _headers, compiled once here (those two files are not served themselves).
    RedirectRules redirects;
    HeaderRules headers;
    QStringList ruleWarnings; // the lines of those files that were skipped, with their numbers

    static constexpr qint64 kMaxRulesFileBytes = 1024 * 1024; // a larger rules file is ignored, with a warning
    static bool isRulesFile(const QString &path) { return path == u"_redirects" || path == u"_headers"; }

    const SiteFile *file(const QString &path) const;
    static std::shared_ptr<const Site> make(
        const Deployment &deployment, const QList<StoredFile> &files, const BlobStore &blobs, int version = 0);
    static std::shared_ptr<const Site> placeholder(const Deployment &deployment, int fileCount, qint64 totalBytes);

    // The table's generation when a serving thread last found this site: what SiteTable evicts by. Written at most
    // once per generation, so that serving a popular site from every core does not write one line from all of them.
    mutable std::atomic<quint64> lastUse {0};
};

// The in-memory map from slug to live site that every site request reads: no SQL on the hot path.
// Thread-safe: readers never wait for a deploy, only for the pointer swap. Each thread keeps the sites it found
// (ThreadLocalCache), dropped when the table changes, so that a site request takes no lock another thread takes.
// At most loadedLimit() sites keep their file tables; putting one more turns the least recently found of the others
// back into a placeholder, so memory stays bounded however many deployments there are.
class SiteTable final
{
public:
    SiteTable();
    Q_DISABLE_COPY_MOVE(SiteTable)

    static constexpr int kDefaultLoadedLimit = 1000;
    // The sites one thread keeps found (absent slugs included, so that unknown hosts do not take the lock either).
    static constexpr int kThreadCacheEntries = 256;

    std::shared_ptr<const Site> find(const QString &slug) const; // a placeholder or a loaded site
    void put(std::shared_ptr<const Site> site); // replaces the deployment's previous entry, under any slug
    int loadedLimit() const;
    void setLoadedLimit(int count); // at least 1
    int loadedCount() const;
    void remove(const QString &deploymentId);
    int size() const;
    QString slugOf(const QString &deploymentId) const; // empty when the deployment is not live
    QHash<QString, QString> slugsById() const; // every live site

    // Kept versions loaded for their own addresses, at most kVersionLimit of them (the least recently found go
    // first). A deployment's versions are dropped whenever it is put or removed, so none outlives a change of its
    // access rules or its pruning.
    static constexpr int kVersionLimit = 32;
    std::shared_ptr<const Site> findVersion(const QString &deploymentId, int number) const;
    void putVersion(std::shared_ptr<const Site> version);
    int versionCount() const;

private:
    std::shared_ptr<const Site> findShared(const QString &slug) const;
    void stampUse(const Site &site) const;
    void changed(); // under the write lock, after every change: the threads' caches are stale from here
    void evictOver(const QString &keptSlug); // under the write lock
    void dropVersionsOf(const QString &deploymentId); // under the write lock
    static QString versionKey(const QString &deploymentId, int number);

    const quint64 m_id;
    // Bumped (under the write lock) by every change; read without it by every find.
    std::atomic<quint64> m_generation {1};
    mutable QReadWriteLock m_lock;
    QHash<QString, std::shared_ptr<const Site>> m_bySlug;
    QHash<QString, QString> m_slugById;
    QSet<QString> m_loadedSlugs; // the entries that hold file tables
    QHash<QString, std::shared_ptr<const Site>> m_versions; // by versionKey
    int m_loadedLimit = kDefaultLoadedLimit;
};

} // namespace berth
