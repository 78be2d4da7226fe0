#pragma once

#include "domain/common/contentcoding.h"

#include <QByteArrayView>
#include <optional>

namespace berth {

// Which encoding of a file to send, from the request's Accept-Encoding (RFC 9110, section 12.5.3) and the encodings
// the file has. Runs on the serving thread: one pass over the header, with its length and items bounded
// (kMaxAcceptEncodingBytes, kMaxAcceptEncodingItems); a header beyond them is disregarded.
struct EncodingChoice
{
    std::optional<ContentCoding> coding; // none: the file as it is (identity)
    bool acceptable = true; // false: the client refused identity and every encoding the file has

    // The highest weight wins; among equal weights brotli, then zstd, then gzip, and identity last. Codings not
    // listed are refused unless "*" names them; identity is acceptable unless "identity;q=0", or "*;q=0" without an
    // entry of its own, refuses it. No header, an empty one or one beyond the bounds: identity.
    static EncodingChoice negotiate(QByteArrayView acceptEncoding, std::array<bool, kContentCodingCount> offered);
};

} // namespace berth
