#pragma once

#include "core/error.h"
#include "http/httpconfig.h"
#include "http/requestmetrics.h"

#include <QHash>
#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QSslConfiguration>
#include <functional>
#include <memory>

QT_BEGIN_NAMESPACE
class QThread;
QT_END_NAMESPACE

namespace berth {

class AccessLog;
class AccessLogBuffer;
class ConnectionBudget;
class FrontDoor;
class HttpServerAdapter;
class HttpsRedirect;
class RequestHandler;
class TlsCertificateStore;

// The HTTP/1.1 server others use: QtHttpServer behind the front door, answering through one RequestHandler, on
// config.servingThreads threads (or on the caller's thread when that is 0). Every thread has its own listener,
// front door and parser; they share one ConnectionBudget. The handler is called on the serving threads.
class HttpService final : public QObject
{
    Q_OBJECT

public:
    explicit HttpService(RequestHandler &handler, HttpConfig config = {}, QObject *parent = nullptr);
    ~HttpService() override; // stops the serving threads; every connection is closed
    Q_DISABLE_COPY_MOVE(HttpService)

    // HTTPS as well, on its own port of the same address, through the same front door and limits (before listen()).
    // redirect: the plain port answers every request with 308 to the same host and target on the HTTPS port.
    void setTls(const QSslConfiguration &configuration, quint16 httpsPort, bool redirect);
    // The same with a certificate per name: each handshake gets the store's certificate for the name the client
    // asks for (SNI), as the store has it at that moment. The store must outlive the service.
    void setTls(const TlsCertificateStore &certificates, quint16 httpsPort, bool redirect);

    // One line per answered request into log, from every listener (before listen(); log must outlive the service).
    void setAccessLog(AccessLog *log) { m_accessLog = log; }

    // Port 0 picks a free one (serverPort() tells which). Fails with Unavailable (the port is taken, say), or
    // BadRequest when already listening.
    Result<void> listen(const QHostAddress &address, quint16 port);
    // More listening addresses after listen(), answered by another handler (which must outlive the listener):
    // LAN sharing's addresses and per-site ports. Each serving thread gets its own front door on it, under the
    // same connection budget. Returns an id for removeListener(), or Unavailable with the reason (the port is taken,
    // the service is not serving). With setTls()'s redirect, a listener for this service's own handler redirects to
    // HTTPS like the main plain port.
    Result<int> addListener(const QHostAddress &address, quint16 port, RequestHandler &handler);
    // The same speaking HTTPS with the configuration given to setTls(); Unavailable when there is none.
    Result<int> addTlsListener(const QHostAddress &address, quint16 port, RequestHandler &handler);
    // Closes the listener and every connection that came through it.
    void removeListener(int id);
    quint16 serverPort() const { return m_port; }
    quint16 httpsPort() const { return m_httpsPort; } // 0 without TLS
    int servingThreads() const;
    int liveConnections() const;
    // Every answered request so far, counted by the serving threads without locks and summed now (any thread).
    RequestTotals requestTotals() const { return m_metrics.totals(); }

    // A graceful stop: no new connections, no new requests (503), requests in progress are answered with
    // Connection: close. liveConnections() falls to 0 as they finish.
    void drain();

    // Diagnostics (and test hooks).
    int acceptErrors() const;
    qint64 peakUnsentBytes() const; // the most a streamed response ever left queued in a socket

private:
    struct Lane
    {
        QThread *thread = nullptr; // null: the caller's thread
        HttpServerAdapter *adapter = nullptr;
        FrontDoor *door = nullptr;
        FrontDoor *tlsDoor = nullptr; // HTTPS, on the same thread and parser
        QHash<int, FrontDoor *> extraDoors; // addListener()'s, by id
        AccessLogBuffer *accessLog = nullptr; // the lane's, shared by its doors
        RequestCounters *metrics = nullptr; // the lane's, shared by its doors
    };
    QList<FrontDoor *> doors() const;
    Result<int> openListener(const QHostAddress &address, quint16 port, RequestHandler &handler, bool tls);
    // Runs work on the lane's thread and waits for it (directly when the lane is the caller's).
    static void runOn(const Lane &lane, const std::function<void()> &work);

    RequestHandler &m_handler;
    const HttpConfig m_config;
    std::unique_ptr<ConnectionBudget> m_budget;
    QList<Lane> m_lanes;
    quint16 m_port = 0;
    const TlsCertificateStore *m_tls = nullptr; // null: no HTTPS
    std::unique_ptr<TlsCertificateStore> m_ownCertificates; // setTls() with a single configuration
    quint16 m_httpsPort = 0;
    bool m_redirect = false;
    std::unique_ptr<HttpsRedirect> m_redirector;
    AccessLog *m_accessLog = nullptr;
    RequestMetrics m_metrics;
    int m_nextListenerId = 1;
    bool m_draining = false;
};

} // namespace berth
