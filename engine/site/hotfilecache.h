#pragma once

#include <QByteArray>
#include <QCache>

namespace berth {

// Small blobs kept in memory, so a popular page is answered without touching the disk. Blobs are
// immutable, so an entry never goes stale; the least recently used fall out past the budget.
class HotFileCache final
{
public:
    static constexpr qint64 kMaxCachedFileBytes = 512 * 1024;
    static constexpr qint64 kBudgetBytes = 64 * 1024 * 1024;

    HotFileCache();
    Q_DISABLE_COPY_MOVE(HotFileCache)

    static bool isCacheable(qint64 size) { return size <= kMaxCachedFileBytes; }
    // The bytes of an immutable file (a blob or one of its variants) under its cache key, read from
    // the path that pathOnMiss() names only on a miss; a null QByteArray when it cannot be read.
    template<typename PathFunction>
    QByteArray get(const QByteArray &key, PathFunction pathOnMiss)
    {
        if (const QByteArray *cached = m_cache.object(key))
            return *cached;
        return load(key, pathOnMiss());
    }

private:
    QByteArray load(const QByteArray &key, const QString &path);

    QCache<QByteArray, QByteArray> m_cache; // cost: bytes
};

} // namespace berth
