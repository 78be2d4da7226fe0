#pragma once

#include <QByteArray>

namespace berth::test {

// The bytes a gzip body (RFC 1952) decompresses to; empty when it is not one whole gzip stream.
QByteArray gunzip(const QByteArray &data);

} // namespace berth::test
