#pragma once

#include "core/error.h"

#include <QByteArray>
#include <QHash>
#include <QList>
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
//
// Several nodes share the store: one may remove a blob that its own sites stopped using while another is between
// storing the same content and committing the deploy that references it. So a removal spares what a committed file
// list references and what was stored (or renewed by store() or retain()) within a grace period, longer than any
// deploy takes from its first store to its commit.
class BlobBackend
{
    Q_DISABLE_COPY_MOVE(BlobBackend)
public:
    BlobBackend() = default;
    virtual ~BlobBackend() = default;

    // Stores data, or, when that blob (or variant) is stored already, renews its stamp, so that it counts as stored
    // just now: content-addressed, so idempotent. All of it or nothing. True when the data was written now (the blob
    // was absent, maybe removed a moment ago), false when it was there.
    virtual Result<bool> store(const QByteArray &hash, const QByteArray &suffix, const QByteArray &data) = 0;
    // store() for many blobs (and variants) at once, on the same terms for each, in as few round trips as the store
    // allows: a deploy's thousands of small files. All of it or nothing. Whether each piece was written now.
    struct Piece
    {
        QByteArray hash;
        QByteArray suffix;
        QByteArray data;
    };
    virtual Result<QList<bool>> storeAll(const QList<Piece> &pieces)
    {
        QList<bool> written;
        written.reserve(pieces.size());
        for (const Piece &piece : pieces) {
            const Result<bool> stored = store(piece.hash, piece.suffix, piece.data);
            if (!stored)
                return stored.error();
            written.append(stored.value());
        }
        return written;
    }
    // Renews the stamp of a stored blob, for a deploy that reuses it without sending it again; false when it is not
    // stored (then its content must be sent).
    virtual Result<bool> retain(const QByteArray &hash) = 0;
    // retain() for many blobs at once (a deploy that reuses thousands): those that are stored, each renewed.
    virtual Result<QSet<QByteArray>> retainAll(const QList<QByteArray> &hashes)
    {
        QSet<QByteArray> retained;
        for (const QByteArray &hash : hashes) {
            const Result<bool> held = retain(hash);
            if (!held)
                return held.error();
            if (held.value())
                retained.insert(hash);
        }
        return retained;
    }
    virtual Result<bool> has(const QByteArray &hash, const QByteArray &suffix) = 0;
    // The sizes of the variant `suffix` of those of the blobs that have one stored.
    virtual Result<QHash<QByteArray, qint64>> variantSizes(const QList<QByteArray> &hashes, const QByteArray &suffix)
        = 0;
    // Hands the stored bytes to `sink` piece by piece, in order, never the whole at once; false when absent. A sink
    // that returns false stops the load, which then fails.
    using ChunkSink = std::function<bool(const QByteArray &piece)>;
    virtual Result<bool> load(const QByteArray &hash, const QByteArray &suffix, const ChunkSink &sink) = 0;
    // Removes a blob and its variants unless a committed file list references it or it was stored within the grace
    // (see above). True when it is gone (absent is fine), false when it was kept.
    virtual Result<bool> remove(const QByteArray &hash) = 0;
    // Removes every blob not in keep, on the same terms as remove(); returns how many blobs went.
    virtual Result<int> removeAllExcept(const QSet<QByteArray> &keep) = 0;
};

} // namespace berth
