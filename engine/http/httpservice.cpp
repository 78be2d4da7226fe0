#include "http/httpservice.h"

#include "http/accesslog.h"
#include "http/connectionbudget.h"
#include "http/frontdoor.h"
#include "http/httpserveradapter.h"
#include "http/httpsredirect.h"
#include "http/listensockets.h"
#include "http/tlscertificatestore.h"

#include <QThread>
#include <condition_variable>
#include <mutex>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace berth {

HttpService::HttpService(RequestHandler &handler, HttpConfig config, QObject *parent)
    : QObject(parent)
    , m_handler(handler)
    , m_config(std::move(config))
    , m_budget(std::make_unique<ConnectionBudget>(m_config))
{
}

HttpService::~HttpService()
{
    // Each parser (and with it its front door and every connection) goes on its own thread, before the handler
    // and the budget may go.
    for (const Lane &lane : std::as_const(m_lanes)) {
        runOn(lane, [adapter = lane.adapter] { delete adapter; });
        if (lane.thread) {
            lane.thread->quit();
            lane.thread->wait();
            delete lane.thread;
        }
    }
}

void HttpService::runOn(const Lane &lane, const std::function<void()> &work)
{
    if (!lane.thread || lane.thread == QThread::currentThread())
        return work();
    // A blocking call, handed over under a std::mutex rather than through Qt's BlockingQueuedConnection alone: the
    // lane's thread takes the mutex this thread holds until it waits, so everything written before the call
    // happens-before the work, and the work before the return, in a way ThreadSanitizer can see (Qt's own locks
    // are invisible to it: libQt6Core is not instrumented).
    std::mutex handover;
    std::condition_variable finished;
    bool done = false;
    std::unique_lock<std::mutex> caller(handover);
    QMetaObject::invokeMethod(
        lane.door,
        [&] {
            const std::lock_guard<std::mutex> locked(handover);
            work();
            done = true;
            finished.notify_one();
        },
        Qt::QueuedConnection);
    finished.wait(caller, [&] { return done; });
}

void HttpService::setTls(const QSslConfiguration &configuration, quint16 httpsPort, bool redirect)
{
    m_ownCertificates = std::make_unique<TlsCertificateStore>(configuration);
    setTls(*m_ownCertificates, httpsPort, redirect);
}

void HttpService::setTls(const TlsCertificateStore &certificates, quint16 httpsPort, bool redirect)
{
    m_tls = &certificates;
    m_httpsPort = httpsPort;
    m_redirect = redirect;
}

Result<void> HttpService::listen(const QHostAddress &address, quint16 port)
{
    if (!m_lanes.isEmpty())
        return Error {Error::Kind::BadRequest, u"Already listening"_s};
    const int threads = qMax(0, m_config.servingThreads);
    Result<ListenSockets> opened = ListenSockets::open(address, port, qMax(1, threads), m_config.listenBacklog);
    if (!opened)
        return opened.error();
    ListenSockets sockets = std::move(opened).value();
    m_port = sockets.port;
    ListenSockets tlsSockets;
    if (m_tls) {
        Result<ListenSockets> tlsOpened
            = ListenSockets::open(address, m_httpsPort, int(sockets.descriptors.size()), m_config.listenBacklog);
        if (!tlsOpened) {
            sockets.closeAll();
            return Error {
                tlsOpened.error().kind, u"HTTPS port %1: %2"_s.arg(m_httpsPort).arg(tlsOpened.error().message)};
        }
        tlsSockets = std::move(tlsOpened).value();
        m_httpsPort = tlsSockets.port;
        if (m_redirect)
            m_redirector = std::make_unique<HttpsRedirect>(m_handler, m_httpsPort);
    }
    RequestHandler &plainHandler = m_redirector ? static_cast<RequestHandler &>(*m_redirector) : m_handler;

    for (int i = 0; i < sockets.descriptors.size(); ++i) {
        Lane lane;
        lane.accessLog = m_accessLog ? m_accessLog->newThreadBuffer() : nullptr;
        lane.metrics = m_metrics.newThreadCounters();
        lane.adapter = new HttpServerAdapter;
        lane.door = new FrontDoor(plainHandler, m_config, *m_budget, lane.adapter);
        lane.door->setParser(lane.adapter);
        lane.door->setAccessLog(lane.accessLog);
        lane.door->setMetrics(lane.metrics);
        if (!tlsSockets.descriptors.isEmpty()) {
            lane.tlsDoor = new FrontDoor(m_handler, m_config, *m_budget, lane.adapter);
            lane.tlsDoor->setParser(lane.adapter);
            lane.tlsDoor->setTls(m_tls);
            lane.tlsDoor->setAccessLog(lane.accessLog);
            lane.tlsDoor->setMetrics(lane.metrics);
        }
        if (threads > 0) {
            lane.thread = new QThread;
            lane.thread->setObjectName(u"berth-serve-%1"_s.arg(i + 1));
            lane.adapter->moveToThread(lane.thread);
            lane.thread->start();
        } else {
            lane.adapter->setParent(this);
        }
        m_lanes.append(lane);
        // The notifiers of the listener and of every connection belong to the lane's thread: set up there.
        const int fd = sockets.descriptors.at(i);
        const int tlsFd = tlsSockets.descriptors.value(i, -1);
        bool adopted = false;
        runOn(lane, [&lane, fd, tlsFd, &adopted] {
            adopted = lane.door->setSocketDescriptor(fd);
            if (adopted)
                lane.adapter->bind(lane.door);
            if (adopted && lane.tlsDoor) {
                adopted = lane.tlsDoor->setSocketDescriptor(tlsFd);
                if (adopted)
                    lane.adapter->bind(lane.tlsDoor); // one parser, two doors: QtHttpServer takes several servers
            }
        });
        if (!adopted) {
            const QString reason
                = (lane.tlsDoor && !lane.tlsDoor->isListening() ? lane.tlsDoor : lane.door)->errorString();
            for (int rest = i; rest < sockets.descriptors.size(); ++rest)
                ::close(sockets.descriptors.at(rest));
            for (int rest = i; rest < tlsSockets.descriptors.size(); ++rest)
                ::close(tlsSockets.descriptors.at(rest));
            return Error {Error::Kind::Unavailable, reason};
        }
    }
    return {};
}

