#include "site/hotfilecache.h"

#include <QFile>

namespace berth {

HotFileCache::HotFileCache()
    : m_id(ThreadLocalCaches::newOwnerId())
{
    for (Shard &shard : m_shards)
        shard.cache.setMaxCost(kBudgetBytes / kShards);
}

QByteArray HotFileCache::load(Shard &shard, const QByteArray &key, const QString &path)
{
    // Read outside the lock: two threads may read the same small file once each, which is cheaper than making
    // every other request of the shard wait for a disk read.
    QFile file(path);
    if (path.isEmpty() || !file.open(QIODevice::ReadOnly))
        return {};
    QByteArray bytes = file.readAll();
    if (bytes.isNull())
        bytes = QByteArray("");
    const QMutexLocker locker(&shard.mutex);
    shard.cache.insert(key, new QByteArray(bytes), qMax<qsizetype>(1, bytes.size()));
    return bytes;
}

} // namespace berth
