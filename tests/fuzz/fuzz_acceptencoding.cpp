// Accept-Encoding against the encodings a file has: the first input byte gives which of brotli, zstd and gzip the file
// has (its low three bits), the rest is the header value. The choice is one the file has, or identity; a header
// that names none of the codings (nor "*") gets identity; an empty list element changes nothing; a header beyond the
// bounds is disregarded.
#include "fuzzcheck.h"

#include <site/acceptencoding.h>
#include <site/sitelimits.h>

using namespace berth;
using berth::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size < 1)
        return 0;
    std::array<bool, kContentCodingCount> offered {};
    for (const ContentCoding coding : kContentCodings)
        offered[size_t(coding)] = (data[0] >> int(coding)) & 1;
    const QByteArray header = fuzz::bytes(data + 1, size - 1);

    const EncodingChoice choice = EncodingChoice::negotiate(header, offered);
    if (choice.coding)
        check(choice.acceptable && offered[size_t(*choice.coding)]);
    const QByteArray lower = header.toLower();
    if (!lower.contains("br") && !lower.contains("zstd") && !lower.contains("gzip") && !lower.contains('*'))
        check(!choice.coding);
    if (header.isEmpty() || header.size() > kMaxAcceptEncodingBytes)
        check(choice.acceptable && !choice.coding);
    if (header.size() < kMaxAcceptEncodingBytes) {
        const EncodingChoice again = EncodingChoice::negotiate(header + ',', offered);
        check(again.coding == choice.coding && again.acceptable == choice.acceptable);
    }
    return 0;
}
