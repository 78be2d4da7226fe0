#pragma once

#include "domain/common/threadlocalcache.h"

#include <QByteArray>
#include <QCache>
#include <QMutex>
#include <array>

namespace berth {

// Small blobs kept in memory, so a popular page is answered without touching the disk. Blobs are
// immutable, so an entry never goes stale; the least recently used fall out past the budget.
// Thread-safe for the serving threads: the cache is split into shards by key, each with its own lock and a
// share of the budget, so threads rarely meet on one lock. In front of it each serving thread keeps copies of its
// own of what it served (ThreadLocalCache): a popular page is then answered without a lock or a reference count
// that other threads touch.
class HotFileCache final
{
public:
    static constexpr qint64 kMaxCachedFileBytes = 512 * 1024;
    static constexpr qint64 kBudgetBytes = 64 * 1024 * 1024;
    static constexpr int kShards = 16;
    // What one thread keeps of its own, on top of the shared budget.
    static constexpr qint64 kThreadBudgetBytes = 4 * 1024 * 1024;
    static constexpr int kThreadEntries = 4096;

    HotFileCache();
    Q_DISABLE_COPY_MOVE(HotFileCache)

    static bool isCacheable(qint64 size) { return size <= kMaxCachedFileBytes; }
    // The bytes of an immutable file (a blob or one of its variants) under its cache key, read from
    // the path that pathOnMiss() names only on a miss; a null QByteArray when it cannot be read.
    template<typename PathFunction>
    QByteArray get(const QByteArray &key, PathFunction pathOnMiss)
    {
        using ThreadCopies = ThreadLocalCache<HotFileCache, QByteArray, QByteArray>;
        ThreadCopies &copies = ThreadCopies::of(m_id);
        if (const QByteArray *copy = copies.find(key))
            return *copy;
        const QByteArray shared = getShared(key, pathOnMiss);
        if (shared.isEmpty())
            return shared;
        QByteArray copy(shared.constData(), shared.size()); // its reference count is this thread's alone
        copies.insert(key, copy, copy.size(), kThreadEntries, kThreadBudgetBytes);
        return copy;
    }

private:
    template<typename PathFunction>
    QByteArray getShared(const QByteArray &key, PathFunction pathOnMiss)
    {
        Shard &shard = shardFor(key);
        {
            const QMutexLocker locker(&shard.mutex);
            if (const QByteArray *cached = shard.cache.object(key))
                return *cached;
        }
        return load(shard, key, pathOnMiss());
    }

    struct Shard
    {
        QMutex mutex;
        QCache<QByteArray, QByteArray> cache; // cost: bytes
    };

    Shard &shardFor(const QByteArray &key) { return m_shards[qHash(key) % kShards]; }
    static QByteArray load(Shard &shard, const QByteArray &key, const QString &path);

    const quint64 m_id;
    std::array<Shard, kShards> m_shards;
};

} // namespace berth
