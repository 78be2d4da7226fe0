#include "contentdecoder.h"

#include "gunzip.h"

#include <brotli/decode.h>
#include <zstd.h>

namespace berth::test {

namespace {
constexpr size_t kPieceBytes = 64 * 1024;
}

QByteArray unbrotli(const QByteArray &data)
{
    BrotliDecoderState *state = BrotliDecoderCreateInstance(nullptr, nullptr, nullptr);
    if (!state)
        return {};
    QByteArray out;
    size_t availableIn = size_t(data.size());
    const auto *next = reinterpret_cast<const uint8_t *>(data.constData());
    BrotliDecoderResult result = BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT;
    while (result == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT) {
        uint8_t piece[kPieceBytes];
        size_t availableOut = sizeof piece;
        uint8_t *nextOut = piece;
        result = BrotliDecoderDecompressStream(state, &availableIn, &next, &availableOut, &nextOut, nullptr);
        out.append(reinterpret_cast<const char *>(piece), qsizetype(sizeof piece - availableOut));
    }
    BrotliDecoderDestroyInstance(state);
    return result == BROTLI_DECODER_RESULT_SUCCESS && availableIn == 0 ? out : QByteArray();
}

QByteArray unzstd(const QByteArray &data)
{
    ZSTD_DStream *stream = ZSTD_createDStream();
    if (!stream)
        return {};
    QByteArray out;
    ZSTD_inBuffer in {data.constData(), size_t(data.size()), 0};
    size_t pending = 1; // 0 once a frame is complete
    while (in.pos < in.size || pending != 0) {
        char piece[kPieceBytes];
        ZSTD_outBuffer output {piece, sizeof piece, 0};
        pending = ZSTD_decompressStream(stream, &output, &in);
        if (ZSTD_isError(pending) || (output.pos == 0 && in.pos == in.size && pending != 0)) {
            ZSTD_freeDStream(stream);
            return {};
        }
        out.append(piece, qsizetype(output.pos));
    }
    ZSTD_freeDStream(stream);
    return out;
}

QByteArray decodeContent(const QByteArray &contentEncoding, const QByteArray &body)
{
    if (contentEncoding.isEmpty())
        return body;
    if (contentEncoding == "br")
        return unbrotli(body);
    if (contentEncoding == "zstd")
        return unzstd(body);
    if (contentEncoding == "gzip")
        return gunzip(body);
    return {};
}

} // namespace berth::test
