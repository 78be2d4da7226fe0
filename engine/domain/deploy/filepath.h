#pragma once

#include "core/error.h"

#include <QString>

namespace berth {

// The relative path of one file in a multi-file deployment.
namespace FilePath {

constexpr int kMaxSegmentBytes = 255;
constexpr int kMaxPathBytes = 1024;

// The normalised relative path ("./a//b.css" -> "a/b.css", in Unicode NFC), or a BadRequest Error naming the path
// when it is empty, absolute, climbs out (".."), names a directory, or holds a backslash, a control character or an
// invisible one (a byte order mark U+FEFF, zero-width U+200B-U+200D, U+2060, bidirectional controls).
Result<QString> normalise(const QString &path);

} // namespace FilePath
} // namespace berth
