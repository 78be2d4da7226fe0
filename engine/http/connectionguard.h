#pragma once

#include "http/accesslogline.h"
#include "http/requestframer.h"
#include "http/responseoutput.h"

#include <QBasicTimer>
#include <QElapsedTimer>
#include <QHostAddress>
#include <QMetaObject>
#include <array>
#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QAbstractSocket;
class QHttpServerRequest;
class QSslSocket;
class QTimerEvent;
QT_END_NAMESPACE

namespace berth {

class FrontDoor;
class RequestBodyStream;
struct ClientHello;
struct HttpResponse;

// The guard of one client connection, whatever its socket class (see GuardedSocket: a plain QTcpSocket, or a
// QSslSocket on an HTTPS door). Its readyRead slot is connected before QtHttpServer's, so it sees every byte first:
// it frames each request head itself and lets QtHttpServer parse a request with a body only once it has accepted
// it (a request without one, whole once framed, and a large plain-HTTP body it hands to the handler itself); until
// then, and while a response is in progress, it keeps the bytes inside its own read transaction, where QtHttpServer
// cannot see them. Refusals, timeouts, 100-continue, the response and the file streaming are all here. It lives
// inside its socket, which QtHttpServer deletes after the client disconnects.
class ConnectionGuard final
{
public:
    // tls is the same socket when the door is HTTPS, else null.
    ConnectionGuard(QAbstractSocket &socket, QSslSocket *tls, FrontDoor &door);
    ~ConnectionGuard();
    Q_DISABLE_COPY_MOVE(ConnectionGuard)

    // The guard of a socket the FrontDoor made (every socket it hands to QtHttpServer is a GuardedSocket).
    static ConnectionGuard &of(QObject *socket);

    // Adopts an accepted descriptor and connects the guard's slots (before QtHttpServer gets the socket).
    bool adopt(qintptr descriptor);
    const QHostAddress &peer() const { return m_peer; }
    // The connection holds a place in the shared budget, given back when it goes.
    void setCounted() { m_counted = true; }
    // Over a connection cap: 503 and close; the socket is never handed to QtHttpServer.
    void refuseAtAccept(const QString &message);
    // Called by QtHttpServer's handleRequest once it has parsed the request the guard framed and approved.
    void dispatch(const QHttpServerRequest &parsed);

    // Between requests with nothing left to send, since idleSince() (ms on a monotonic clock).
    bool isIdle() const;
    qint64 idleSince() const { return m_idleClock.msecsSinceReference(); }
    // Gives its place in the budget to a newcomer at once and closes (an idle keep-alive connection).
    void shed();
    // A graceful stop: the request in progress (if any) is answered with Connection: close; new ones get 503.
    void drain();

    // For the socket's overrides. While the guard holds a full read buffer's worth, nothing more is read from the
    // socket: bytesAvailable() shows only what is buffered, readData() reads nothing.
    bool throttled() const;
    // The socket's timer events: true if it was the guard's.
    bool timerEvent(QTimerEvent *event);

private:
    enum class Phase
    {
        Hello, // TLS: the client's hello is peeked at for its name; the socket is not QtHttpServer's yet
        Handshake, // TLS: the handshake has not completed; nothing is read yet
        Idle, // between requests (keep-alive)
        Head, // a request head is arriving
        Authorizing, // a large body waits for the handler to authorise its caller; its bytes are held
        Body, // head accepted with a body: QtHttpServer reads it (a large plain-HTTP one, the guard)
        Feeding, // the handler has the request and takes its body as it arrives (connectionguardstream.cpp)
        Waiting, // the handler has the request; later requests are held
        Streaming, // a file response is being streamed; later requests are held
        Backlogged, // a response is answered but too much of it is unsent; later requests wait for the client
        Closing, // the last response is being flushed
        Lingering, // write side shut; input discarded until the client closes or the linger time ends
        Gone, // disconnected
    };

