#include "gunzip.h"

#include <zlib.h>

namespace berth::test {

QByteArray gunzip(const QByteArray &data)
{
    z_stream stream {};
    if (inflateInit2(&stream, 15 + 16) != Z_OK) // 16: a gzip header, not zlib's
        return {};
    QByteArray out;
    char buffer[16384];
    stream.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.constData()));
    stream.avail_in = uInt(data.size());
    int result = Z_OK;
    while (result == Z_OK) {
        stream.next_out = reinterpret_cast<Bytef *>(buffer);
        stream.avail_out = sizeof buffer;
        result = inflate(&stream, Z_NO_FLUSH);
        out.append(buffer, qsizetype(sizeof buffer - stream.avail_out));
    }
    inflateEnd(&stream);
    return result == Z_STREAM_END ? out : QByteArray();
}

} // namespace berth::test
