// Several serving threads on one port, and the budgets they share: every thread serves, answers made on other
// threads reach their connection in order, and the caps per address, in all and for the API's reserve hold across
// threads. Also the per-client budgets of any thread count: trickled bodies, clients that never read, large
// uploads from callers that are not authorised, and a graceful drain.
#include "rawclient.h"

#include <QMutex>
#include <QSet>
#include <QTest>
#include <QThread>
#include <QTimer>
#include <QtConcurrentRun>
#include <atomic>
#include <http/httpservice.h>
#include <http/requesthandler.h>
#include <memory>

using namespace berth;
using namespace berth::test;
using namespace Qt::StringLiterals;

namespace {

// Records the threads it runs on; thread-safe, since it is called from every serving thread.
//   /elsewhere  answered from a pool thread      /later  kept for the test
//   /big        64 KiB                           /upload the body's size (needs "Bearer good" when large)
//   Host api.*  counts as the management API
class ThreadHandler final : public RequestHandler
{
public:
    void handle(const HttpRequest &request, ResponseSink sink) override
    {
        {
            const QMutexLocker locker(&mutex);
            threads.insert(QThread::currentThread());
        }
        ++calls;
        if (request.path == "/elsewhere"_L1) {
            (void)QtConcurrent::run([sink] { sink.send(HttpResponse::bytes(200, "text/plain", "from a worker")); });
        } else if (request.path == "/later"_L1) {
            const QMutexLocker locker(&mutex);
            later.append(sink);
        } else if (request.path == "/big"_L1) {
            sink.send(HttpResponse::bytes(200, "application/octet-stream", QByteArray(64 * 1024, 'x')));
        } else if (request.path == "/upload"_L1) {
            sink.send(HttpResponse::bytes(200, "text/plain", QByteArray::number(request.body.size())));
        } else {
            sink.send(HttpResponse::bytes(200, "text/plain", "hello"));
        }
    }

    BodyLimit bodyLimit(const RequestHead &head) const override
    {
        return {8 * 1024 * 1024, {}, head.host.startsWith("api."), head.target.startsWith("/upload")};
    }

    void authorizeUpload(const RequestHead &head, AuthorizationDone done) override
    {
        ++authorizations;
        // Answered from another thread, as the engine's key check is.
        (void)QtConcurrent::run([done, ok = head.authorization == "Bearer good"] {
            done(ok ? std::nullopt : std::optional(HttpResponse::jsonError(401, u"Unauthorized"_s)));
        });
    }

    QList<ResponseSink> takeLater()
    {
        const QMutexLocker locker(&mutex);
        return std::exchange(later, {});
    }
    int laterCount()
    {
        const QMutexLocker locker(&mutex);
        return int(later.size());
    }

    QMutex mutex;
    QSet<QThread *> threads;
    QList<ResponseSink> later;
    std::atomic<int> calls {0};
    std::atomic<int> authorizations {0};
};

QByteArray get(const QByteArray &path, const QByteArray &host = "site.test")
{
    return "GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\n\r\n";
}

// A raw client bound to a chosen loopback source address.
std::unique_ptr<RawClient> connectFrom(const QHostAddress &source, quint16 port)
{
    auto client = std::make_unique<RawClient>();
    client->socket().bind(source);
    client->socket().connectToHost(QHostAddress::LocalHost, port);
    if (!client->socket().waitForConnected(5000))
        return nullptr;
    return client;
}

} // namespace

class TestServingThreads final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cleanup();

    void everyThreadServes();
    void answersFromOtherThreadsKeepOrder();
    void perAddressCap();
    void oldestIdleConnectionMakesRoom();
    void apiKeepsItsReserve();
    void trickledBodyTimesOut();
    void clientThatNeverReadsIsBounded();
    void unauthorisedUploadRefusedFromItsHead();
    void drainAnswersInProgressAndRefusesNew();
    void listenFailuresAreResults();

private:
    void start(HttpConfig config);
    quint16 port() const { return m_service->serverPort(); }

    std::unique_ptr<ThreadHandler> m_handler;
    std::unique_ptr<HttpService> m_service;
};

