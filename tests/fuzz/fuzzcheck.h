#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

// Shared by the fuzz targets: a failed property aborts, which libFuzzer reports as a crash and keeps the input.
namespace berth::fuzz {

inline void check(bool condition)
{
    if (!condition)
        std::abort();
}

inline QByteArray bytes(const std::uint8_t *data, std::size_t size)
{
    return QByteArray(reinterpret_cast<const char *>(data), qsizetype(size));
}

// Splits an input at its first newline: a header value (Content-Type, Range) and what follows (the body). Without
// a newline the whole input is the first part.
inline QPair<QByteArray, QByteArray> splitFirstLine(const QByteArray &input)
{
    const qsizetype newline = input.indexOf('\n');
    if (newline < 0)
        return {input, QByteArray()};
    return {input.first(newline), input.sliced(newline + 1)};
}

} // namespace berth::fuzz
