#pragma once

#include <QByteArray>
#include <array>

namespace berth {

// The content codings (RFC 9110) that files are precompressed in, in the order preferred when a client accepts several
// equally: brotli, then zstd, then gzip: the smallest output first, the most widely understood last.
enum class ContentCoding
{
    Brotli,
    Zstd,
    Gzip
};
inline constexpr int kContentCodingCount = 3;
inline constexpr std::array<ContentCoding, kContentCodingCount> kContentCodings {
    ContentCoding::Brotli, ContentCoding::Zstd, ContentCoding::Gzip};

// One entry per coding, indexed by ContentCoding: an empty QByteArray for a coding that is not worth serving.
using EncodedVariants = std::array<QByteArray, kContentCodingCount>;

namespace ContentCodings {

// Its name in Accept-Encoding and Content-Encoding: "br", "zstd", "gzip".
const QByteArray &token(ContentCoding coding);
// The suffix of its variant beside a blob: "br", "zst", "gz".
const QByteArray &suffix(ContentCoding coding);

// How hard to compress. Best is for small amounts of content: brotli's best quality takes about fifty times as long
// as gzip's for a tenth less output; Fast is about gzip's own speed.
enum class Effort
{
    Best,
    Fast
};
// The encoding of data in coding; empty on failure.
QByteArray compress(ContentCoding coding, const QByteArray &data, Effort effort);

// The encodings of content worth serving: for a compressible type, those that save at least a tenth of the original
// and are no larger than gzip's (so that preferring brotli or zstd never sends more bytes). Only the codings in
// wanted are made; the others stay empty.
EncodedVariants encodeWorthServing(const QByteArray &content, const QByteArray &contentType, Effort effort,
    std::array<bool, kContentCodingCount> wanted = {true, true, true});

} // namespace ContentCodings
} // namespace berth
