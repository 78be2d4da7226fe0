#pragma once

#include "storage/blobbackend.h"

#include <QSqlDatabase>
#include <QString>
#include <functional>

namespace berth {

class Database;

// Blobs in PostgreSQL's blob_chunks table (migration 7): each blob or variant as rows of at most kChunkBytes, so that
// neither side ever holds a large file as one value. Writes are one transaction per blob, or per group of a deploy's
// blobs (storeAll); reads fetch one chunk per statement. Every store, renewal and removal of a blob takes an advisory
// lock on its hash inside its transaction, so that a removal's check sees every store that came before it and a store
// after a removal writes the blob again.
//
// QtSql connections belong to the thread that opened them: each thread that uses the backend gets a connection of its
// own on first use, closed when that thread ends (or, for the thread that destroys the backend, then).
class PostgresBlobBackend final : public BlobBackend
{
    Q_DISABLE_COPY_MOVE(PostgresBlobBackend)
public:
    static constexpr int kChunkBytes = 1024 * 1024;
    // How long a removal spares an unreferenced blob after it was stored (or renewed), on the database's clock:
    // longer than any deploy takes between storing its files and committing.
    static constexpr int kGraceSeconds = 3600;
    static constexpr int kGroupPieces = 200; // well below the lock table's room for one transaction's advisory locks
    static constexpr qsizetype kGroupBytes = 8 * 1024 * 1024;

    explicit PostgresBlobBackend(const QString &serverUrl); // a postgresql:// URL (DatabaseUrl)
    ~PostgresBlobBackend() override;

    Result<bool> store(const QByteArray &hash, const QByteArray &suffix, const QByteArray &data) override;
    // One transaction per group of up to kGroupPieces pieces (kGroupBytes of data): the locks of the group's blobs
    // taken in order, one statement renewing those stored already, multi-row inserts for the others.
    Result<QList<bool>> storeAll(const QList<Piece> &pieces) override;
    Result<bool> retain(const QByteArray &hash) override;
    Result<QSet<QByteArray>> retainAll(const QList<QByteArray> &hashes) override; // in groups, as storeAll()
    Result<bool> has(const QByteArray &hash, const QByteArray &suffix) override;
    Result<QHash<QByteArray, qint64>> variantSizes(const QList<QByteArray> &hashes, const QByteArray &suffix) override;
    Result<bool> load(const QByteArray &hash, const QByteArray &suffix, const ChunkSink &sink) override;
    Result<bool> remove(const QByteArray &hash) override;
    Result<int> removeAllExcept(const QSet<QByteArray> &keep) override;

private:
    Result<Database *> database();
    // Runs `work` on this thread's connection in a transaction that holds the blob's lock (store, retain and remove
    // take turns on one blob), and commits when it succeeds.
    using LockedWork = std::function<Result<bool>(const QSqlDatabase &connection)>;
    Result<bool> underBlobLock(const QByteArray &hash, const LockedWork &work);
    Result<void> storeGroup(const QList<Piece> &group, QList<bool> &written);

    const QString m_serverUrl;
    const quint64 m_id; // tells this backend's per-thread connections from those of another
};

} // namespace berth
