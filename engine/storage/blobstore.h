#pragma once

#include "core/error.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QSet>
#include <QString>
#include <functional>
#include <memory>

namespace berth {

class BlobBackend;
class BlobBatch;
namespace blobfiles {
class ShardFolders;
}

// Content-addressed, immutable file store: a blob's name is the lower-case hex SHA-256 of its bytes and it lives at
// <root>/ab/cdef... (the first two hex characters name a folder). Every file gets its name only once whole (an
// unnamed file linked in, or a temporary file renamed), so a reader sees a whole blob or none. put() and putVariant()
// make each file durable before they return; a deploy writes through a BlobBatch instead, which makes all of its files
// durable together before the commit that references them (a crash before then leaves only unreferenced files, which
// the sweep at start removes).
//
// Thread-safe: the object holds only its root; concurrent puts of the same content write separate files and the
// first to be named wins (a rename: the last), with identical bytes. collectGarbage() must not run while a deploy is
// between put() and the commit that references its blobs: the caller serialises the two.
//
// With a backend (PostgreSQL, shared by every node), every blob is written there first and the folder becomes this
// node's cache of them: a blob the folder lacks is fetched from the backend on first need (read(), fetch()), and the
// folder is kept under a size limit by removing the least recently used files that the backend holds.
class BlobStore final
{
    Q_DISABLE_COPY_MOVE(BlobStore)
public:
    explicit BlobStore(const QString &rootDir);
    ~BlobStore();

    // Creates the root, removes temporary files left by a crash mid-write and makes folders that an older Berth left
    // open to others private again (with their files). Reads each shard folder once; fast with 10,000s of blobs.
    Result<void> init();

    static QByteArray hashOf(const QByteArray &data);
    static bool isValidHash(const QByteArray &hash); // 64 lower-case hex characters
    static bool isValidSuffix(const QByteArray &suffix); // 1-4 of [a-z0-9], e.g. "gz", "br"

    // Puts the shared store behind the folder, which then holds at most about cacheLimitBytes (a file used within
    // the last recentUseMs, maybe being sent to a visitor, is never evicted). Set before the store is shared between
    // threads; the backend outlives the store.
    void setBackend(BlobBackend *backend, qint64 cacheLimitBytes, int recentUseMs = 10000);
    bool hasBackend() const { return m_backend != nullptr; }
    // Whether the blob (suffix empty) or its variant is in the folder now; notes the use for the cache. Only a stat:
    // for serving threads.
    bool isCached(const QByteArray &hash, const QByteArray &suffix = {}) const;
    // Copies a blob (or variant) from the backend into the folder unless it is there; NotFound when the backend lacks
    // it too. The blob's bytes are checked against its hash. Waits for the backend: never on a serving thread.
    Result<void> fetch(const QByteArray &hash, const QByteArray &suffix = {}) const;
    qint64 cachedBytes() const; // what the folder holds as far as the cache knows (after its first trim: all)
    // For a deploy that reuses a blob without sending it: whether it is stored, renewing it in the backend so that
    // no node removes it before that deploy commits. Without a backend, whether the folder holds it. Waits for the
    // backend: never on a serving thread.
    Result<bool> retain(const QByteArray &hash) const;
    // retain() for many blobs, in a few round trips to the backend: those that are stored.
    Result<QSet<QByteArray>> retainAll(const QList<QByteArray> &hashes) const;
    // The sizes of the variant `suffix` of those blobs that have one: the folder's, and for the others the
    // backend's (a variant this node has not fetched yet). Blobs without it are left out, as are all but the
    // folder's when the backend cannot answer (logged). Waits for the backend: never on a serving thread.
    QHash<QByteArray, qint64> variantSizes(const QList<QByteArray> &hashes, const QByteArray &suffix) const;

    // Stores data under its hash unless already present; returns the hash, or InsufficientStorage for a full disk
    // (or quota), Internal otherwise (a server-side detail with paths: for the log, never for a client).
    Result<QByteArray> put(const QByteArray &data);
    bool contains(const QByteArray &hash) const; // in the folder, or else in the backend
    QString pathOf(const QByteArray &hash) const; // empty for an invalid hash: no path can escape the root
    QByteArray read(const QByteArray &hash) const; // empty on failure; fetched first when only the backend has it

    // A precompressed variant of an existing blob, stored as <path>.<suffix> the same safe way.
    Result<void> putVariant(const QByteArray &hash, const QByteArray &suffix, const QByteArray &data);
    QString variantPathOf(const QByteArray &hash, const QByteArray &suffix) const; // empty when not in the folder
    QList<QByteArray> variantsOf(const QByteArray &hash) const; // the suffixes of those in the folder

    // Removes every blob, and its variants, whose hash is not in keep; returns how many blobs were removed. Walks the
    // whole store: for the sweep at start; later removals name their blobs (remove()).
    int collectGarbage(const QSet<QByteArray> &keep);
    // Removes one blob and its variants named by variantSuffixes (those the deploys make; another is left to the
    // sweep at start), from the folder and the backend (there with every variant). The backend keeps (Kept) a blob
    // that a committed file list references or that was stored within its grace: another node may be about to commit
    // a deploy that uses it. Absent counts as removed; Failed is logged.
    enum class Removal
    {
        Removed,
        Kept,
        Failed
    };
    Removal remove(const QByteArray &hash, const QList<QByteArray> &variantSuffixes);

    QString rootDir() const;

    // For tests: called before each file is written; a non-zero errno makes that write fail as if the system had
    // refused it (ENOSPC: a full disk). Set before the store is shared between threads.
    using WriteFault = std::function<int(const QString &path)>;
    void setWriteFault(WriteFault fault) { m_writeFault = std::move(fault); }
    // For tests: called when a BlobBatch makes its files durable; a non-zero errno makes that flush fail (EIO: a
    // write-back the disk refused).
    using FlushFault = std::function<int()>;
    void setFlushFault(FlushFault fault) { m_flushFault = std::move(fault); }

private:
    friend class BlobBatch;
    // Writes a blob (suffix empty) or one of its variants into its shard folder unless a whole copy is there; with
    // flush, durable on return (see blobfiles::writeWhole). True when written now; logged when it fails.
    Result<bool> storeFile(blobfiles::ShardFolders &folders, const QByteArray &hash, const QByteArray &suffix,
        const QByteArray &data, bool flush) const;
    Result<void> fetchInto(const QString &path, const QByteArray &hash, const QByteArray &suffix) const;
    void restoreVariants(const QByteArray &hash) const; // the folder's variants of it, into the backend (logged)
    void noteUse(const QString &path, qint64 size) const;
    void forget(const QString &path) const;
    void trimCache(const QString &justUsed) const;

    const QString m_root;
    WriteFault m_writeFault;
    FlushFault m_flushFault;
    BlobBackend *m_backend = nullptr;
    struct Cache;
    std::unique_ptr<Cache> m_cache; // with a backend only
};

} // namespace berth
