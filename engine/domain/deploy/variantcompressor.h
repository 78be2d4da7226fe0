#pragma once

#include <QByteArray>

namespace berth {

class BlobBatch;
class BlobStore;

// Makes the precompressed variants (brotli, zstd, gzip) of one deploy's files on its worker, so that serving an
// encoding costs no CPU per request. The best compression is spent on the deploy's first compressible bytes only
// (kBestEffortBytes): enough for a small site's pages, styles and scripts, while a large site costs about three times
// gzip alone instead of a hundred. One object per deploy; not thread-safe.
class VariantCompressor final
{
public:
    static constexpr qint64 kBestEffortBytes = 256 * 1024;

    // Writes through the deploy's batch each variant worth serving that the blob lacks in blobs (a blob deployed
    // before brotli and zstd gets them when its content is sent again). A failure only means that the encoding is not
    // offered.
    void store(const BlobStore &blobs, BlobBatch &batch, const QByteArray &hash, const QByteArray &content,
        const QByteArray &contentType);

private:
    qint64 m_bestEffortLeft = kBestEffortBytes;
};

} // namespace berth
