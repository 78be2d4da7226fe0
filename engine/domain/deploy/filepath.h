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
// invisible one (any Unicode Default_Ignorable_Code_Point, such as a soft hyphen, a zero-width space, a bidirectional
// control, a variation selector or a tag, and the line and paragraph separators U+2028 and U+2029).
Result<QString> normalise(const QString &path);

} // namespace FilePath
} // namespace berth
