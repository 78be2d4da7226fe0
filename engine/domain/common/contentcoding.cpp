#include "domain/common/contentcoding.h"

#include "domain/common/gzip.h"

#include <brotli/encode.h>
#include <zstd.h>

namespace berth::ContentCodings {

namespace {
// Measured on 50 MB of web text (HTML, CSS, JavaScript) in files of 50 KB, CPU seconds on this project's machine:
// gzip 9 1.08 s, gzip 6 0.64 s (1.2% larger), brotli 6 0.73 s (11% smaller than gzip 9), zstd 9 0.51 s (7% smaller).
// brotli 11 and zstd 19 save another tenth at 45 and 15 ms per 50 KB file: for a deploy's first files only. zstd
// levels up to 19 keep the window within the 8 MiB that HTTP's zstd coding allows.
constexpr int kBrotliBest = 11;
constexpr int kBrotliFast = 6;
constexpr int kZstdBest = 19;
constexpr int kZstdFast = 9;
constexpr int kGzipFast = 6;

// Each coding's token and blob suffix, by ContentCoding: made once, as they go into every encoded answer.
struct Names
{
    QByteArray token;
    QByteArray suffix;
};
const std::array<Names, kContentCodingCount> kNames {Names {QByteArrayLiteral("br"), QByteArrayLiteral("br")},
    Names {QByteArrayLiteral("zstd"), QByteArrayLiteral("zst")},
    Names {QByteArrayLiteral("gzip"), QByteArrayLiteral("gz")}};

QByteArray brotli(const QByteArray &data, int quality)
{
    size_t size = BrotliEncoderMaxCompressedSize(size_t(data.size()));
    if (size == 0)
        return {};
    QByteArray out(qsizetype(size), Qt::Uninitialized);
    if (!BrotliEncoderCompress(quality, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, size_t(data.size()),
            reinterpret_cast<const uint8_t *>(data.constData()), &size, reinterpret_cast<uint8_t *>(out.data())))
        return {};
    out.truncate(qsizetype(size));
    return out;
}

QByteArray zstd(const QByteArray &data, int level)
{
    QByteArray out(qsizetype(ZSTD_compressBound(size_t(data.size()))), Qt::Uninitialized);
    const size_t size = ZSTD_compress(out.data(), size_t(out.size()), data.constData(), size_t(data.size()), level);
    if (ZSTD_isError(size))
        return {};
    out.truncate(qsizetype(size));
    return out;
}
} // namespace

const QByteArray &token(ContentCoding coding)
{
    return kNames[size_t(coding)].token;
}

const QByteArray &suffix(ContentCoding coding)
{
    return kNames[size_t(coding)].suffix;
}

QByteArray compress(ContentCoding coding, const QByteArray &data, Effort effort)
{
    const bool best = effort == Effort::Best;
    switch (coding) {
    case ContentCoding::Brotli:
        return brotli(data, best ? kBrotliBest : kBrotliFast);
    case ContentCoding::Zstd:
        return zstd(data, best ? kZstdBest : kZstdFast);
    case ContentCoding::Gzip:
        break;
    }
    return Gzip::compress(data, best ? Gzip::kBestLevel : kGzipFast);
}

EncodedVariants encodeWorthServing(const QByteArray &content, const QByteArray &contentType, Effort effort,
    std::array<bool, kContentCodingCount> wanted)
{
    EncodedVariants variants;
    if (!Gzip::isWorthCompressing(contentType, content.size()))
        return variants;
    // gzip first, even when not wanted: the others are measured against it.
    const QByteArray gzip = compress(ContentCoding::Gzip, content, effort);
    const qint64 ceiling = Gzip::isWorthKeeping(content.size(), gzip.size()) ? gzip.size() : content.size();
    for (const ContentCoding coding : kContentCodings) {
        const auto index = size_t(coding);
        if (!wanted[index])
            continue;
        QByteArray encoded = coding == ContentCoding::Gzip ? gzip : compress(coding, content, effort);
        if (Gzip::isWorthKeeping(content.size(), encoded.size()) && encoded.size() <= ceiling)
            variants[index] = std::move(encoded);
    }
    return variants;
}

} // namespace berth::ContentCodings
