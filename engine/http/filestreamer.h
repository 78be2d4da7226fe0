#pragma once

#include "httpconfig.h"

#include <QFile>
#include <QString>

class QIODevice;

namespace berth {

// Streams a byte range of a file to a socket in pieces, driven by the socket's bytesWritten, so that a slow client
// costs at most kMaxUnsentBytes of memory and a fast one is limited by the disk. Destroying it closes the file.
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
    // Queues pieces while the socket holds less than kMaxUnsentBytes. False on a read error (the response is then
    // broken and the connection must be dropped).
    bool pump(QIODevice &socket);
    bool isDone() const { return m_remaining == 0; }

private:
    QFile m_file;
    qint64 m_length = 0;
    qint64 m_remaining = 0;
};

} // namespace berth
