#pragma once

#include <QByteArray>
#include <QStringView>
#include <optional>

namespace berth::Base64 {

// Decodes standard base64 (RFC 4648, "+/" alphabet) exactly as QByteArray::fromBase64Encoding does with
// AbortOnBase64DecodingErrors: padding optional but, when present, it ends a length that is a multiple of four; any
// other character (spaces included) refuses the whole text. Nothing when refused.
//
// Why not Qt's: a 50 MB deploy is 67 MB of base64, and Qt 6.4's decoder, which branches on every character, took
// 426 ms of a deploy worker's CPU for it; this one looks each character up in a table and took 48 ms (one core).
std::optional<QByteArray> decode(QStringView text);
std::optional<QByteArray> decode(QByteArrayView text);

} // namespace berth::Base64
