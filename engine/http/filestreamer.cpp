#include "http/filestreamer.h"

#include <QAbstractSocket>
#include <cerrno>
#include <csignal>
#include <mutex>
#include <sys/sendfile.h>
#include <unistd.h>

namespace berth {

namespace {

// One sendfile call sends at most this much, so that one fast client does not keep the thread from the others.
constexpr qint64 kDirectChunkBytes = 4 * 1024 * 1024;
// What goes through Qt when the send buffer is full, only so that its write notification says when the client has
// read: small, since every byte of it is read and copied where sendfile copies none (a 256 KB piece here made a
// fifth of a large file's CPU time).
constexpr qint64 kWakePieceBytes = 16 * 1024;

} // namespace

bool FileStreamer::open(const QString &path, qint64 offset, qint64 length)
{
    // Unbuffered: pieces go from the file straight into the array the socket queues, without QFile's own buffer.
    // Reads are positional (pread), so sendfile and pieces share one offset: m_offset.
    m_file.setFileName(path);
    if (!m_file.open(QIODevice::ReadOnly | QIODevice::Unbuffered))
        return false;
    const qint64 size = m_file.size();
    if (offset < 0 || offset > size || length < -1 || (length >= 0 && length > size - offset)) {
        m_file.close();
        return false;
    }
    m_offset = offset;
    m_length = length < 0 ? size - offset : length;
    m_remaining = m_length;
    return true;
}

bool FileStreamer::pump(QAbstractSocket &socket, bool zeroCopy)
{
    while (m_remaining > 0) {
        if (zeroCopy && !m_directFailed) {
            if (socket.bytesToWrite() > 0)
                break; // Qt's notification of that piece (or the head) calls again
            switch (sendDirect(socket)) {
            case Sent::Progress:
                continue;
            case Sent::Full:
                // A small piece through Qt, so that its write notification wakes us when the client has read.
                if (!queuePiece(socket, kWakePieceBytes))
                    return false;
                continue;
            case Sent::Unsupported:
                m_directFailed = true;
                continue;
            case Sent::Failed:
                return false;
            }
        }
        if (socket.bytesToWrite() + kPieceBytes > kMaxUnsentBytes)
            break;
        if (!queuePiece(socket, kPieceBytes))
            return false;
    }
    if (m_remaining == 0)
        m_file.close();
    return true;
}

FileStreamer::Sent FileStreamer::sendDirect(QAbstractSocket &socket)
{
    // sendfile has no MSG_NOSIGNAL (which Qt's own sends use): a client that closes mid-file would raise SIGPIPE,
    // whose default action ends the process. Ignored once, unless the program installed a handler of its own.
    static std::once_flag ignoreSigpipe;
    std::call_once(ignoreSigpipe, [] {
        struct sigaction current
        {
        };
        if (::sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL)
            ::signal(SIGPIPE, SIG_IGN);
    });
    off_t offset = off_t(m_offset);
    const ssize_t sent = ::sendfile(
        int(socket.socketDescriptor()), m_file.handle(), &offset, size_t(qMin(m_remaining, kDirectChunkBytes)));
    if (sent > 0) {
        m_offset += sent;
        m_remaining -= sent;
        return Sent::Progress;
    }
    if (sent == 0)
        return Sent::Failed; // the file is shorter than promised: Content-Length can no longer be met
    if (errno == EAGAIN || errno == EWOULDBLOCK)
        return Sent::Full;
    if (errno == EINTR)
        return Sent::Progress;
    // EINVAL or ENOSYS: not for this file or socket. EPIPE or ECONNRESET: the client left, which the next write
    // through Qt finds out and handles as usual (disconnected()).
    return Sent::Unsupported;
}

bool FileStreamer::queuePiece(QAbstractSocket &socket, qint64 maxBytes)
{
    QByteArray piece(qMin(maxBytes, m_remaining), Qt::Uninitialized);
    qint64 got;
    do {
        got = ::pread(m_file.handle(), piece.data(), size_t(piece.size()), off_t(m_offset));
    } while (got < 0 && errno == EINTR);
    if (got <= 0)
        return false; // truncated or unreadable: the promised Content-Length can no longer be met
    piece.truncate(got);
    // A QByteArray this size is queued by reference, not copied, by the socket's write buffer.
    if (socket.write(piece) != got)
        return false;
    m_offset += got;
    m_remaining -= got;
    return true;
}

} // namespace berth