Result<int> HttpService::addListener(const QHostAddress &address, quint16 port, RequestHandler &handler)
{
    return openListener(address, port, handler, false);
}

Result<int> HttpService::addTlsListener(const QHostAddress &address, quint16 port, RequestHandler &handler)
{
    if (!m_tls)
        return Error {Error::Kind::Unavailable, u"HTTPS is not configured"_s};
    return openListener(address, port, handler, true);
}

Result<int> HttpService::openListener(const QHostAddress &address, quint16 port, RequestHandler &handler, bool tls)
{
    if (m_lanes.isEmpty() || m_draining)
        return Error {Error::Kind::Unavailable, u"Not serving"_s};
    Result<ListenSockets> opened = ListenSockets::open(address, port, int(m_lanes.size()), m_config.listenBacklog);
    if (!opened)
        return opened.error();
    ListenSockets sockets = std::move(opened).value();
    const int id = m_nextListenerId++;
    // Plain HTTP for the service's own handler redirects to HTTPS as the main plain port does.
    RequestHandler &answering = !tls && m_redirector && &handler == &m_handler ? *m_redirector : handler;
    for (int i = 0; i < m_lanes.size(); ++i) {
        Lane &lane = m_lanes[i];
        const int fd = sockets.descriptors.at(i);
        bool adopted = false;
        QString reason;
        // The door is a child of the lane's parser, so it lives (and is deleted) on the lane's thread.
        runOn(lane, [this, &lane, &answering, fd, id, tls, &adopted, &reason] {
            auto *door = new FrontDoor(answering, m_config, *m_budget, lane.adapter);
            door->setParser(lane.adapter);
            door->setAccessLog(lane.accessLog);
            door->setMetrics(lane.metrics);
            if (tls)
                door->setTls(m_tls);
            adopted = door->setSocketDescriptor(fd);
            if (!adopted) {
                reason = door->errorString();
                delete door;
                return;
            }
            lane.adapter->bind(door);
            lane.extraDoors.insert(id, door);
        });
        if (!adopted) {
            for (int rest = i; rest < sockets.descriptors.size(); ++rest)
                ::close(sockets.descriptors.at(rest));
            removeListener(id);
            return Error {Error::Kind::Unavailable, reason};
        }
    }
    return id;
}

void HttpService::removeListener(int id)
{
    for (Lane &lane : m_lanes)
        runOn(lane, [&lane, id] { delete lane.extraDoors.take(id); });
}

int HttpService::servingThreads() const
{
    return m_lanes.isEmpty() || !m_lanes.first().thread ? 0 : int(m_lanes.size());
}

int HttpService::liveConnections() const
{
    return m_budget->live();
}

void HttpService::drain()
{
    m_draining = true;
    for (const Lane &lane : std::as_const(m_lanes)) {
        runOn(lane, [&lane] {
            lane.door->drain();
            if (lane.tlsDoor)
                lane.tlsDoor->drain();
            for (FrontDoor *door : lane.extraDoors)
                door->drain();
        });
    }
}

QList<FrontDoor *> HttpService::doors() const
{
    QList<FrontDoor *> doors;
    for (const Lane &lane : m_lanes) {
        doors.append(lane.door);
        if (lane.tlsDoor)
            doors.append(lane.tlsDoor);
        doors.append(lane.extraDoors.values());
    }
    return doors;
}

int HttpService::acceptErrors() const
{
    int errors = 0;
    for (const FrontDoor *door : doors())
        errors += door->acceptErrors();
    return errors;
}

qint64 HttpService::peakUnsentBytes() const
{
    qint64 peak = 0;
    for (const FrontDoor *door : doors())
        peak = qMax(peak, door->peakUnsentBytes());
    return peak;
}

} // namespace berth
