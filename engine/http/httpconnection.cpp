#include "httpconnection.h"

#include "connectionbudget.h"
#include "filestreamer.h"
#include "frontdoor.h"
#include "httpconfig.h"
#include "requesthandler.h"
#include "responsewriter.h"

#include <QHttpServerRequest>
#include <QTimerEvent>
#include <sys/socket.h>

namespace berth {

using namespace Qt::StringLiterals;

namespace {

// In-memory bodies up to this size go out in the same write as the head.
constexpr qsizetype kCoalesceBytes = 16 * 1024;

bool asksToClose(const HttpResponse &response)
{
    return response.header("connection").toLower().contains("close");
}

} // namespace

HttpConnection::HttpConnection(FrontDoor &door, QObject *parent)
    : QSslSocket(parent)
    , m_door(door)
{
}

HttpConnection::~HttpConnection()
{
    // ~QAbstractSocket aborts and emits disconnected(): never into this half-destroyed object's slots. Only the
    // guard's own connections go: QtHttpServer frees its request object from a destroyed() lambda on this socket.
    disconnect(this, &QIODevice::readyRead, this, &HttpConnection::onReadyRead);
    disconnect(this, &QIODevice::bytesWritten, this, &HttpConnection::onBytesWritten);
    disconnect(this, &QAbstractSocket::disconnected, this, &HttpConnection::onDisconnected);
    disconnect(this, &QSslSocket::encryptedBytesWritten, this, nullptr);
    disconnect(this, &QSslSocket::encrypted, this, &HttpConnection::onEncrypted);
    disconnect(this, &QAbstractSocket::errorOccurred, this, nullptr);
    releaseUploadSlot();
    releaseBudget();
}

bool HttpConnection::adopt(qintptr descriptor)
{
    if (!setSocketDescriptor(descriptor))
        return false;
    m_peer = HttpRequest::normalisedPeer(peerAddress());
    setSocketOption(QAbstractSocket::LowDelayOption, 1);
    setReadBufferSize(kReadBufferBytes);
    connect(this, &QIODevice::readyRead, this, &HttpConnection::onReadyRead);
    connect(this, &QIODevice::bytesWritten, this, &HttpConnection::onBytesWritten);
    connect(this, &QAbstractSocket::disconnected, this, &HttpConnection::onDisconnected);
    if (m_door.isTls()) {
        // Encrypted bytes leave after the plain ones were counted as written: both move a response along.
        connect(this, &QSslSocket::encryptedBytesWritten, this, &HttpConnection::onBytesWritten);
        connect(this, &QSslSocket::encrypted, this, &HttpConnection::onEncrypted);
        connect(this, &QAbstractSocket::errorOccurred, this, [this] {
            if (m_phase == Phase::Handshake) // a failed handshake: nothing to answer in, only to close
                QMetaObject::invokeMethod(this, &QAbstractSocket::abort, Qt::QueuedConnection);
        });
        setSslConfiguration(m_door.tls());
        m_phase = Phase::Handshake;
        // The handshake is a phase like the header block: a client that starts it and stalls, or never starts it,
        // is closed at the header timeout, and holds its place in the per-address cap until then.
        armTimer(m_door.config().headerTimeoutMs);
        startServerEncryption();
        return true;
    }
    noteIdle();
    armTimer(m_door.config().idleTimeoutMs);
    return true;
}

void HttpConnection::onEncrypted()
{
    if (m_phase != Phase::Handshake)
        return;
    m_phase = Phase::Idle;
    noteIdle();
    armTimer(m_door.config().idleTimeoutMs);
    if (isTransactionStarted())
        rollbackTransaction(); // anything that arrived with the handshake's end is the first request
    if (bytesAvailable() > 0)
        QMetaObject::invokeMethod(this, &HttpConnection::resume, Qt::QueuedConnection);
}

qint64 HttpConnection::bytesToWrite() const
{
    return QSslSocket::bytesToWrite() + encryptedBytesToWrite();
}

void HttpConnection::refuseAtAccept(const QString &message)
{
    if (m_door.isTls()) {
        // Nothing can be said before a handshake, and a handshake is the work a cap saves: close at once.
        m_phase = Phase::Gone;
        m_timer.stop();
        abort();
        deleteLater();
        return;
    }
    connect(this, &QAbstractSocket::disconnected, this, &QObject::deleteLater);
    m_phase = Phase::Waiting;
    refuse(503, message);
}

bool HttpConnection::isIdle() const
{
    // Kept alive after at least one answer; a connection that never sent a request is no keep-alive client.
    return m_serial > 0 && m_phase == Phase::Idle && bytesAvailable() == 0 && bytesToWrite() == 0;
}

void HttpConnection::noteIdle()
{
    m_idleSince = QDateTime::currentMSecsSinceEpoch();
}

void HttpConnection::shed()
{
    releaseBudget();
    closeAfterWrite();
}

void HttpConnection::drain()
{
    m_draining = true;
    m_keepAlive = false; // the answer in progress, if any, is the last
    if (m_phase == Phase::Handshake)
        return abort(); // no request yet, and none can be answered before the handshake ends
    if (m_phase == Phase::Idle && bytesAvailable() == 0)
        closeAfterWrite();
}

void HttpConnection::onReadyRead()
{
    switch (m_phase) {
    case Phase::Handshake:
        hold(); // QtHttpServer must not parse before the guard has seen the request
        return;
    case Phase::Idle:
        if (bytesAvailable() == 0)
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
    case Phase::Body:
        // Progress restarts the stall clock, but the body as a whole must keep a minimum rate: one byte every few
        // seconds holds no connection for long.
        if (overBodyDeadline())
            return refuse(408, u"Request body timeout"_s);
        armTimer(m_door.config().bodyStallTimeoutMs);
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

void HttpConnection::frameHead()
{
    QByteArray &scratch = m_door.scratch();
    while (m_framer.state() == RequestFramer::State::Head) {
        // A request's first bytes are peeked: when they hold the whole head, nothing is copied twice. Otherwise
        // they are consumed inside the guard's transaction, so QtHttpServer's slot (next in line) sees none.
        const bool fresh = !isTransactionStarted();
        const qint64 got = fresh ? peek(scratch.data(), scratch.size()) : read(scratch.data(), scratch.size());
        if (got <= 0)
            break;
        const qsizetype used = m_framer.feed(QByteArrayView(scratch.constData(), got));
        if (fresh && m_framer.state() == RequestFramer::State::Head) {
            startTransaction();
            m_held = 0;
            skip(used);
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

void HttpConnection::headComplete()
{
    const qsizetype headBytes = m_framer.headBytes();
    m_head = m_framer.takeHead();
    m_framer.reset();
    m_phase = Phase::Body;

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
        const QPointer<HttpConnection> self(this);
        m_door.handler().authorizeUpload(head, [self, mailbox = m_door.mailbox(), serial](bool authorized) {
            mailbox->post([self, serial, authorized] {
                if (self && self->m_serial == serial && self->m_phase == Phase::Authorizing)
                    self->onAuthorized(authorized);
            });
        });
        return;
    }
    if (isTransactionStarted())
        rollbackTransaction(); // QtHttpServer reads the request from its first byte
    admitBody();
    // QtHttpServer's readyRead slot runs next in this same emission: it parses the request and calls dispatch().
}

void HttpConnection::onAuthorized(bool authorized)
{
    if (!authorized) {
        return refuse(401, u"Unauthorized"_s);
    }
    m_phase = Phase::Body;
    if (isTransactionStarted())
        rollbackTransaction();
    admitBody();
    if (m_phase == Phase::Body && bytesAvailable() > 0)
        Q_EMIT readyRead(); // QtHttpServer saw none of the held bytes: let it read them now
}

void HttpConnection::admitBody()
{
    const qint64 length = m_head.contentLength;
    if (length <= 0)
        return;
    if (length > m_door.config().largeUploadBytes) {
        if (!m_door.budget().acquireUpload())
            return refuse(503, u"Too many uploads in progress; retry later"_s);
        m_holdsUploadSlot = true;
    }
    setReadBufferSize(m_bodyBytes + kReadBufferBytes);
    m_bodyClock.start();
    if (bytesAvailable() < m_bodyBytes) {
        if (m_head.expectContinue) // QtHttpServer 6.4 never answers Expect itself: this is the only 100
            write("HTTP/1.1 100 Continue\r\n\r\n");
        armTimer(m_door.config().bodyStallTimeoutMs);
    }
}

bool HttpConnection::overBodyDeadline() const
{
    const HttpConfig &config = m_door.config();
    if (config.minBodyBytesPerSecond <= 0 || !m_bodyClock.isValid())
        return false;
    const qint64 allowedMs = config.bodyStallTimeoutMs + m_bodyBytes * 1000 / config.minBodyBytesPerSecond;
    return m_bodyClock.elapsed() > allowedMs;
}

void HttpConnection::dispatch(const QHttpServerRequest &parsed)
{
    if (m_phase != Phase::Body || parsed.body().size() != m_head.contentLength) {
        // QtHttpServer framed something the guard did not approve: answer nothing on this connection.
        qWarning("berth: QtHttpServer and the front door disagree on a request; connection dropped");
        abort();
        return;
    }
    m_phase = Phase::Waiting;
    m_held = 0; // nothing of the guard's is held while QtHttpServer hands over a request
    m_timer.stop();
    if (readBufferSize() != kReadBufferBytes)
        setReadBufferSize(kReadBufferBytes);

    HttpRequest request;
    request.method = std::move(m_head.method);
    request.target = std::move(m_head.target);
    HttpRequest::splitTarget(request.target, &request.path, &request.query);
    request.headers = std::move(m_head.headers);
    request.body = parsed.body();
    request.peer = m_peer;
    request.secure = isEncrypted();
    m_keepAlive = m_head.keepAlive;
    m_isHead = request.isHead();
    m_head = FramedHead();

    const quint64 serial = ++m_serial;
    m_door.handler().handle(request, ResponseSink(this, m_door.mailbox(), [this, serial](HttpResponse response) {
        respond(serial, std::move(response));
    }));
}

void HttpConnection::respond(quint64 serial, HttpResponse response)
{
    if (serial != m_serial || m_phase != Phase::Waiting)
        return; // the client left, or this request was already answered
    ResponseWriter &writer = m_door.writer();
    m_sendClock.start();
    m_keepAlive = m_keepAlive && !asksToClose(response);
    const bool hasBody = ResponseWriter::statusHasBody(response.status);

    if (!response.filePath.isEmpty() && hasBody) {
        auto streamer = std::make_unique<FileStreamer>();
        if (streamer->open(response.filePath, response.fileOffset, response.fileLength)) {
            write(writer.head(response, streamer->length(), m_keepAlive));
            if (m_isHead || streamer->length() == 0)
                return finishResponse();
            m_streamer = std::move(streamer);
            m_phase = Phase::Streaming;
            armTimer(m_door.config().sendStallTimeoutMs);
            return pumpFile();
        }
        qWarning("berth: cannot stream %s", qUtf8Printable(response.filePath));
        response = HttpResponse::jsonError(500, u"File unavailable"_s);
    }

    QByteArray out = writer.head(response, response.body.size(), m_keepAlive);
    if (!hasBody || m_isHead || response.body.isEmpty()) {
        write(out);
    } else if (response.body.size() <= kCoalesceBytes) {
        out.append(response.body);
        write(out);
    } else {
        write(out);
        write(response.body); // large arrays are queued by reference
    }
    m_door.noteUnsent(bytesToWrite());
    finishResponse();
}

void HttpConnection::pumpFile()
{
    if (!m_streamer->pump(*this)) {
        qWarning("berth: read error while streaming a file; connection dropped");
        abort();
        return;
    }
    m_door.noteUnsent(bytesToWrite());
    if (m_streamer->isDone()) {
        m_streamer.reset();
        finishResponse();
    }
}

void HttpConnection::finishResponse()
{
    releaseUploadSlot();
    if (!m_keepAlive)
        return closeAfterWrite();
    if (bytesToWrite() > m_door.config().maxUnsentBytes) {
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
    if (isTransactionStarted())
        rollbackTransaction(); // the held bytes (pipelined requests) become visible again
    if (bytesAvailable() > 0) // QtHttpServer reads one request per readyRead: wake it for the next one
        QMetaObject::invokeMethod(this, &HttpConnection::resume, Qt::QueuedConnection);
}

void HttpConnection::resume()
{
    if (m_phase == Phase::Idle && bytesAvailable() > 0)
        Q_EMIT readyRead();
}

void HttpConnection::hold()
{
    if (bytesAvailable() == 0)
        return;
    if (!isTransactionStarted()) {
        startTransaction();
        m_held = 0;
    }
    // Everything visible is kept in the transaction, so that QtHttpServer (next in line) sees none of it;
    // throttled() bounds how much that can become.
    const qint64 held = skip(bytesAvailable());
    if (held > 0)
        m_held += held;
}

bool HttpConnection::throttled() const
{
    // QSslSocket buffers above its TCP socket: the TCP socket's read buffer size alone would not stop a client that
    // pipelines requests behind a slow answer, as its bytes move up into the transaction. Once a read buffer's worth
    // is held, the rest stays in the TCP socket (and then in the kernel: backpressure) until the hold ends.
    switch (m_phase) {
    case Phase::Handshake:
    case Phase::Authorizing:
    case Phase::Waiting:
    case Phase::Streaming:
    case Phase::Backlogged:
        return m_held >= kReadBufferBytes && isTransactionStarted();
    default:
        return false;
    }
}

qint64 HttpConnection::bytesAvailable() const
{
    return throttled() ? QIODevice::bytesAvailable() : QSslSocket::bytesAvailable();
}

qint64 HttpConnection::readData(char *data, qint64 maxSize)
{
    return throttled() ? 0 : QSslSocket::readData(data, maxSize);
}

void HttpConnection::discard()
{
    if (isTransactionStarted())
        commitTransaction();
    const qint64 dropped = skip(bytesAvailable());
    if (m_phase == Phase::Lingering && dropped > 0 && (m_lingered += dropped) > kLingerMaxBytes)
        abort();
}

void HttpConnection::onBytesWritten()
{
    m_sendClock.start();
    if (m_phase == Phase::Streaming) {
        armTimer(m_door.config().sendStallTimeoutMs);
        pumpFile();
    } else if (m_phase == Phase::Backlogged) {
        armTimer(m_door.config().sendStallTimeoutMs);
        if (bytesToWrite() <= m_door.config().maxUnsentBytes / 2)
            finishResponse();
    } else if (m_phase == Phase::Closing && bytesToWrite() == 0) {
        startLinger();
    }
}

void HttpConnection::onDisconnected()
{
    m_phase = Phase::Gone;
    m_timer.stop();
    m_streamer.reset(); // closes the file at once
    releaseUploadSlot();
    releaseBudget();
}

void HttpConnection::refuse(int status, const QString &message)
{
    sendRefusal(m_door.writer().refusal(status, message));
}

void HttpConnection::refuse(const HttpResponse &response)
{
    sendRefusal(m_door.writer().refusal(response));
}

void HttpConnection::sendRefusal(const QByteArray &bytes)
{
    if (m_phase == Phase::Closing || m_phase == Phase::Lingering || m_phase == Phase::Gone)
        return;
    detachParser();
    write(bytes);
    closeAfterWrite();
}

void HttpConnection::closeAfterWrite()
{
    detachParser();
    releaseUploadSlot();
    m_streamer.reset();
    m_phase = Phase::Closing;
    armTimer(m_door.config().sendStallTimeoutMs);
    discard();
    if (bytesToWrite() == 0)
        startLinger();
}

void HttpConnection::startLinger()
{
    m_phase = Phase::Lingering;
    armTimer(kLingerMs);
    discard();
    if (state() == QAbstractSocket::ConnectedState)
        ::shutdown(int(socketDescriptor()), SHUT_WR); // FIN after our answer; the client's close ends it
}

void HttpConnection::detachParser()
{
    // QtHttpServer must never parse what follows a refusal or a final response.
    if (QObject *parser = m_door.parser())
        disconnect(this, &QIODevice::readyRead, parser, nullptr);
}

void HttpConnection::releaseUploadSlot()
{
    if (m_holdsUploadSlot) {
        m_holdsUploadSlot = false;
        m_door.budget().releaseUpload();
    }
}

void HttpConnection::releaseBudget()
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

void HttpConnection::armTimer(int ms)
{
    if (ms > 0)
        m_timer.start(ms, Qt::CoarseTimer, this);
    else
        m_timer.stop();
}

void HttpConnection::timerEvent(QTimerEvent *event)
{
    if (event->timerId() != m_timer.timerId())
        return QSslSocket::timerEvent(event);
    m_timer.stop();
    switch (m_phase) {
    case Phase::Handshake:
        return abort();
    case Phase::Idle:
        if (bytesToWrite() > 0) { // the last response is still leaving: not idle yet, unless the client stalls
            if (m_sendClock.isValid() && m_sendClock.elapsed() > m_door.config().sendStallTimeoutMs)
                return abort();
            return armTimer(m_door.config().idleTimeoutMs);
        }
        return closeAfterWrite();
    case Phase::Head:
        return refuse(408, u"Request header timeout"_s);
    case Phase::Body:
        return refuse(408, u"Request body timeout"_s);
    case Phase::Authorizing:
        return refuse(503, u"Could not check the credentials in time; retry later"_s);
    case Phase::Backlogged:
    case Phase::Streaming:
    case Phase::Closing:
    case Phase::Lingering:
        abort();
        return;
    case Phase::Waiting:
    case Phase::Gone:
        return;
    }
}

} // namespace berth
