#include "hotfilecache.h"

#include "storage/blobstore.h"

namespace berth {

HotFileCache::HotFileCache(const BlobStore &blobs)
    : m_blobs(blobs)
    , m_cache(kBudgetBytes)
{
}

QByteArray HotFileCache::get(const QByteArray &hash)
{
    if (const QByteArray *cached = m_cache.object(hash))
        return *cached;
    QByteArray bytes = m_blobs.read(hash);
    if (bytes.isNull())
        return bytes;
    m_cache.insert(hash, new QByteArray(bytes), qMax<qsizetype>(1, bytes.size()));
    return bytes;
}

} // namespace berth
