#pragma once

#include "core/error.h"
#include "domain/deploy/tarstream.h"
#include "domain/deploy/variantcompressor.h"
#include "storage/deployment.h"

#include <QByteArrayView>
#include <QList>
#include <QSet>
#include <memory>

namespace berth {

class BlobBatch;
class BlobStore;
class FaultPoints;

// What an archive's staging produced: its files, stored and durable, ready for a commit.
struct StagedArchive
{
    QList<StoredFile> files;
    QString documentTitle; // the <title> of index.html, if any
};

// One archive upload's content on its way into the blob store, as its bytes arrive: gunzipped when compressed, read
// as tar, each file checked against the deployment limits from its header (the interface's 413 texts the moment one
// is passed), named by the same path rules as a JSON deploy, and written through the deploy's BlobBatch, with its
// compressed variants, as soon as its content is whole. finish() makes them all durable. It holds at most a constant
// plus the largest file. Used by one thread at a time (a worker); nothing here touches the database.
class ArchiveStaging final : private TarStream::Receiver
{
public:
    enum class Compression
    {
        None, // application/x-tar
        Gzip, // application/gzip
    };

    ArchiveStaging(BlobStore &blobs, Compression compression, const FaultPoints &faults);
    ~ArchiveStaging() override;
    Q_DISABLE_COPY_MOVE(ArchiveStaging)

    // The next bytes of the upload. A refusal ends the archive (later calls repeat it).
    Result<void> feed(QByteArrayView bytes);
    // The end-of-archive blocks have been read: what follows is ignored.
    bool complete() const { return m_tar.atEnd(); }
    // The upload is over: BadRequest when the archive is truncated or holds no file, else every file made durable.
    Result<StagedArchive> finish();
    // Every blob written so far, even when the upload then failed: candidates for collection unless committed.
    const QList<QByteArray> &written() const { return m_written; }

private:
    Result<void> fileBegins(const QString &name, qint64 size) override;
    Result<void> fileEnds(const QString &name, QByteArray content) override;
    Result<void> inflate(QByteArrayView bytes);

    struct Inflater;
    BlobStore &m_blobs;
    const FaultPoints &m_faults;
    std::unique_ptr<BlobBatch> m_batch;
    std::unique_ptr<Inflater> m_inflater; // null for a plain tar
    TarStream m_tar;
    VariantCompressor m_variants;
    StagedArchive m_staged;
    QSet<QString> m_paths;
    QString m_path; // the normalised path of the file being read
    QList<QByteArray> m_written;
    qint64 m_totalBytes = 0;
};

} // namespace berth
