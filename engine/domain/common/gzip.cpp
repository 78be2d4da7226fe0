#include "domain/common/gzip.h"

#include "domain/common/mimetypes.h"

#include <zlib.h>

namespace berth::Gzip {

namespace {
constexpr qint64 kMinimumSize = 256; // below this the headers cost more than compression saves
constexpr int kGzipWindowBits = 15 + 16; // zlib: +16 selects the gzip wrapper
constexpr int kMemLevel = 9;
} // namespace

QByteArray compress(const QByteArray &data, int level)
{
    z_stream stream {};
    if (deflateInit2(&stream, level, Z_DEFLATED, kGzipWindowBits, kMemLevel, Z_DEFAULT_STRATEGY) != Z_OK)
        return {};
    QByteArray out(qsizetype(deflateBound(&stream, uLong(data.size()))), Qt::Uninitialized);
    stream.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.constData()));
    stream.avail_in = uInt(data.size());
    stream.next_out = reinterpret_cast<Bytef *>(out.data());
    stream.avail_out = uInt(out.size());
    const int result = deflate(&stream, Z_FINISH);
    const qsizetype written = qsizetype(stream.total_out);
    deflateEnd(&stream);
    if (result != Z_STREAM_END)
        return {};
    out.truncate(written);
    return out;
}

bool isWorthCompressing(const QByteArray &contentType, qint64 size)
{
    return size >= kMinimumSize && MimeTypes::isCompressible(contentType);
}

bool isWorthKeeping(qint64 originalSize, qint64 compressedSize)
{
    return compressedSize > 0 && compressedSize * 10 <= originalSize * 9;
}

} // namespace berth::Gzip
