#include "filestreamer.h"

#include <QIODevice>

namespace berth {

bool FileStreamer::open(const QString &path, qint64 offset, qint64 length)
{
    // Unbuffered: pieces go from read() straight into the array the socket queues, without QFile's own buffer.
    m_file.setFileName(path);
    if (!m_file.open(QIODevice::ReadOnly | QIODevice::Unbuffered))
        return false;
    const qint64 size = m_file.size();
    if (offset < 0 || offset > size || length < -1 || (length >= 0 && length > size - offset)
        || (offset > 0 && !m_file.seek(offset))) {
        m_file.close();
        return false;
    }
    m_length = length < 0 ? size - offset : length;
    m_remaining = m_length;
    return true;
}

bool FileStreamer::pump(QIODevice &socket)
{
    while (m_remaining > 0 && socket.bytesToWrite() + kPieceBytes <= kMaxUnsentBytes) {
        QByteArray piece(qMin(kPieceBytes, m_remaining), Qt::Uninitialized);
        const qint64 got = m_file.read(piece.data(), piece.size());
        if (got <= 0)
            return false; // truncated or unreadable: the promised Content-Length can no longer be met
        piece.truncate(got);
        // A QByteArray this size is queued by reference, not copied, by the socket's write buffer.
        if (socket.write(piece) != got)
            return false;
        m_remaining -= got;
    }
    if (m_remaining == 0)
        m_file.close();
    return true;
}

} // namespace berth
