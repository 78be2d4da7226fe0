#pragma once

#include <QHash>
#include <QtGlobal>
#include <memory>

namespace berth {

// A serving thread's own copies of entries of a table that every serving thread reads, so that a hit writes nothing
// that another thread reads or writes: no lock taken, no shared reference count moved. That is what lets a request
// cost the same on every core; a lock or a count that all threads touch makes each core's write evict the line from
// the others' caches, a cost that grows with every core added.
//
// One per thread, table kind (Tag) and table: a table is told apart by an owner id (newOwnerId()), and the copies are
// dropped whenever the caller names another owner or a newer generation of its table. Bounded by entries and by a
// cost the caller gives (bytes); past either it starts again empty, which keeps what it costs per thread known.
template<typename Tag, typename Key, typename Value>
class ThreadLocalCache final
{
public:
    // The calling thread's cache for that table as of that generation (0 for a table whose entries never change).
    static ThreadLocalCache &of(quint64 owner, quint64 generation = 0)
    {
        thread_local ThreadLocalCache cache;
        if (cache.m_owner != owner || cache.m_generation != generation) {
            cache.m_entries.clear();
            cache.m_cost = 0;
            cache.m_owner = owner;
            cache.m_generation = generation;
        }
        return cache;
    }

    const Value *find(const Key &key) const
    {
        const auto it = m_entries.constFind(key);
        return it == m_entries.constEnd() ? nullptr : &it.value();
    }

    void insert(const Key &key, Value value, qint64 cost, int maxEntries, qint64 maxCost)
    {
        if (cost > maxCost)
            return; // never kept: no reason to drop what is
        if (m_entries.size() >= maxEntries || m_cost + cost > maxCost) {
            m_entries.clear();
            m_cost = 0;
        }
        m_entries.insert(key, std::move(value));
        m_cost += cost;
    }

private:
    ThreadLocalCache() = default;

    quint64 m_owner = 0;
    quint64 m_generation = 0;
    qint64 m_cost = 0;
    QHash<Key, Value> m_entries;
};

namespace ThreadLocalCaches {

// A number no other table of this process has had, for ThreadLocalCache::of().
quint64 newOwnerId();

// A pointer to the same object whose reference count is this thread's alone: copies made from it on this thread
// move a count in memory no other thread writes (the shared count is moved once, here).
template<typename T>
std::shared_ptr<const T> threadOwned(std::shared_ptr<const T> shared)
{
    if (!shared)
        return shared;
    auto holder = std::make_shared<std::shared_ptr<const T>>(std::move(shared));
    const T *object = holder->get();
    return std::shared_ptr<const T>(std::move(holder), object);
}

} // namespace ThreadLocalCaches

} // namespace berth
