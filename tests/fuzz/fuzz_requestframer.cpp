// Feeds arbitrary bytes to RequestFramer. Besides crashes and sanitizer reports it checks that framing does not
// depend on how the bytes are split into reads (the first input byte picks a piece size), and that whatever the
// framer accepts respects its limits.
#include <cstdint>
#include <cstdlib>
#include <http/requestframer.h>

using namespace berth;

namespace {

void check(bool condition)
{
    if (!condition)
        std::abort();
}

bool isCleanValue(const QByteArray &value)
{
    for (char c : value) {
        if (c == '\r' || c == '\n' || c == '\0')
            return false;
    }
    return true;
}

void checkHead(const RequestFramer &framer)
{
    const FramedHead &head = framer.head();
    check(framer.headBytes() <= kMaxHeadBytes);
    check(head.headers.size() <= kMaxHeaderFields);
    check(head.contentLength >= 0);
    check(head.minorVersion == 0 || head.minorVersion == 1);
    check(!head.target.isEmpty() && (head.target.front() == '/' || head.target == "*"));
    check(RequestFramer::isToken(head.method));
    for (const auto &[name, value] : head.headers) {
        check(RequestFramer::isToken(name) && name == name.toLower());
        check(isCleanValue(value));
    }
    check(isCleanValue(head.host));
}

QByteArrayList frame(QByteArrayView input, qsizetype pieceSize)
{
    RequestFramer framer;
    QByteArrayList events;
    for (qsizetype pos = 0; pos < input.size() && framer.state() != RequestFramer::State::Failed;) {
        QByteArrayView piece = input.sliced(pos, qMin(pieceSize, input.size() - pos));
        pos += piece.size();
        while (!piece.isEmpty() && framer.state() != RequestFramer::State::Failed) {
            const qsizetype used = framer.feed(piece);
            check(used >= 0 && used <= piece.size());
            piece = piece.sliced(used);
            if (framer.state() == RequestFramer::State::HeadComplete) {
                checkHead(framer);
                events << framer.head().method + ' ' + framer.head().target + ' '
                        + QByteArray::number(framer.head().contentLength) + ' '
                        + QByteArray::number(framer.headBytes());
                framer.beginBody();
            }
            if (framer.state() == RequestFramer::State::MessageComplete) {
                events << "end";
                framer.reset();
            }
            check(used > 0 || piece.isEmpty() || framer.state() == RequestFramer::State::Failed);
        }
    }
    if (framer.state() == RequestFramer::State::Failed) {
        const int status = framer.errorStatus();
        check(status >= 400 && status < 600);
        events << "error " + QByteArray::number(status);
    }
    return events;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size == 0)
        return 0;
    const qsizetype pieceSize = 1 + data[0] % 32;
    const QByteArrayView input(reinterpret_cast<const char *>(data) + 1, qsizetype(size) - 1);
    check(frame(input, input.size()) == frame(input, pieceSize));
    return 0;
}
