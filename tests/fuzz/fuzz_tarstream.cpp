// Tar archives as an upload brings them: the input (after its first byte) is fed to TarStream whole, and again in
// pieces whose sizes the first byte chooses. Both readings must agree on every file and on the outcome; every file
// handed over has a relative name without a ".." segment and exactly the content size its header announced.
#include "fuzzcheck.h"

#include <QList>
#include <QStringList>
#include <domain/deploy/tarstream.h>

using namespace berth;
using berth::fuzz::check;

namespace {

// What a reading saw, with the limits' part played by a 1 MiB cap on a file.
class Recorder final : public TarStream::Receiver
{
public:
    Result<void> fileBegins(const QString &name, qint64 size) override
    {
        check(size >= 0);
        check(!name.startsWith(u'/') && !name.split(u'/').contains(QStringLiteral("..")));
        if (size > 1024 * 1024)
            return Error {Error::Kind::TooLarge, QStringLiteral("too large")};
        m_announced = size;
        return {};
    }
    Result<void> fileEnds(const QString &name, QByteArray content) override
    {
        check(content.size() == m_announced);
        files.append(name + u':' + QString::number(content.size()) + u':' + QString::number(qHash(content)));
        return {};
    }

    QStringList files;

private:
    qint64 m_announced = -1;
};

QString outcome(const Result<void> &result)
{
    return result ? QString() : result.error().message;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size == 0)
        return 0;
    const QByteArray input = berth::fuzz::bytes(data + 1, size - 1);
    const qsizetype piece = 1 + data[0] * 7;

    Recorder whole;
    TarStream wholeStream(whole);
    Result<void> wholeResult = wholeStream.feed(input);
    if (wholeResult)
        wholeResult = wholeStream.finish();

    Recorder pieces;
    TarStream piecesStream(pieces);
    Result<void> piecesResult;
    for (qsizetype at = 0; at < input.size() && piecesResult; at += piece)
        piecesResult = piecesStream.feed(QByteArrayView(input).sliced(at, qMin(piece, input.size() - at)));
    if (piecesResult)
        piecesResult = piecesStream.finish();

    check(whole.files == pieces.files);
    check(outcome(wholeResult) == outcome(piecesResult));
    check(wholeResult || !outcome(wholeResult).isEmpty());
    return 0;
}
