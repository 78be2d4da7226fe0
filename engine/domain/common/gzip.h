#pragma once

#include <QByteArray>

namespace berth::Gzip {

inline constexpr int kBestLevel = 9;
// The gzip encoding (RFC 1952) of data at a zlib level (1-9), the best by default; empty on failure.
QByteArray compress(const QByteArray &data, int level = kBestLevel);
// Whether serving a gzip variant is worth it for content of this type and size.
bool isWorthCompressing(const QByteArray &contentType, qint64 size);
// Whether a compressed result saves enough to keep (at least a tenth).
bool isWorthKeeping(qint64 originalSize, qint64 compressedSize);

} // namespace berth::Gzip
