#pragma once

#include "core/error.h"

#include <QByteArray>
#include <QSet>
#include <QString>
#include <functional>

namespace berth {

// Content-addressed, immutable file store: a blob's name is the lower-case hex SHA-256 of its bytes and it lives at
// <root>/ab/cdef... (the first two hex characters name a folder). Every file appears by an atomic rename of a synced
// temporary file, so a reader or a crash sees a whole blob or none.
//
// Thread-safe: the object holds only its root; concurrent puts of the same content write separate temporary files
// and the last rename wins with identical bytes. collectGarbage() must not run while a deploy is between put() and
// the commit that references its blobs: the caller serialises the two.
class BlobStore final
{
    Q_DISABLE_COPY_MOVE(BlobStore)
public:
    explicit BlobStore(const QString &rootDir);

    // Creates the root, removes temporary files left by a crash mid-write and makes folders that an older Berth left
    // open to others private again (with their files). Reads each shard folder once; fast with 10,000s of blobs.
    Result<void> init();

    static QByteArray hashOf(const QByteArray &data);
    static bool isValidHash(const QByteArray &hash); // 64 lower-case hex characters
    static bool isValidSuffix(const QByteArray &suffix); // 1-4 of [a-z0-9], e.g. "gz", "br"

    // Stores data under its hash unless already present; returns the hash, or InsufficientStorage for a full disk
    // (or quota), Internal otherwise (a server-side detail with paths: for the log, never for a client).
    Result<QByteArray> put(const QByteArray &data);
    bool contains(const QByteArray &hash) const;
    QString pathOf(const QByteArray &hash) const; // empty for an invalid hash: no path can escape the root
    QByteArray read(const QByteArray &hash) const; // empty on failure

    // A precompressed variant of an existing blob, stored as <path>.<suffix> the same safe way.
    Result<void> putVariant(const QByteArray &hash, const QByteArray &suffix, const QByteArray &data);
    QString variantPathOf(const QByteArray &hash, const QByteArray &suffix) const; // empty when absent

    // Removes every blob, and its variants, whose hash is not in keep; returns how many blobs were removed. Walks the
    // whole store: for the sweep at start; later removals name their blobs (remove()).
    int collectGarbage(const QSet<QByteArray> &keep);
    // Removes one blob and its variants; false when something could not be removed (logged). Absent is fine.
    bool remove(const QByteArray &hash);

    QString rootDir() const;

    // For tests: called before each file is written; a non-zero errno makes that write fail as if the system had
    // refused it (ENOSPC: a full disk). Set before the store is shared between threads.
    using WriteFault = std::function<int(const QString &path)>;
    void setWriteFault(WriteFault fault) { m_writeFault = std::move(fault); }

private:
    Result<void> writeFile(const QString &path, const QByteArray &data) const; // logged when it fails

    const QString m_root;
    WriteFault m_writeFault;
};

} // namespace berth
