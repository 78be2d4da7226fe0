#pragma once

#include "requestframer.h"

#include <QBasicTimer>
#include <QElapsedTimer>
#include <QHostAddress>
#include <QSslSocket>
#include <memory>

QT_BEGIN_NAMESPACE
class QHttpServerRequest;
QT_END_NAMESPACE

namespace berth {

class FileStreamer;
class FrontDoor;
struct HttpResponse;

// One client connection, guarded. Its readyRead slot is connected before QtHttpServer's, so it sees every byte
// first: it frames each request head itself and lets QtHttpServer parse a request only once the guard has accepted
// it; until then, and while a response is in progress, it keeps the bytes inside its own read transaction, where
// QtHttpServer cannot see them. Refusals, timeouts, 100-continue, the response and the file streaming are all here.
// QtHttpServer deletes the socket (and so this guard) after the client disconnects. On an HTTPS door the connection
// is a TLS server socket whose handshake is the first phase; on a plain one the QSslSocket stays unencrypted.
class HttpConnection final : public QSslSocket
{
    Q_OBJECT

public:
    HttpConnection(FrontDoor &door, QObject *parent);
    ~HttpConnection() override;
    Q_DISABLE_COPY_MOVE(HttpConnection)

    // Adopts an accepted descriptor and connects the guard's slots (before QtHttpServer gets the socket).
    bool adopt(qintptr descriptor);
    const QHostAddress &peer() const { return m_peer; }
    // The connection holds a place in the shared budget, given back when it goes.
    void setCounted() { m_counted = true; }
    // Over a connection cap: 503 and close; the socket is never handed to QtHttpServer.
    void refuseAtAccept(const QString &message);
    // Called by QtHttpServer's handleRequest once it has parsed the request the guard framed and approved.
    void dispatch(const QHttpServerRequest &parsed);

    // Unsent bytes: with TLS, also those already encrypted but not yet taken by the kernel.
    qint64 bytesToWrite() const override;
    // While the guard holds a full read buffer's worth, nothing more is read from the TCP socket (see throttled()).
    qint64 bytesAvailable() const override;

    // Between requests with nothing left to send, since idleSince() (ms on a monotonic clock).
    bool isIdle() const;
    qint64 idleSince() const { return m_idleSince; }
    // Gives its place in the budget to a newcomer at once and closes (an idle keep-alive connection).
    void shed();
    // A graceful stop: the request in progress (if any) is answered with Connection: close; new ones get 503.
    void drain();

protected:
    void timerEvent(QTimerEvent *event) override;
    qint64 readData(char *data, qint64 maxSize) override;

private:
    enum class Phase
    {
        Handshake, // TLS: the handshake has not completed; nothing is read yet
        Idle, // between requests (keep-alive)
        Head, // a request head is arriving
        Authorizing, // a large body waits for the handler to authorise its caller; its bytes are held
        Body, // head accepted: QtHttpServer reads the body
        Waiting, // the handler has the request; later requests are held
        Streaming, // a file response is being streamed; later requests are held
        Backlogged, // a response is answered but too much of it is unsent; later requests wait for the client
        Closing, // the last response is being flushed
        Lingering, // write side shut; input discarded until the client closes or the linger time ends
        Gone, // disconnected
    };

    void onEncrypted();
    void onReadyRead();
    void onBytesWritten();
    void onDisconnected();
    void frameHead();
    void headComplete();
    void admitBody();
    void onAuthorized(bool authorized);
    bool overBodyDeadline() const;
    void hold();
    bool throttled() const;
    void discard();
    void respond(quint64 serial, HttpResponse response);
    void pumpFile();
    void finishResponse();
    void resume();
    void refuse(int status, const QString &message);
    void refuse(const HttpResponse &response);
    void sendRefusal(const QByteArray &bytes);
    void closeAfterWrite();
    void startLinger();
    void detachParser();
    void releaseUploadSlot();
    void releaseBudget();
    void armTimer(int ms);
    void noteIdle();

    FrontDoor &m_door;
    RequestFramer m_framer;
    FramedHead m_head; // the approved head QtHttpServer is parsing, until dispatch
    std::unique_ptr<FileStreamer> m_streamer;
    QBasicTimer m_timer;
    QElapsedTimer m_bodyClock; // since the body was let in: its minimum rate
    QElapsedTimer m_sendClock; // since the client last took response bytes: the send stall
    QHostAddress m_peer;
    qint64 m_idleSince = 0;
    Phase m_phase = Phase::Idle;
    quint64 m_serial = 0;
    qint64 m_lingered = 0;
    qint64 m_bodyBytes = 0; // head and body of the request being read
    qint64 m_held = 0; // bytes held in the guard's current transaction (hold())
    bool m_counted = false;
    bool m_visitor = false; // counted among the visitors' connections
    bool m_draining = false;
    bool m_keepAlive = true;
    bool m_isHead = false;
    bool m_headTimed = false;
    bool m_holdsUploadSlot = false;
};

} // namespace berth
