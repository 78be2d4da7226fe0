#pragma once

#include "core/error.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

namespace berth {

// Reads a tar archive (ustar, with pax extended headers and GNU long names) as its bytes arrive, in pieces of any
// size, and hands each regular file to a receiver: its name and size as soon as its header is read, so that limits
// are applied before its content arrives, then its content once whole. Links, devices and FIFOs are refused, as is
// any entry whose name is absolute or climbs out with ".."; directories and global pax headers are skipped. It holds
// no more than a header block, one extended header and the current file's content. No sockets, no files: fuzzed and
// unit-tested alone.
class TarStream final
{
public:
    class Receiver
    {
    public:
        virtual ~Receiver() = default;
        // A regular file's header has been read: a refusal (a limit passed) stops the archive.
        virtual Result<void> fileBegins(const QString &name, qint64 size) = 0;
        virtual Result<void> fileEnds(const QString &name, QByteArray content) = 0;
    };

    // The most an extended header (pax or GNU long name) may hold.
    static constexpr qint64 kMaxExtendedHeaderBytes = 64 * 1024;
    // Header blocks of any kind, directories and extended headers included.
    static constexpr int kMaxHeaders = 40000;

    explicit TarStream(Receiver &receiver);
    Q_DISABLE_COPY_MOVE(TarStream)

    // Consumes the bytes. After a refusal (BadRequest, or the receiver's) the archive is over: later calls repeat
    // it. Bytes after the end-of-archive blocks are ignored.
    Result<void> feed(QByteArrayView bytes);
    bool atEnd() const { return m_state == State::End; }
    // The input is over: BadRequest when the archive stopped before its end-of-archive blocks.
    Result<void> finish();

    static QString truncatedMessage();

private:
    enum class State
    {
        Header,
        Content,
        Padding,
        End,
        Failed,
    };
    enum class Target
    {
        File,
        Pax,
        LongName,
        Skip,
    };

    Result<void> readHeader();
    Result<void> beginEntry(char type, const QString &name, qint64 size);
    Result<void> beginContent(Target target, qint64 size);
    Result<void> endContent();
    Result<void> readPaxRecords();
    Result<void> fail(Error error);

    Receiver &m_receiver;
    State m_state = State::Header;
    Target m_target = Target::Skip;
    QByteArray m_block; // the header block being read
    QByteArray m_content; // the file's content or the extended header being read
    QString m_name; // of the file being read
    qint64 m_remaining = 0; // of the entry's content
    qint64 m_padding = 0; // after it, up to the next block
    QString m_longName; // from a pax "path" record or a GNU long name, for the next entry
    qint64 m_paxSize = -1; // from a pax "size" record, for the next entry
    int m_zeroBlocks = 0;
    int m_headers = 0;
    Error m_error;
};

} // namespace berth
