#pragma once

#include <QString>

namespace berth {

// The relative path of one file in a multi-file deployment.
namespace FilePath {

constexpr int kMaxSegmentBytes = 255;
constexpr int kMaxPathBytes = 1024;

// The normalised relative path ("./a//b.css" -> "a/b.css"), or a null QString with *error naming the path when it
// is empty, absolute, climbs out (".."), names a directory, or holds a backslash or a control character.
QString normalise(const QString &path, QString *error);

} // namespace FilePath
} // namespace berth
