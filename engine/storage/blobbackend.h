#pragma once

#include "core/error.h"

#include <QByteArray>
#include <QSet>
#include <functional>

namespace berth {

// Where a node's blobs live besides its own data folder: a store that every node shares (the PostgreSQL chunk table,
// PostgresBlobBackend). BlobStore writes through to it and, for a blob its folder lacks, fetches from it into the
// folder, which then serves as the node's cache. Without one (SQLite), the folder is the only copy.
//
// A blob is named by its hash; suffix names one of its precompressed variants ("gz"), empty for the blob itself.
// Implementations are used from several threads at once (deploy workers, the fetch pool, the engine thread) and must
// never be called on a thread that serves visitors: every call may wait for the network.
class BlobBackend
{
    Q_DISABLE_COPY_MOVE(BlobBackend)
public:
    BlobBackend() = default;
    virtual ~BlobBackend() = default;

    // Stores data unless that blob (or variant) is stored already: content-addressed, so idempotent. All of it or
    // nothing.
    virtual Result<void> store(const QByteArray &hash, const QByteArray &suffix, const QByteArray &data) = 0;
    virtual Result<bool> has(const QByteArray &hash, const QByteArray &suffix) = 0;
    // Hands the stored bytes to `sink` piece by piece, in order, never the whole at once; false when absent. A sink
    // that returns false stops the load, which then fails.
    using ChunkSink = std::function<bool(const QByteArray &piece)>;
    virtual Result<bool> load(const QByteArray &hash, const QByteArray &suffix, const ChunkSink &sink) = 0;
    // Removes a blob and its variants; absent is fine.
    virtual Result<void> remove(const QByteArray &hash) = 0;
    // Removes every blob not in keep that was stored a while ago (other nodes may be between storing a blob and
    // committing the deploy that references it); returns how many blobs went.
    virtual Result<int> removeAllExcept(const QSet<QByteArray> &keep) = 0;
};

} // namespace berth
