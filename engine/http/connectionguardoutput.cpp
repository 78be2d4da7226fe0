// ConnectionGuard, second half: answering, holding what follows, closing and the timeouts (the first half,
// connectionguard.cpp, accepts connections and reads requests).
#include "http/accesslog.h"
#include "http/connectionbudget.h"
#include "http/connectionguard.h"
#include "http/frontdoor.h"
#include "http/httpconfig.h"
#include "http/requestbodystream.h"
#include "http/requestmetrics.h"
#include "http/responsewriter.h"

#include <QAbstractSocket>
#include <QSslSocket>
#include <QTimerEvent>
#include <sys/socket.h>

namespace berth {

using namespace Qt::StringLiterals;

void ConnectionGuard::respond(quint64 serial, HttpResponse response)
{
    if (serial != m_serial || (m_phase != Phase::Waiting && m_phase != Phase::Feeding))
        return; // the client left, or this request was already answered
    if (m_stream) { // a body its handler took as it arrived: answered before the end of it, the connection closes
        if (m_phase == Phase::Feeding)
            m_keepAlive = false;
        m_stream->stop();
        m_stream.reset();
        m_phase = Phase::Waiting;
    }
    m_sendClock.start();
    m_keepAlive = m_keepAlive && !response.header("connection").toLower().contains("close");
    const ResponseOutput::Progress progress
        = m_output.start(m_door.writer(), std::move(response), m_keepAlive, m_isHead);
    logAccess(m_output.sentStatus(), m_output.sentBytes());
    countRequest(m_output.sentStatus(), m_output.sentBytes());
    afterOutput(progress);
}

void ConnectionGuard::noteForAccessLog()
{
    AccessLogBuffer *log = m_door.accessLog();
    if (!log)
        return;
    m_access.receivedMs = log->log().nowMs();
    m_access.method = m_head.method;
    m_access.target = m_head.target;
    m_access.minorVersion = m_head.minorVersion;
    m_access.host = m_head.host;
    m_access.referer.clear();
    m_access.userAgent.clear();
    for (const auto &field : std::as_const(m_head.headers)) {
        if (field.first == "referer")
            m_access.referer = field.second;
        else if (field.first == "user-agent")
            m_access.userAgent = field.second;
    }
    m_access.localPort = m_socket.localPort();
    m_accessPending = true;
}

void ConnectionGuard::logAccess(int status, qint64 bytesSent)
{
    if (!m_accessPending)
        return;
    m_accessPending = false;
    AccessLogBuffer *log = m_door.accessLog();
    if (m_accessClient.isEmpty())
        m_accessClient = log->log().clientAddress(m_peer);
    log->add(m_access, m_accessClient, status, bytesSent);
}

void ConnectionGuard::countRequest(int status, qint64 bytesSent)
{
    if (!m_countPending)
        return;
    m_countPending = false;
    m_door.metrics()->count(m_requestKind, status, m_requestClock.nsecsElapsed(), bytesSent);
}

void ConnectionGuard::pumpFile()
{
    afterOutput(m_output.pump());
}

void ConnectionGuard::afterOutput(ResponseOutput::Progress progress)
{
    switch (progress) {
    case ResponseOutput::Progress::Failed:
        qWarning("berth: read error while streaming a file; connection dropped");
        m_socket.abort();
        return;
    case ResponseOutput::Progress::Streaming:
        if (m_phase != Phase::Streaming) { // the first pieces of a file: the client's bytesWritten drive the rest
            m_phase = Phase::Streaming;
            armTimer(m_door.config().sendStallTimeoutMs);
        }
        m_door.noteUnsent(m_socket.bytesToWrite());
        return;
    case ResponseOutput::Progress::Done:
        m_door.noteUnsent(m_socket.bytesToWrite());
        finishResponse();
        return;
    }
}

void ConnectionGuard::finishResponse()
{
    releaseUploadSlot();
    if (!m_keepAlive)
        return closeAfterWrite();
    if (m_socket.bytesToWrite() > m_door.config().maxUnsentBytes) {
        // A client that sends requests but does not read the answers gets no more answers queued for it: its next
        // requests wait (TCP backpressure beyond the read buffer) until it has read most of what it asked for.
        m_phase = Phase::Backlogged;
        m_sendClock.start();
        armTimer(m_door.config().sendStallTimeoutMs);
        return;
    }
    m_phase = Phase::Idle;
    noteIdle();
    armTimer(m_door.config().idleTimeoutMs);
    letHeldThrough(); // the held bytes (pipelined requests) become visible again
    if (m_socket.bytesAvailable() > 0) // one request is framed per readyRead: wake the guard for the next one
        QMetaObject::invokeMethod(
            &m_socket, [this] { resume(); }, Qt::QueuedConnection);
}

void ConnectionGuard::resume()
{
    if (m_phase != Phase::Idle)
        return;
    letHeldThrough();
    if (m_socket.bytesAvailable() > 0)
        Q_EMIT m_socket.readyRead();
}

void ConnectionGuard::letHeldThrough()
{
    if (m_socket.isTransactionStarted())
        m_socket.rollbackTransaction();
    m_held = 0;
}

void ConnectionGuard::hold()
{
    if (m_socket.bytesAvailable() == 0)
        return;
    if (!m_socket.isTransactionStarted()) {
        m_socket.startTransaction();
        m_held = 0;
    }
    // Everything visible is kept in the transaction, so that QtHttpServer (next in line) sees none of it;
    // throttled() bounds how much that can become.
    const qint64 held = m_socket.skip(m_socket.bytesAvailable());
    if (held > 0)
        m_held += held;
}

bool ConnectionGuard::throttled() const
{
    // A QSslSocket buffers above its TCP socket: the TCP socket's read buffer size alone would not stop a client that
    // pipelines requests behind a slow answer, as its bytes move up into the transaction. Once a read buffer's worth
    // is held, the rest stays in the TCP socket (and then in the kernel: backpressure) until the hold ends.
    switch (m_phase) {
    case Phase::Handshake:
    case Phase::Authorizing:
    case Phase::Feeding:
    case Phase::Waiting:
    case Phase::Streaming:
    case Phase::Backlogged:
        return m_held >= kReadBufferBytes && m_socket.isTransactionStarted();
    default:
        return false;
    }
}

void ConnectionGuard::discard()
{
    if (m_socket.isTransactionStarted())
        m_socket.commitTransaction();
    const qint64 dropped = m_socket.skip(m_socket.bytesAvailable());
    if (m_phase == Phase::Lingering && dropped > 0 && (m_lingered += dropped) > kLingerMaxBytes)
        m_socket.abort();
}

void ConnectionGuard::onBytesWritten()
{
    m_sendClock.start();
    if (m_phase == Phase::Streaming) {
        armTimer(m_door.config().sendStallTimeoutMs);
        pumpFile();
    } else if (m_phase == Phase::Backlogged) {
        armTimer(m_door.config().sendStallTimeoutMs);
        if (m_socket.bytesToWrite() <= m_door.config().maxUnsentBytes / 2)
            finishResponse();
    } else if (m_phase == Phase::Closing) {
        lingerWhenSent();
    }
}

void ConnectionGuard::onDisconnected()
{
    if (m_phase == Phase::Hello)
        m_socket.deleteLater(); // never handed to QtHttpServer, which deletes the others
    m_phase = Phase::Gone;
    failStream();
    m_timer.stop();
    m_output.reset(); // closes the file at once
    releaseUploadSlot();
    releaseBudget();
}

void ConnectionGuard::refuse(int status, const QString &message)
{
    sendRefusal(status, m_door.writer().refusal(status, message));
}

void ConnectionGuard::refuse(const HttpResponse &response)
{
    sendRefusal(response.status, m_door.writer().refusal(response));
}

void ConnectionGuard::sendRefusal(int status, const QByteArray &bytes)
{
    if (m_phase == Phase::Closing || m_phase == Phase::Lingering || m_phase == Phase::Gone)
        return;
    logAccess(status, bytes.size()); // a refusal after the head was read (413, 503) is a logged request too
    countRequest(status, bytes.size());
    detachParser();
    m_socket.write(bytes);
    closeAfterWrite();
}

void ConnectionGuard::closeAfterWrite()
{
    detachParser();
    releaseUploadSlot();
    m_output.reset();
    m_phase = Phase::Closing;
    armTimer(m_door.config().sendStallTimeoutMs);
    discard();
    lingerWhenSent();
}

bool ConnectionGuard::allSent() const
{
    return m_socket.bytesToWrite() == 0 && (!m_tls || m_tls->encryptedBytesToWrite() == 0);
}

void ConnectionGuard::lingerWhenSent()
{
    if (!allSent())
        return; // the next bytesWritten (or encryptedBytesWritten) looks again
    if (!m_tls)
        return startLinger();
    // QSslSocket signals bytesWritten once it encrypted the answer but before it hands the encrypted bytes to the
    // socket: a shutdown then would cut the answer off. Look again once that call is over.
    QMetaObject::invokeMethod(
        &m_socket,
        [this] {
            if (m_phase == Phase::Closing && allSent())
                startLinger();
        },
        Qt::QueuedConnection);
}

void ConnectionGuard::startLinger()
{
    m_phase = Phase::Lingering;
    armTimer(kLingerMs);
    discard();
    if (m_socket.state() == QAbstractSocket::ConnectedState)
        ::shutdown(int(m_socket.socketDescriptor()), SHUT_WR); // FIN after our answer; the client's close ends it
}

void ConnectionGuard::detachParser()
{
    // QtHttpServer must never parse what follows a refusal or a final response.
    if (QObject *parser = m_door.parser())
        QObject::disconnect(&m_socket, &QIODevice::readyRead, parser, nullptr);
}

void ConnectionGuard::releaseUploadSlot()
{
    if (m_holdsUploadSlot) {
        m_holdsUploadSlot = false;
        m_door.budget().releaseUpload();
    }
}

void ConnectionGuard::releaseBudget()
{
    if (m_visitor) {
        m_visitor = false;
        m_door.budget().releaseVisitor();
    }
    if (m_counted) {
        m_counted = false;
        m_door.budget().release(m_peer);
    }
}

void ConnectionGuard::armTimer(int ms)
{
    if (ms > 0)
        m_timer.start(ms, Qt::CoarseTimer, &m_socket);
    else
        m_timer.stop();
}

bool ConnectionGuard::timerEvent(QTimerEvent *event)
{
    if (event->timerId() != m_timer.timerId())
        return false;
    m_timer.stop();
    switch (m_phase) {
    case Phase::Hello:
    case Phase::Handshake:
        m_socket.abort();
        break;
    case Phase::Idle:
        if (m_socket.bytesToWrite() > 0) { // the last response is still leaving: not idle yet, unless it stalls
            if (m_sendClock.isValid() && m_sendClock.elapsed() > m_door.config().sendStallTimeoutMs)
                m_socket.abort();
            else
                armTimer(m_door.config().idleTimeoutMs);
            break;
        }
        closeAfterWrite();
        break;
    case Phase::Head:
        refuse(408, u"Request header timeout"_s);
        break;
    case Phase::Feeding:
        failStream();
        refuse(408, u"Request body timeout"_s);
        break;
    case Phase::Body:
        refuse(408, u"Request body timeout"_s);
        break;
    case Phase::Authorizing:
        refuse(503, u"Could not check the credentials in time; retry later"_s);
        break;
    case Phase::Backlogged:
    case Phase::Streaming:
    case Phase::Closing:
    case Phase::Lingering:
        m_socket.abort();
        break;
    case Phase::Waiting:
    case Phase::Gone:
        break;
    }
    return true;
}

} // namespace berth
