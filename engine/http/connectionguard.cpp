#include "http/connectionguard.h"

#include "http/connectionbudget.h"
#include "http/frontdoor.h"
#include "http/httpconfig.h"
#include "http/requesthandler.h"
#include "http/responsewriter.h"

#include <QHttpServerRequest>
#include <QPointer>
#include <QSslSocket>
#include <QTimerEvent>
#include <sys/socket.h>

namespace berth {

using namespace Qt::StringLiterals;

ConnectionGuard::ConnectionGuard(QAbstractSocket &socket, QSslSocket *tls, FrontDoor &door)
    : m_socket(socket)
    , m_tls(tls)
    , m_door(door)
    , m_output(socket, tls == nullptr)
{
}

ConnectionGuard::~ConnectionGuard()
{
    // The socket's destructor aborts and emits disconnected() after this: never into the guard's slots. Only the
    // guard's own connections go: QtHttpServer frees its request object from a destroyed() lambda on the socket.
    for (const QMetaObject::Connection &connection : m_slots)
        QObject::disconnect(connection);
    releaseUploadSlot();
    releaseBudget();
    failStream();
}

bool ConnectionGuard::adopt(qintptr descriptor)
{
    if (!m_socket.setSocketDescriptor(descriptor))
        return false;
    m_peer = HttpRequest::normalisedPeer(m_socket.peerAddress());
    m_socket.setSocketOption(QAbstractSocket::LowDelayOption, 1);
    m_socket.setReadBufferSize(kReadBufferBytes);
    QAbstractSocket *socket = &m_socket;
    m_slots[0] = QObject::connect(socket, &QIODevice::readyRead, socket, [this] { onReadyRead(); });
    m_slots[1] = QObject::connect(socket, &QIODevice::bytesWritten, socket, [this] { onBytesWritten(); });
    m_slots[2] = QObject::connect(socket, &QAbstractSocket::disconnected, socket, [this] { onDisconnected(); });
    if (m_tls) {
        startTls();
        return true;
    }
    noteIdle();
    armTimer(m_door.config().idleTimeoutMs);
    return true;
}

void ConnectionGuard::refuseAtAccept(const QString &message)
{
    if (m_tls) {
        // Nothing can be said before a handshake, and a handshake is the work a cap saves: close at once.
        m_phase = Phase::Gone;
        m_timer.stop();
        m_socket.abort();
        m_socket.deleteLater();
        return;
    }
    QObject::connect(&m_socket, &QAbstractSocket::disconnected, &m_socket, &QObject::deleteLater);
    m_phase = Phase::Waiting;
    refuse(503, message);
}

bool ConnectionGuard::isIdle() const
{
    // Kept alive after at least one answer; a connection that never sent a request is no keep-alive client.
    return m_serial > 0 && m_phase == Phase::Idle && m_held == 0 && m_socket.bytesAvailable() == 0
        && m_socket.bytesToWrite() == 0;
}

void ConnectionGuard::noteIdle()
{
    m_idleClock.start();
}

void ConnectionGuard::shed()
{
    releaseBudget();
    closeAfterWrite();
}

void ConnectionGuard::drain()
{
    m_draining = true;
    m_keepAlive = false; // the answer in progress, if any, is the last
    if (m_phase == Phase::Hello || m_phase == Phase::Handshake)
        return m_socket.abort(); // no request yet, and none can be answered before the handshake ends
    if (m_phase == Phase::Idle && m_socket.bytesAvailable() == 0)
        closeAfterWrite();
}

void ConnectionGuard::onReadyRead()
{
    switch (m_phase) {
    case Phase::Hello:
        readClientHello();
        return;
    case Phase::Handshake:
        hold(); // QtHttpServer must not parse before the guard has seen the request
        return;
    case Phase::Idle:
        letHeldThrough(); // a new request starts at the first byte nobody has taken yet
        if (m_socket.bytesAvailable() == 0)
            return;
        if (m_draining)
            return refuse(503, u"The server is shutting down; retry later"_s);
        m_phase = Phase::Head; // the idle timer keeps running until the head is known to be incomplete
        m_headTimed = false;
        frameHead();
        return;
    case Phase::Head:
        frameHead();
        return;
    case Phase::Feeding:
        feedStream();
        return;
    case Phase::Body:
        // Progress restarts the stall clock, but the body as a whole must keep a minimum rate: one byte every few
        // seconds holds no connection for long.
        if (overBodyDeadline())
            return refuse(408, u"Request body timeout"_s);
        armTimer(m_door.config().bodyStallTimeoutMs);
        if (m_readsBody)
            readBody();
        return;
    case Phase::Authorizing:
    case Phase::Waiting:
    case Phase::Streaming:
    case Phase::Backlogged:
        hold();
        return;
    case Phase::Closing:
    case Phase::Lingering:
        discard();
        return;
    case Phase::Gone:
        return;
    }
}

void ConnectionGuard::frameHead()
{
    QByteArray &scratch = m_door.scratch();
    while (m_framer.state() == RequestFramer::State::Head) {
        // A request's first bytes are peeked: when they hold the whole head, nothing is copied twice. Otherwise
        // they are consumed inside the guard's transaction, so QtHttpServer's slot (next in line) sees none.
        const bool fresh = !m_socket.isTransactionStarted();
        const qint64 room = kMaxHeadBytes + 1; // the scratch may be larger (TLS hellos)
        const qint64 got = fresh ? m_socket.peek(scratch.data(), room) : m_socket.read(scratch.data(), room);
        if (got <= 0)
            break;
        const qsizetype used = m_framer.feed(QByteArrayView(scratch.constData(), got));
        if (fresh && m_framer.state() == RequestFramer::State::Head) {
            m_socket.startTransaction();
            m_held = 0;
            m_socket.skip(used);
        }
    }
    switch (m_framer.state()) {
    case RequestFramer::State::Failed:
        refuse(m_framer.errorStatus(), QString::fromLatin1(m_framer.errorMessage()));
        return;
    case RequestFramer::State::HeadComplete:
        headComplete();
        return;
    default:
        if (!m_headTimed) { // the deadline counts from the head's first byte: slow senders get no extension
            m_headTimed = true;
            armTimer(m_door.config().headerTimeoutMs);
        }
        return;
    }
}

void ConnectionGuard::headComplete()
{
    const qsizetype headBytes = m_framer.headBytes();
    m_head = m_framer.takeHead();
    m_framer.reset();
    m_phase = Phase::Body;
    m_requestClock.start();
    noteForAccessLog();

    const qint64 length = m_head.contentLength;
    RequestHead head {m_head.method, m_head.target, m_head.host, length, {}, {}, {}};
    for (const auto &field : m_head.headers) {
        if (field.first == "authorization")
            head.authorization = field.second;
        else if (field.first == "accept")
            head.accept = field.second;
        else if (field.first == "content-type")
            head.contentType = field.second;
    }
    const BodyLimit limit = m_door.handler().bodyLimit(head);
    m_streamsBody = limit.streamedTypes.contains(head.contentType.split(';').first().trimmed().toLower());
    m_requestKind = limit.kind;
    m_countPending = m_door.metrics() != nullptr;
    if (!limit.forApi && !m_visitor) {
        // Visitors may not take the connections kept for the management API.
        if (!m_door.budget().admitVisitor())
            return refuse(503, u"Too many connections; retry later"_s);
        m_visitor = true;
    }
    if (length > limit.maxBytes)
        return refuse(m_door.handler().tooLarge(head, limit));
    m_bodyBytes = headBytes + length;
    if (length > kReadBufferBytes && limit.needsAuthorization) {
        // Nothing of a large body is read before its caller is known: the bytes stay in the guard's transaction
        // (bounded by the read buffer), invisible to QtHttpServer, until the handler decides.
        m_phase = Phase::Authorizing;
        hold();
        armTimer(m_door.config().headerTimeoutMs);
        const quint64 serial = m_serial;
        const QPointer<QObject> alive(&m_socket);
        m_door.handler().authorizeUpload(
            head, [this, alive, mailbox = m_door.mailbox(), serial](std::optional<HttpResponse> refusal) {
                mailbox->post([this, alive, serial, refusal = std::move(refusal)] {
                    if (alive && m_serial == serial && m_phase == Phase::Authorizing)
                        onAuthorized(refusal);
                });
            });
        return;
    }
    if (m_socket.isTransactionStarted())
        m_socket.rollbackTransaction(); // QtHttpServer reads the request from its first byte
    if (length == 0)
        return deliverBodyless(headBytes);
    if (m_streamsBody)
        return beginStreamedBody();
    admitBody();
    // QtHttpServer's readyRead slot runs next in this same emission: it parses the request and calls dispatch().
}

void ConnectionGuard::deliverBodyless(qsizetype headBytes)
{
    // A request without a body is whole once its head is framed, and the handler takes the method, target and
    // fields from the guard's framing anyway: QtHttpServer's second parse of the same head (a byte at a time
    // through QIODevice, then a QUrl) would add nothing and cost the largest share of a small request.
    m_socket.skip(headBytes);
    hold(); // pipelined requests wait for this answer; QtHttpServer's slot, next in this emission, sees none of them
    deliver(QByteArray());
    if (m_phase == Phase::Idle)
        hold(); // answered at once, which let them through: they stay held until resume(), queued by the answer
}

void ConnectionGuard::onAuthorized(const std::optional<HttpResponse> &refusal)
{
    if (refusal)
        return refuse(*refusal);
    m_phase = Phase::Body;
    if (m_socket.isTransactionStarted())
        m_socket.rollbackTransaction();
    if (m_streamsBody)
        return beginStreamedBody();
    admitBody();
    if (m_phase == Phase::Body && m_socket.bytesAvailable() > 0)
        Q_EMIT m_socket.readyRead(); // QtHttpServer saw none of the held bytes: let it read them now
}

void ConnectionGuard::admitBody()
{
    const qint64 length = m_head.contentLength;
    if (length <= 0)
        return;
    if (length > m_door.config().largeUploadBytes) {
        if (!m_door.budget().acquireUpload())
            return refuse(503, u"Too many uploads in progress; retry later"_s);
        m_holdsUploadSlot = true;
    }
    m_bodyClock.start();
    if (m_socket.bytesAvailable() < m_bodyBytes) {
        if (m_head.expectContinue) // QtHttpServer 6.4 never answers Expect itself: this is the only 100
            m_socket.write("HTTP/1.1 100 Continue\r\n\r\n");
        armTimer(m_door.config().bodyStallTimeoutMs);
    }
    // A large plain-HTTP body is read by the guard itself, into one buffer of its announced length: QtHttpServer
    // 6.4 keeps every body byte in the socket's buffer and in pieces of its own, and once the body is complete joins
    // the pieces into a new buffer on this thread (for a 67 MB deploy, a 40 ms stall of every connection on it).
    // Its head was framed and approved by the guard already; QtHttpServer sees no byte of this request.
    m_readsBody = !m_tls && length > kReadBufferBytes;
    if (m_readsBody) {
        m_socket.skip(m_bodyBytes - length); // the head, read for good: the request starts at its first byte here
        m_body.resize(length); // grows into memory as it is written: a slow client holds no more than it sent
        m_bodyRead = 0;
        m_socket.setReadBufferSize(kBodySliceBytes);
        readBody();
        return;
    }
    // QtHttpServer keeps a request's bytes in the socket's buffer until its end: the buffer takes the whole request
    // (at most a head and 64 KiB here, or over HTTPS, whose decrypting layer would not resume on a limit raised later).
    const qint64 whole = m_bodyBytes + kReadBufferBytes;
    if (whole > m_socket.readBufferSize())
        m_socket.setReadBufferSize(whole);
}

void ConnectionGuard::readBody()
{
    // QtHttpServer's slot comes after the guard's and may have started a transaction; it read nothing in it.
    if (m_socket.isTransactionStarted())
        m_socket.commitTransaction();
    const qint64 wanted = qMin(m_socket.bytesAvailable(), m_head.contentLength - m_bodyRead);
    const qint64 got = wanted > 0 ? m_socket.read(m_body.data() + m_bodyRead, wanted) : 0;
    if (got > 0)
        m_bodyRead += got;
    if (m_bodyRead < m_head.contentLength)
        return;
    // Complete. Pipelined bytes are held first, so that QtHttpServer's slot, next in this same emission, sees none;
    // the request goes to its handler from the event loop, where an answer given at once can let them through.
    m_phase = Phase::Waiting;
    m_timer.stop();
    hold();
    const quint64 serial = m_serial;
    QMetaObject::invokeMethod(
        &m_socket,
        [this, serial] {
            if (m_phase == Phase::Waiting && m_serial == serial)
                deliver(std::exchange(m_body, QByteArray()));
        },
        Qt::QueuedConnection);
}

bool ConnectionGuard::overBodyDeadline() const
{
    const HttpConfig &config = m_door.config();
    if (config.minBodyBytesPerSecond <= 0 || !m_bodyClock.isValid())
        return false;
    const qint64 allowedMs = config.bodyStallTimeoutMs + m_bodyBytes * 1000 / config.minBodyBytesPerSecond;
    return m_bodyClock.elapsed() - m_pausedMs > allowedMs;
}

void ConnectionGuard::dispatch(const QHttpServerRequest &parsed)
{
    if (m_phase != Phase::Body || m_readsBody || parsed.body().size() != m_head.contentLength) {
        // QtHttpServer framed something the guard did not approve: answer nothing on this connection.
        qWarning("berth: QtHttpServer and the front door disagree on a request; connection dropped");
        m_socket.abort();
        return;
    }
    m_held = 0; // nothing of the guard's is held while QtHttpServer hands over a request
    deliver(parsed.body());
}

void ConnectionGuard::deliver(QByteArray body)
{
    m_phase = Phase::Waiting;
    m_readsBody = false;
    m_timer.stop();
    if (m_socket.readBufferSize() != kReadBufferBytes)
        m_socket.setReadBufferSize(kReadBufferBytes);

    HttpRequest request;
    request.method = std::move(m_head.method);
    request.target = std::move(m_head.target);
    HttpRequest::splitTarget(request.target, &request.path, &request.query);
    request.headers = std::move(m_head.headers);
    request.body = std::move(body);
    request.bodyStream = m_stream;
    request.peer = m_peer;
    request.secure = m_tls && m_tls->isEncrypted();
    m_keepAlive = m_head.keepAlive;
    m_isHead = request.isHead();
    m_head = FramedHead();

    const quint64 serial = ++m_serial;
    m_door.handler().handle(request, ResponseSink(&m_socket, m_door.mailbox(), [this, serial](HttpResponse response) {
        respond(serial, std::move(response));
    }));
}

} // namespace berth
