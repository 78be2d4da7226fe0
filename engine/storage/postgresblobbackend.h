#pragma once

#include "blobbackend.h"

#include <QString>

namespace berth {

class Database;

// Blobs in PostgreSQL's blob_chunks table (migration 7): each blob or variant as rows of at most kChunkBytes, so that
// neither side ever holds a large file as one value. Writes are one transaction per blob; reads fetch one chunk per
// statement.
//
// QtSql connections belong to the thread that opened them: each thread that uses the backend gets a connection of its
// own on first use, closed when that thread ends (or, for the thread that destroys the backend, then).
class PostgresBlobBackend final : public BlobBackend
{
    Q_DISABLE_COPY_MOVE(PostgresBlobBackend)
public:
    static constexpr int kChunkBytes = 1024 * 1024;
    // How long the sweep spares an unreferenced blob: longer than any deploy takes between storing and committing.
    static constexpr int kSweepGraceSeconds = 3600;

    explicit PostgresBlobBackend(const QString &serverUrl); // a postgresql:// URL (DatabaseUrl)
    ~PostgresBlobBackend() override;

    Result<void> store(const QByteArray &hash, const QByteArray &suffix, const QByteArray &data) override;
    Result<bool> has(const QByteArray &hash, const QByteArray &suffix) override;
    Result<bool> load(const QByteArray &hash, const QByteArray &suffix, const ChunkSink &sink) override;
    Result<void> remove(const QByteArray &hash) override;
    Result<int> removeAllExcept(const QSet<QByteArray> &keep) override;

private:
    Result<Database *> database();

    const QString m_serverUrl;
    const quint64 m_id; // tells this backend's per-thread connections from those of another
};

} // namespace berth