    void startTls();
    void readClientHello();
    void startHandshake(const ClientHello &hello);
    void onEncrypted();
    void onReadyRead();
    void onBytesWritten();
    void onDisconnected();
    void frameHead();
    void headComplete();
    void admitBody();
    void readBody();
    void deliverBodyless(qsizetype headBytes);
    void onAuthorized(const std::optional<HttpResponse> &refusal);
    bool overBodyDeadline() const;
    void hold();
    void letHeldThrough(); // ends a hold (and QtHttpServer's empty transaction): the held bytes are visible again
    void discard();
    void deliver(QByteArray body); // the approved request, with its body, to the handler
    // A body the handler takes as it arrives: the request goes to it first, then the bytes through m_stream.
    void beginStreamedBody();
    void feedStream();
    void onStreamRoom();
    void failStream();
    void respond(quint64 serial, HttpResponse response);
    void pumpFile();
    void afterOutput(ResponseOutput::Progress progress);
    void finishResponse();
    void resume();
    void refuse(int status, const QString &message);
    void refuse(const HttpResponse &response);
    void sendRefusal(int status, const QByteArray &bytes);
    void noteForAccessLog(); // the framed head, when an access log is kept
    void logAccess(int status, qint64 bytesSent);
    void countRequest(int status, qint64 bytesSent); // into this thread's metrics, once per framed request
    void closeAfterWrite();
    void startLinger();
    bool allSent() const; // nothing of the answer left to hand to the kernel, encrypted or not
    void lingerWhenSent(); // startLinger() once allSent(), on HTTPS after the socket took the encrypted bytes
    void detachParser();
    void releaseUploadSlot();
    void releaseBudget();
    void armTimer(int ms);
    void noteIdle();

    QAbstractSocket &m_socket;
    QSslSocket *m_tls;
    FrontDoor &m_door;
    RequestFramer m_framer;
    FramedHead m_head; // the approved head QtHttpServer is parsing, until dispatch
    ResponseOutput m_output;
    std::array<QMetaObject::Connection, 6> m_slots; // undone first thing in the destructor
    QBasicTimer m_timer;
    QElapsedTimer m_bodyClock; // since the body was let in: its minimum rate
    QElapsedTimer m_sendClock; // since the client last took response bytes: the send stall
    QHostAddress m_peer;
    // Monotonic, so that a step of the wall clock cannot make a connection idle a moment look idle for hours.
    QElapsedTimer m_idleClock;
    Phase m_phase = Phase::Idle;
    quint64 m_serial = 0;
    qint64 m_lingered = 0;
    qint64 m_bodyBytes = 0; // head and body of the request being read
    qint64 m_held = 0; // bytes held in the guard's current transaction (hold())
    qint64 m_helloBytes = 0; // TLS: what must have arrived before the hello is read again
    AccessEntry m_access; // the request being answered, for the access log
    QByteArray m_accessClient; // the peer as the access log writes it, made at the first line
    bool m_accessPending = false;
    QElapsedTimer m_requestClock; // since the request's head was framed: its duration in the metrics
    RequestKind m_requestKind = RequestKind::Other;
    bool m_countPending = false;
    QByteArray m_body; // a large plain-HTTP body the guard reads itself (m_readsBody), of its announced length
    qint64 m_bodyRead = 0; // how much of m_body has arrived
    bool m_counted = false;
    bool m_visitor = false; // counted among the visitors' connections
    bool m_draining = false;
    bool m_keepAlive = true;
    bool m_isHead = false;
    bool m_headTimed = false;
    bool m_holdsUploadSlot = false;
    bool m_readsBody = false; // the body being read is the guard's, not QtHttpServer's
    bool m_streamsBody = false; // the handler takes this request's body as it arrives
    std::shared_ptr<RequestBodyStream> m_stream; // the body being fed to its handler (Phase::Feeding)
    bool m_streamPaused = false; // the handler has not taken what waits: nothing more is read meanwhile
    QElapsedTimer m_pauseClock; // since the pause began
    qint64 m_pausedMs = 0; // the body's time in pauses, not the client's to answer for
};

} // namespace berth
