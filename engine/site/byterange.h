#pragma once

#include <QByteArray>

namespace berth {

// A single "Range: bytes=..." request against a representation of a known size. Several ranges,
// other units or syntax errors are ignored (the whole file is served, as RFC 9110 allows).
struct ByteRange
{
    enum class Kind
    {
        None,
        Satisfiable,
        Unsatisfiable
    };
    Kind kind = Kind::None;
    qint64 first = 0;
    qint64 length = 0;

    static ByteRange parse(const QByteArray &header, qint64 size);
    QByteArray contentRange(qint64 size) const; // "bytes 0-99/1000", or "bytes */1000" when unsatisfiable
};

} // namespace berth
