#pragma once

#include <QByteArray>

namespace berth::Gzip {

// The gzip encoding (RFC 1952) of data at the best compression; empty on failure.
QByteArray compress(const QByteArray &data);
// Whether serving a gzip variant is worth it for content of this type and size.
bool isWorthCompressing(const QByteArray &contentType, qint64 size);
// Whether a compressed result saves enough to keep (at least a tenth).
bool isWorthKeeping(qint64 originalSize, qint64 compressedSize);

} // namespace berth::Gzip
