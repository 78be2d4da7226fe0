// A Range header against a file size: the first five input bytes give the size (up to 2^40, so that sizes near the
// parser's 18-digit cap and zero both occur), the rest is the header value. A satisfiable range must lie inside
// the file, and the Content-Range text must say the same thing.
#include "fuzzcheck.h"

#include <site/byterange.h>

using namespace berth;
using berth::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size < 5)
        return 0;
    qint64 fileSize = 0;
    for (int i = 0; i < 5; ++i)
        fileSize = (fileSize << 8) | data[i];
    const QByteArray header = fuzz::bytes(data + 5, size - 5);

    const ByteRange range = ByteRange::parse(header, fileSize);
    const QByteArray contentRange = range.contentRange(fileSize);
    switch (range.kind) {
    case ByteRange::Kind::Satisfiable:
        check(range.first >= 0 && range.length > 0);
        check(range.first < fileSize && range.length <= fileSize - range.first);
        check(contentRange
            == "bytes " + QByteArray::number(range.first) + '-' + QByteArray::number(range.first + range.length - 1)
                + '/' + QByteArray::number(fileSize));
        break;
    case ByteRange::Kind::Unsatisfiable:
    case ByteRange::Kind::None:
        check(contentRange == "bytes */" + QByteArray::number(fileSize));
        break;
    }
    if (!header.contains("bytes"))
        check(range.kind == ByteRange::Kind::None);
    return 0;
}
