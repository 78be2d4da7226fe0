// ConnectionGuard, third part: a request body its handler takes as it arrives (an archive upload), fed to it through
// a RequestBodyStream with backpressure instead of being read whole first.
#include "http/connectionbudget.h"
#include "http/connectionguard.h"
#include "http/frontdoor.h"
#include "http/httpconfig.h"
#include "http/requestbodystream.h"
#include "http/requesthandler.h"

#include <QAbstractSocket>
#include <QPointer>

namespace berth {

using namespace Qt::StringLiterals;

void ConnectionGuard::beginStreamedBody()
{
    const qint64 length = m_head.contentLength;
    if (length > m_door.config().largeUploadBytes) {
        if (!m_door.budget().acquireUpload())
            return refuse(503, u"Too many uploads in progress; retry later"_s);
        m_holdsUploadSlot = true;
    }
    // QtHttpServer sees nothing of this request: the guard reads the body itself and holds what it cannot take yet
    // (hold(): QtHttpServer's slot, next in line, finds nothing to read). A request answered before its whole body
    // came is the last of its connection (respond()): no byte of the rest may be read as a request.
    m_socket.skip(m_bodyBytes - length); // the head, framed already
    if (m_head.expectContinue && m_socket.bytesAvailable() < length)
        m_socket.write("HTTP/1.1 100 Continue\r\n\r\n");
    m_stream = std::make_shared<RequestBodyStream>(length, kStreamedBodyBytes);
    m_streamPaused = false;
    m_pausedMs = 0;
    m_bodyRead = 0;
    m_bodyClock.start();
    deliver(QByteArray());
    if (m_phase != Phase::Waiting || !m_stream)
        return; // answered at once (a refusal that needs no body)
    m_phase = Phase::Feeding;
    m_socket.setReadBufferSize(kBodySliceBytes);
    armTimer(m_door.config().bodyStallTimeoutMs);
    feedStream();
}

void ConnectionGuard::feedStream()
{
    if (m_phase != Phase::Feeding)
        return;
    if (m_streamPaused)
        return hold();
    letHeldThrough();
    if (overBodyDeadline()) {
        failStream();
        return refuse(408, u"Request body timeout"_s);
    }
    const qint64 length = m_stream->length();
    while (m_bodyRead < length) {
        const qint64 room = m_stream->room();
        if (room == 0) {
            // The handler is behind: the client waits (the socket's buffer fills, then TCP's window) until it has
            // taken what waits. The time this takes is not the client's: no body timeout runs meanwhile.
            m_streamPaused = true;
            m_pauseClock.start();
            m_timer.stop();
            const quint64 serial = m_serial;
            const QPointer<QObject> alive(&m_socket);
            m_stream->whenRoom([this, alive, serial, mailbox = m_door.mailbox()] {
                mailbox->post([this, alive, serial] {
                    if (alive && m_serial == serial)
                        onStreamRoom();
                });
            });
            return hold();
        }
        const qint64 wanted = qMin(room, m_socket.bytesAvailable());
        if (wanted <= 0)
            break;
        QByteArray piece = m_socket.read(wanted);
        if (piece.isEmpty())
            break;
        m_bodyRead += piece.size();
        m_stream->append(std::move(piece));
    }
    if (m_bodyRead < length) {
        armTimer(m_door.config().bodyStallTimeoutMs);
        return;
    }
    // Whole: the handler answers when it has read it. Anything after the body is held, never parsed (see above).
    m_phase = Phase::Waiting;
    m_timer.stop();
    m_socket.setReadBufferSize(kReadBufferBytes);
    hold();
}

void ConnectionGuard::onStreamRoom()
{
    if (m_phase != Phase::Feeding || !m_streamPaused)
        return;
    m_streamPaused = false;
    m_pausedMs += m_pauseClock.elapsed();
    armTimer(m_door.config().bodyStallTimeoutMs);
    feedStream();
}

void ConnectionGuard::failStream()
{
    if (m_stream)
        m_stream->fail();
}

} // namespace berth
