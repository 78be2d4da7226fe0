#pragma once

#include <QByteArray>

namespace berth::test {

// The bytes a brotli body (RFC 7932) decompresses to; empty when it is not one whole brotli stream.
QByteArray unbrotli(const QByteArray &data);
// The bytes a zstd body (RFC 8878) decompresses to; empty when it is not whole zstd frames.
QByteArray unzstd(const QByteArray &data);
// The body decoded by its Content-Encoding ("br", "zstd", "gzip", or empty for none); empty for an unknown coding.
QByteArray decodeContent(const QByteArray &contentEncoding, const QByteArray &body);

} // namespace berth::test
