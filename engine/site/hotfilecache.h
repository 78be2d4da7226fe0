#pragma once

#include <QByteArray>
#include <QCache>
#include <QMutex>
#include <array>

namespace berth {

// Small blobs kept in memory, so a popular page is answered without touching the disk. Blobs are
// immutable, so an entry never goes stale; the least recently used fall out past the budget.
// Thread-safe for the serving threads: the cache is split into shards by key, each with its own lock and a
// share of the budget, so threads rarely meet on one lock.
class HotFileCache final
{
public:
    static constexpr qint64 kMaxCachedFileBytes = 512 * 1024;
    static constexpr qint64 kBudgetBytes = 64 * 1024 * 1024;
    static constexpr int kShards = 16;

    HotFileCache();
    Q_DISABLE_COPY_MOVE(HotFileCache)

    static bool isCacheable(qint64 size) { return size <= kMaxCachedFileBytes; }
    // The bytes of an immutable file (a blob or one of its variants) under its cache key, read from
    // the path that pathOnMiss() names only on a miss; a null QByteArray when it cannot be read.
    template<typename PathFunction>
    QByteArray get(const QByteArray &key, PathFunction pathOnMiss)
    {
        Shard &shard = shardFor(key);
        {
            const QMutexLocker locker(&shard.mutex);
            if (const QByteArray *cached = shard.cache.object(key))
                return *cached;
        }
        return load(shard, key, pathOnMiss());
    }

private:
    struct Shard
    {
        QMutex mutex;
        QCache<QByteArray, QByteArray> cache; // cost: bytes
    };

    Shard &shardFor(const QByteArray &key) { return m_shards[qHash(key) % kShards]; }
    static QByteArray load(Shard &shard, const QByteArray &key, const QString &path);

    std::array<Shard, kShards> m_shards;
};

} // namespace berth