void TestServingThreads::start(HttpConfig config)
{
    m_service.reset();
    m_handler = std::make_unique<ThreadHandler>();
    if (config.servingThreads == 0)
        config.servingThreads = 4;
    m_service = std::make_unique<HttpService>(*m_handler, config);
    const Result<void> listening = m_service->listen(QHostAddress::LocalHost, 0);
    QVERIFY2(listening.ok(), qPrintable(listening.ok() ? QString() : listening.error().message));
    QCOMPARE(m_service->servingThreads(), config.servingThreads);
}

void TestServingThreads::cleanup()
{
    m_service.reset();
    m_handler.reset();
}

void TestServingThreads::everyThreadServes()
{
    start({});
    std::vector<std::unique_ptr<RawClient>> clients;
    for (int i = 0; i < 32; ++i) {
        clients.push_back(std::make_unique<RawClient>());
        QVERIFY(clients.back()->connectTo(port()));
        clients.back()->send(get("/"));
    }
    for (auto &client : clients) {
        RawResponse response;
        QVERIFY(client->waitResponse(&response));
        QCOMPARE(response.status, 200);
        QCOMPARE(response.body, QByteArray("hello"));
    }
    const QMutexLocker locker(&m_handler->mutex);
    QVERIFY(!m_handler->threads.contains(QThread::currentThread()));
    // The kernel spreads 32 connections over 4 listeners: all on one would be a 1 in 10^19 chance.
    QVERIFY2(m_handler->threads.size() >= 2, qPrintable(QString::number(m_handler->threads.size())));
}

void TestServingThreads::answersFromOtherThreadsKeepOrder()
{
    start({});
    RawClient client;
    QVERIFY(client.connectTo(port()));
    client.send(get("/elsewhere") + get("/") + get("/elsewhere"));
    RawResponse first;
    RawResponse second;
    RawResponse third;
    QVERIFY(client.waitResponse(&first));
    QVERIFY(client.waitResponse(&second));
    QVERIFY(client.waitResponse(&third));
    QCOMPARE(first.body, QByteArray("from a worker"));
    QCOMPARE(second.body, QByteArray("hello"));
    QCOMPARE(third.body, QByteArray("from a worker"));
}

void TestServingThreads::perAddressCap()
{
    HttpConfig config;
    config.maxConnectionsPerAddress = 3;
    start(config);
    std::vector<std::unique_ptr<RawClient>> held;
    for (int i = 0; i < 3; ++i) {
        held.push_back(connectFrom(QHostAddress(u"127.0.0.2"_s), port()));
        QVERIFY(held.back());
        held.back()->send(get("/"));
        RawResponse response;
        QVERIFY(held.back()->waitResponse(&response));
        QCOMPARE(response.status, 200);
    }
    auto fourth = connectFrom(QHostAddress(u"127.0.0.2"_s), port());
    QVERIFY(fourth);
    RawResponse refused;
    QVERIFY(fourth->waitResponse(&refused));
    QCOMPARE(refused.status, 503);
    QVERIFY(refused.body.contains("from your address"));
    QVERIFY(fourth->waitClosed());

    // Another address is not affected, and a place given back is free again.
    auto other = connectFrom(QHostAddress(u"127.0.0.3"_s), port());
    QVERIFY(other);
    other->send(get("/"));
    RawResponse response;
    QVERIFY(other->waitResponse(&response));
    QCOMPARE(response.status, 200);
    held.front()->socket().abort();
    QTRY_COMPARE(m_service->liveConnections(), 3);
    auto again = connectFrom(QHostAddress(u"127.0.0.2"_s), port());
    QVERIFY(again);
    again->send(get("/"));
    QVERIFY(again->waitResponse(&response));
    QCOMPARE(response.status, 200);
}

