#pragma once

#include "http/httpconfig.h"

#include <QFile>
#include <QString>

QT_BEGIN_NAMESPACE
class QAbstractSocket;
QT_END_NAMESPACE

namespace berth {

// Streams a byte range of a file to a socket, driven by the socket's bytesWritten, so that a slow client costs at
// most kMaxUnsentBytes of memory and a fast one is limited by the disk.
//
// On a plain TCP socket the bytes go with sendfile(2) while Qt's write buffer is empty: the kernel copies from the
// page cache into the socket, with no read into memory and no copy out of it (the two largest costs of a large
// file in the profile). When the socket's send buffer is full, one small piece is queued through Qt instead: its
// write notification then says when the client has taken bytes, and sendfile goes on once that piece is gone. So at
// most one piece waits in memory for a slow reader. On TLS every piece goes through Qt (it must be encrypted).
// Destroying the streamer closes the file.
class FileStreamer final
{
public:
    static constexpr qint64 kPieceBytes = kStreamPieceBytes;
    static constexpr qint64 kMaxUnsentBytes = kMaxStreamUnsentBytes;

    FileStreamer() = default;
    Q_DISABLE_COPY_MOVE(FileStreamer)

    // Opens [offset, offset + length) of the file; length -1 means to its end. False if the file cannot be read
    // or is shorter than the range.
    bool open(const QString &path, qint64 offset, qint64 length);
    qint64 length() const { return m_length; }
    // Sends what the socket takes now. False on a read error (the response is then broken and the connection
    // must be dropped).
    bool pump(QAbstractSocket &socket, bool zeroCopy);
    bool isDone() const { return m_remaining == 0; }

private:
    enum class Sent
    {
        Progress,
        Full, // the socket's send buffer is full
        Unsupported, // sendfile cannot serve this pair: pieces from now on
        Failed,
    };
    Sent sendDirect(QAbstractSocket &socket);
    bool queuePiece(QAbstractSocket &socket, qint64 maxBytes);

    QFile m_file;
    qint64 m_offset = 0; // of the next byte to send, in the file
    qint64 m_length = 0;
    qint64 m_remaining = 0;
    bool m_directFailed = false;
};

} // namespace berth
