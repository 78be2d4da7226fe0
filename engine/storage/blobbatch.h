#pragma once

#include "core/error.h"
#include "storage/blobbackend.h"

#include <QByteArray>
#include <QList>
#include <QSet>
#include <memory>

namespace berth {

class BlobStore;
namespace blobfiles {
class ShardFolders;
}

// A deploy's blobs, written to the store's folder without a flush each and made durable together by flush(): one
// syncfs(2) of the folder's file system where put() pays an fdatasync and a directory fsync per file. With a backend,
// the blobs travel to it in groups (BlobBackend::storeAll) rather than one transaction each.
//
// Until flush() succeeds nothing written here may be referenced by a commit: after a crash or a power loss such a file
// may be missing or damaged, and being unreferenced, the sweep at the next start removes it. One batch per deploy,
// used by one thread at a time; the store outlives it.
class BlobBatch final
{
    Q_DISABLE_COPY_MOVE(BlobBatch)
public:
    explicit BlobBatch(BlobStore &store);
    ~BlobBatch();

    // BlobStore::put() and putVariant(), durable only after flush(). A variant's blob must be in the folder (put
    // through this batch, or stored before).
    Result<QByteArray> put(const QByteArray &data);
    Result<void> putVariant(const QByteArray &hash, const QByteArray &suffix, const QByteArray &data);
    // Makes everything put here durable, in the backend too. InsufficientStorage or Internal when it cannot: then
    // none of it may be referenced.
    Result<void> flush();

private:
    Result<void> sendToBackend();

    BlobStore &m_store;
    std::unique_ptr<blobfiles::ShardFolders> m_folders;
    QList<BlobBackend::Piece> m_unsent; // for the backend
    qsizetype m_unsentBytes = 0;
    QSet<QByteArray> m_blobs; // put here: their variants need no look at the folder
    QSet<QByteArray> m_cached; // put here and in the folder before
    bool m_unflushed = false; // files written since the last flush
};

} // namespace berth
