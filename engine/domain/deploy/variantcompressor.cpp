#include "domain/deploy/variantcompressor.h"

#include "domain/common/contentcoding.h"
#include "domain/common/gzip.h"
#include "storage/blobbatch.h"
#include "storage/blobstore.h"

namespace berth {

void VariantCompressor::store(const BlobStore &blobs, BlobBatch &batch, const QByteArray &hash,
    const QByteArray &content, const QByteArray &contentType)
{
    if (!Gzip::isWorthCompressing(contentType, content.size()))
        return;
    std::array<bool, kContentCodingCount> missing {};
    bool anyMissing = false;
    for (const ContentCoding coding : kContentCodings) {
        missing[size_t(coding)] = blobs.variantPathOf(hash, ContentCodings::suffix(coding)).isEmpty();
        anyMissing = anyMissing || missing[size_t(coding)];
    }
    if (!anyMissing)
        return;
    const bool best = content.size() <= m_bestEffortLeft;
    if (best)
        m_bestEffortLeft -= content.size();
    const EncodedVariants variants = ContentCodings::encodeWorthServing(
        content, contentType, best ? ContentCodings::Effort::Best : ContentCodings::Effort::Fast, missing);
    for (const ContentCoding coding : kContentCodings) {
        const QByteArray &encoded = variants[size_t(coding)];
        if (!encoded.isEmpty())
            batch.putVariant(hash, ContentCodings::suffix(coding), encoded);
    }
}

} // namespace berth