void TestServingThreads::oldestIdleConnectionMakesRoom()
{
    HttpConfig config;
    config.servingThreads = 1; // idle connections are shed per thread: one thread makes the oldest certain
    config.maxConnections = 3;
    config.apiReservedConnections = 0;
    config.maxConnectionsPerAddress = 0;
    start(config);
    std::vector<std::unique_ptr<RawClient>> idle;
    for (int i = 0; i < 3; ++i) {
        idle.push_back(std::make_unique<RawClient>());
        QVERIFY(idle.back()->connectTo(port()));
        idle.back()->send(get("/"));
        RawResponse response;
        QVERIFY(idle.back()->waitResponse(&response));
        QCOMPARE(response.status, 200);
        QTest::qWait(5); // distinct idle times (milliseconds) for "oldest"
    }
    RawClient newcomer;
    QVERIFY(newcomer.connectTo(port()));
    newcomer.send(get("/"));
    RawResponse response;
    QVERIFY(newcomer.waitResponse(&response));
    QCOMPARE(response.status, 200);
    QVERIFY(idle.front()->waitClosed()); // the oldest idle one went
    QCOMPARE(idle.back()->socket().state(), QAbstractSocket::ConnectedState);
}

void TestServingThreads::apiKeepsItsReserve()
{
    HttpConfig config;
    config.maxConnections = 4;
    config.apiReservedConnections = 2;
    config.maxConnectionsPerAddress = 0;
    start(config);
    RawClient visitorA;
    RawClient visitorB;
    QVERIFY(visitorA.connectTo(port()));
    QVERIFY(visitorB.connectTo(port()));
    visitorA.send(get("/later"));
    visitorB.send(get("/later"));
    QTRY_COMPARE(m_handler->laterCount(), 2);

    RawClient visitorC;
    QVERIFY(visitorC.connectTo(port()));
    visitorC.send(get("/"));
    RawResponse refused;
    QVERIFY(visitorC.waitResponse(&refused));
    QCOMPARE(refused.status, 503);
    QVERIFY(visitorC.waitClosed());

    RawClient api;
    QVERIFY(api.connectTo(port()));
    api.send(get("/", "api.test"));
    RawResponse response;
    QVERIFY(api.waitResponse(&response));
    QCOMPARE(response.status, 200);

    for (const ResponseSink &sink : m_handler->takeLater())
        sink.send(HttpResponse::bytes(200, "text/plain", "done"));
    QVERIFY(visitorA.waitResponse(&response));
    QCOMPARE(response.body, QByteArray("done"));
}

void TestServingThreads::trickledBodyTimesOut()
{
    HttpConfig config;
    config.bodyStallTimeoutMs = 400; // each byte comes well within this...
    config.minBodyBytesPerSecond = 100; // ...but the body as a whole must average 100 bytes/s after 400 ms
    start(config);
    RawClient client;
    QVERIFY(client.connectTo(port()));
    const QByteArray body(40, 'b');
    client.send("POST /echo HTTP/1.1\r\nHost: site.test\r\nContent-Length: 40\r\n\r\n");
    int sent = 0;
    QTimer trickle;
    connect(&trickle, &QTimer::timeout, this, [&] {
        if (sent < body.size() && client.socket().state() == QAbstractSocket::ConnectedState)
            client.send(body.mid(sent++, 1));
    });
    trickle.start(100); // 10 bytes/s: the whole body would take 4 s
    RawResponse response;
    QVERIFY(client.waitResponse(&response, false, 8000));
    trickle.stop();
    QCOMPARE(response.status, 408);
    QVERIFY2(sent < body.size(), "the body was refused before it was complete");
    QCOMPARE(m_handler->calls.load(), 0);
}

void TestServingThreads::clientThatNeverReadsIsBounded()
{
    HttpConfig config;
    config.servingThreads = 2;
    start(config);
    RawClient client;
    client.socket().setReadBufferSize(1024); // once full, the client takes nothing more from the kernel
    QVERIFY(client.connectTo(port()));
    constexpr int kRequests = 400; // 400 x 64 KiB = 25 MiB of answers asked for
    QByteArray pipelined;
    for (int i = 0; i < kRequests; ++i)
        pipelined += get("/big");
    client.send(pipelined);
    QTRY_VERIFY(m_service->peakUnsentBytes() > 0);
    QTest::qWait(500); // time in which an unbounded server would keep queueing answers
    QVERIFY2(m_service->peakUnsentBytes() < 3 * 1024 * 1024, qPrintable(QString::number(m_service->peakUnsentBytes())));
    QVERIFY2(m_handler->calls.load() < kRequests, "requests wait while their answers are unread");

    // Once the client reads, every answer comes.
    client.socket().setReadBufferSize(0);
    int answered = 0;
    RawResponse response;
    while (answered < kRequests && client.waitResponse(&response))
        answered += response.status == 200 && response.body.size() == 64 * 1024 ? 1 : 0;
    QCOMPARE(answered, kRequests);
}

