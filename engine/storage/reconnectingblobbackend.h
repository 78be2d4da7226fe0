#pragma once

#include "storage/blobbackend.h"

namespace berth {

// A BlobBackend that tries a call once more when it failed because the connection had dropped (Unavailable: the
// database restarted, say, since this thread last used it). A thread's connection learns of a restart only at its
// first statement after it, which fails; the backend then connects again on the next call. Without this, the first
// deploy after the database came back would fail for nothing.
//
// A retry is safe because every call is idempotent (BlobBackend stores content-addressed blobs, each store all or
// nothing; a renewal of its stamp is one too): a store whose commit did reach the database before the connection
// dropped only renews the stamp the second time. A load is tried again only while its sink has received nothing, so
// that no piece arrives twice. When the second try cannot connect at all, the first answer (Unavailable) stands: the
// database is away.
class ReconnectingBlobBackend final : public BlobBackend
{
    Q_DISABLE_COPY_MOVE(ReconnectingBlobBackend)
public:
    explicit ReconnectingBlobBackend(BlobBackend &backend); // which outlives this one
    ~ReconnectingBlobBackend() override = default;

    Result<bool> store(const QByteArray &hash, const QByteArray &suffix, const QByteArray &data) override;
    Result<QList<bool>> storeAll(const QList<Piece> &pieces) override;
    Result<bool> retain(const QByteArray &hash) override;
    Result<QSet<QByteArray>> retainAll(const QList<QByteArray> &hashes) override;
    Result<bool> has(const QByteArray &hash, const QByteArray &suffix) override;
    Result<QHash<QByteArray, qint64>> variantSizes(const QList<QByteArray> &hashes, const QByteArray &suffix) override;
    Result<bool> load(const QByteArray &hash, const QByteArray &suffix, const ChunkSink &sink) override;
    Result<bool> remove(const QByteArray &hash) override;
    Result<int> removeAllExcept(const QSet<QByteArray> &keep) override;

private:
    BlobBackend &m_backend;
};

} // namespace berth
