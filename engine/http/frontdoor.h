#pragma once

#include "http/httpconfig.h"
#include "http/responsewriter.h"

#include <QByteArray>
#include <QPointer>
#include <QTcpServer>
#include <atomic>
#include <memory>

namespace berth {

class AccessLogBuffer;
class ConnectionBudget;
class ConnectionGuard;
class RequestCounters;
class RequestHandler;
class ThreadMailbox;
class TlsCertificateStore;

// The guard in front of QtHttpServer on one serving thread: the QTcpServer handed to QAbstractHttpServer::bind().
// It wraps every accepted socket in a GuardedSocket (whose guard's readyRead slot is connected before QtHttpServer's),
// admits it against the budget all threads share (503 beyond, after closing this thread's oldest idle connection),
// keeps accepting after accept errors such as EMFILE, and holds what this thread's connections share: the handler,
// the limits, the response writer and the mailbox through which other threads answer them.
class FrontDoor final : public QTcpServer
{
    Q_OBJECT

public:
    FrontDoor(RequestHandler &handler, const HttpConfig &config, ConnectionBudget &budget, QObject *parent = nullptr);
    ~FrontDoor() override;
    Q_DISABLE_COPY_MOVE(FrontDoor)

    // The QAbstractHttpServer whose readyRead slots a connection detaches before it refuses or closes.
    void setParser(QObject *parser) { m_parser = parser; }
    QObject *parser() const { return m_parser; }

    // HTTPS: every connection this door accepts starts with a TLS handshake (a phase under the header timeout),
    // with the certificate the store has for the name in the client's hello (the store outlives the door).
    void setTls(const TlsCertificateStore *certificates) { m_certificates = certificates; }
    const TlsCertificateStore *certificates() const { return m_certificates; }
    bool isTls() const { return m_certificates != nullptr; }
    // An HTTPS connection goes to QtHttpServer only once its hello was read and its handshake started, so that the
    // parser never sees the hello's bytes (which stay unread for the TLS library).
    void handOver(QTcpSocket *socket) { addPendingConnection(socket); }

    RequestHandler &handler() const { return m_handler; }
    const HttpConfig &config() const { return m_config; }
    ConnectionBudget &budget() const { return m_budget; }
    const std::shared_ptr<ThreadMailbox> &mailbox() const { return m_mailbox; }
    ResponseWriter &writer() { return m_writer; }
    // This thread's access log buffer, or null when no access log is kept.
    void setAccessLog(AccessLogBuffer *log) { m_accessLog = log; }
    AccessLogBuffer *accessLog() const { return m_accessLog; }
    // This thread's request counters (the metrics), or null when nobody counts.
    void setMetrics(RequestCounters *counters) { m_metrics = counters; }
    RequestCounters *metrics() const { return m_metrics; }
    // Head bytes and TLS hellos are peeked here; one thread, one buffer.
    QByteArray &scratch() { return m_scratch; }

    // Stops accepting and tells every connection to finish what it has and close (a graceful stop).
    void drain();

    int acceptErrors() const { return m_acceptErrors.load(); }
    qint64 peakUnsentBytes() const { return m_peakUnsent.load(); }
    void noteUnsent(qint64 bytes);

protected:
    void incomingConnection(qintptr descriptor) override;

private:
    QList<ConnectionGuard *> connections() const; // this thread's, on it only
    void onAcceptError(QAbstractSocket::SocketError error);
    bool shedIdleConnection();

    RequestHandler &m_handler;
    const HttpConfig m_config;
    ConnectionBudget &m_budget;
    std::shared_ptr<ThreadMailbox> m_mailbox;
    ResponseWriter m_writer;
    QByteArray m_scratch;
    QPointer<QObject> m_parser;
    AccessLogBuffer *m_accessLog = nullptr;
    RequestCounters *m_metrics = nullptr;
    const TlsCertificateStore *m_certificates = nullptr;
    std::atomic<int> m_acceptErrors {0};
    std::atomic<qint64> m_peakUnsent {0};
    bool m_retryScheduled = false;
};

} // namespace berth