void TestServingThreads::unauthorisedUploadRefusedFromItsHead()
{
    start({});
    constexpr int kBodyBytes = 4 * 1024 * 1024;
    const QByteArray head
        = "POST /upload HTTP/1.1\r\nHost: api.test\r\nContent-Length: " + QByteArray::number(kBodyBytes);

    RawClient stranger;
    QVERIFY(stranger.connectTo(port()));
    stranger.send(head + "\r\nAuthorization: Bearer bad\r\n\r\n"); // no body byte sent
    RawResponse refused;
    QVERIFY(stranger.waitResponse(&refused));
    QCOMPARE(refused.status, 401);
    QVERIFY(stranger.waitClosed());
    QCOMPARE(m_handler->calls.load(), 0);
    QCOMPARE(m_handler->authorizations.load(), 1);

    RawClient owner;
    QVERIFY(owner.connectTo(port()));
    owner.send(head + "\r\nAuthorization: Bearer good\r\n\r\n" + QByteArray(kBodyBytes, 'u'));
    RawResponse accepted;
    QVERIFY(owner.waitResponse(&accepted, false, 15000));
    QCOMPARE(accepted.status, 200);
    QCOMPARE(accepted.body, QByteArray::number(kBodyBytes));

    // A small body needs no separate check: the handler decides, as for any request.
    RawClient small;
    QVERIFY(small.connectTo(port()));
    small.send("POST /upload HTTP/1.1\r\nHost: api.test\r\nContent-Length: 3\r\n\r\nabc");
    QVERIFY(small.waitResponse(&accepted));
    QCOMPARE(accepted.body, QByteArray("3"));
    QCOMPARE(m_handler->authorizations.load(), 2);
}

void TestServingThreads::drainAnswersInProgressAndRefusesNew()
{
    start({});
    RawClient busy;
    QVERIFY(busy.connectTo(port()));
    busy.send(get("/later") + get("/")); // the second one arrives before the drain but is not started
    QTRY_COMPARE(m_handler->laterCount(), 1);
    RawClient idle;
    QVERIFY(idle.connectTo(port()));
    idle.send(get("/"));
    RawResponse response;
    QVERIFY(idle.waitResponse(&response));

    m_service->drain();
    QVERIFY(idle.waitClosed());
    QTcpSocket late;
    late.connectToHost(QHostAddress::LocalHost, port());
    QVERIFY(!late.waitForConnected(2000) || late.waitForDisconnected(2000));

    for (const ResponseSink &sink : m_handler->takeLater())
        sink.send(HttpResponse::bytes(200, "text/plain", "finished"));
    QVERIFY(busy.waitResponse(&response));
    QCOMPARE(response.body, QByteArray("finished"));
    QCOMPARE(response.header("connection"), QByteArray("close"));
    QVERIFY(busy.waitClosed());
    QCOMPARE(m_handler->calls.load(), 2); // /later and idle's "/": the pipelined one never ran
    QTRY_COMPARE(m_service->liveConnections(), 0);
}

void TestServingThreads::listenFailuresAreResults()
{
    start({});
    // A port another server holds is refused, not shared, even with SO_REUSEPORT on several threads.
    ThreadHandler otherHandler;
    HttpConfig config;
    config.servingThreads = 2;
    HttpService other(otherHandler, config);
    const Result<void> taken = other.listen(QHostAddress::LocalHost, port());
    QVERIFY(!taken.ok());
    QCOMPARE(taken.error().kind, Error::Kind::Unavailable);
    QVERIFY(!taken.error().message.isEmpty());
    QCOMPARE(other.servingThreads(), 0);

    const Result<void> again = m_service->listen(QHostAddress::LocalHost, 0);
    QVERIFY(!again.ok());
    QCOMPARE(again.error().kind, Error::Kind::BadRequest);
    QCOMPARE(m_service->serverPort(), port()); // the first listener is untouched
}

QTEST_GUILESS_MAIN(TestServingThreads)
#include "tst_servingthreads.moc"
