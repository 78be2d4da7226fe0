// Connections on real sockets: keep-alive, HTTP/1.0 and Connection: close, timeouts, the connection cap, recovery
// from the open-file limit, peer addresses.
#include "rawclient.h"
#include "testhandler.h"

#include <QTest>
#include <http/httpservice.h>
#include <memory>
#include <sys/resource.h>
#include <unistd.h>

using namespace berth;
using namespace berth::test;

class TestConnections final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void servesGetAndKeepsAlive();
    void dualStackPeerIsPlainIpv4();
    void http10ClosesAfterResponse();
    void http10KeepAliveStaysOpen();
    void connectionCloseHonoured();
    void headerTimeout();
    void bodyStallTimeout();
    void largeBodyStallTimeout();
    void idleKeepAliveClosed();
    void connectionCap();
    void acceptRecoversAfterFileLimit();

private:
    void start(HttpConfig config = {});
    // A request that stops arriving gets 408, the connection closes, and the handler never runs.
    void expectTimeout(const HttpConfig &config, const QByteArray &partialRequest);

    std::unique_ptr<TestHandler> m_handler;
    std::unique_ptr<HttpService> m_service;
};

void TestConnections::init()
{
    start();
}

void TestConnections::cleanup()
{
    m_service.reset();
    m_handler.reset();
}

void TestConnections::start(HttpConfig config)
{
    m_service.reset();
    m_handler = std::make_unique<TestHandler>();
    m_service = std::make_unique<HttpService>(*m_handler, config);
    const Result<void> listening = m_service->listen(QHostAddress::LocalHost, 0);
    QVERIFY2(listening.ok(), qPrintable(listening.ok() ? QString() : listening.error().message));
}

void TestConnections::servesGetAndKeepsAlive()
{
    RawClient client;
    QVERIFY(client.connectTo(m_service->serverPort()));
    RawResponse r;
    for (int i = 0; i < 3; ++i) {
        client.send("GET / HTTP/1.1\r\nHost: a.test\r\n\r\n");
        QVERIFY(client.waitResponse(&r));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.body, QByteArray("hello"));
        QCOMPARE(r.header("connection"), QByteArray("keep-alive"));
    }
    QCOMPARE(m_handler->calls, 3);
    QCOMPARE(m_service->liveConnections(), 1);
    QCOMPARE(client.socket().state(), QAbstractSocket::ConnectedState);
}

void TestConnections::dualStackPeerIsPlainIpv4()
{
    // A dual-stack listener sees IPv4 clients as ::ffff:a.b.c.d; handlers get the plain IPv4 address.
    HttpService dualStack(*m_handler);
    if (!dualStack.listen(QHostAddress::Any, 0))
        QSKIP("no dual-stack listener here");
    RawClient client;
    QVERIFY(client.connectTo(dualStack.serverPort()));
    client.send("GET / HTTP/1.1\r\nHost: a.test\r\n\r\n");
    RawResponse r;
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(m_handler->last.peer.protocol(), QAbstractSocket::IPv4Protocol);
    QCOMPARE(m_handler->last.peer, QHostAddress(QStringLiteral("127.0.0.1")));
    QCOMPARE(HttpRequest::normalisedPeer(QHostAddress(QStringLiteral("::ffff:10.1.2.3"))),
        QHostAddress(QStringLiteral("10.1.2.3")));
    QCOMPARE(HttpRequest::normalisedPeer(QHostAddress(QStringLiteral("2001:db8::1"))),
        QHostAddress(QStringLiteral("2001:db8::1")));
}

void TestConnections::http10ClosesAfterResponse()
{
    RawClient client;
    QVERIFY(client.connectTo(m_service->serverPort()));
    client.send("GET / HTTP/1.0\r\n\r\nGET /second HTTP/1.0\r\n\r\n");
    RawResponse r;
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.header("connection"), QByteArray("close"));
    QVERIFY(client.waitClosed());
    QVERIFY(client.received().isEmpty());
    QCOMPARE(m_handler->calls, 1);
}

void TestConnections::http10KeepAliveStaysOpen()
{
    RawClient client;
    QVERIFY(client.connectTo(m_service->serverPort()));
    client.send("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
    RawResponse r;
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.header("connection"), QByteArray("keep-alive"));
    client.send("GET / HTTP/1.0\r\n\r\n");
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.header("connection"), QByteArray("close"));
    QVERIFY(client.waitClosed());
    QCOMPARE(m_handler->calls, 2);
}

void TestConnections::connectionCloseHonoured()
{
    RawClient client;
    QVERIFY(client.connectTo(m_service->serverPort()));
    client.send("GET / HTTP/1.1\r\nHost: a.test\r\nConnection: close\r\n\r\nGET /second HTTP/1.1\r\nHost: a\r\n\r\n");
    RawResponse r;
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.header("connection"), QByteArray("close"));
    QVERIFY(client.waitClosed());
    QVERIFY(client.received().isEmpty());
    QCOMPARE(m_handler->calls, 1);
}

void TestConnections::expectTimeout(const HttpConfig &config, const QByteArray &partialRequest)
{
    start(config);
    RawClient client;
    QVERIFY(client.connectTo(m_service->serverPort()));
    client.send(partialRequest);
    RawResponse r;
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.status, 408);
    QVERIFY(client.waitClosed());
    QCOMPARE(m_handler->calls, 0);
}

void TestConnections::headerTimeout()
{
    HttpConfig config;
    config.headerTimeoutMs = 200;
    expectTimeout(config, "GET / HTTP/1.1\r\nHost: a.te");
}

void TestConnections::bodyStallTimeout()
{
    HttpConfig config;
    config.bodyStallTimeoutMs = 200;
    expectTimeout(config, "POST /echo HTTP/1.1\r\nHost: a.test\r\nContent-Length: 10\r\n\r\nabc");
}

// A large plain body is read by the guard itself, not by QtHttpServer: a stalled one times out all the same.
void TestConnections::largeBodyStallTimeout()
{
    HttpConfig config;
    config.bodyStallTimeoutMs = 200;
    expectTimeout(
        config, "POST /echo HTTP/1.1\r\nHost: a.test\r\nContent-Length: 300000\r\n\r\n" + QByteArray(100000, 'x'));
}

void TestConnections::idleKeepAliveClosed()
{
    HttpConfig config;
    config.idleTimeoutMs = 200;
    start(config);
    RawClient client;
    QVERIFY(client.connectTo(m_service->serverPort()));
    client.send("GET / HTTP/1.1\r\nHost: a.test\r\n\r\n");
    RawResponse r;
    QVERIFY(client.waitResponse(&r));
    QVERIFY(client.waitClosed());
    QVERIFY(client.received().isEmpty()); // closed silently
    QTRY_COMPARE(m_service->liveConnections(), 0);
}

void TestConnections::connectionCap()
{
    HttpConfig config;
    config.maxConnections = 2;
    start(config);
    RawClient a;
    RawClient b;
    RawClient c;
    QVERIFY(a.connectTo(m_service->serverPort()));
    QVERIFY(b.connectTo(m_service->serverPort()));
    QTRY_COMPARE(m_service->liveConnections(), 2);
    QVERIFY(c.connectTo(m_service->serverPort()));
    RawResponse r;
    QVERIFY(c.waitResponse(&r));
    QCOMPARE(r.status, 503);
    QCOMPARE(r.header("retry-after"), QByteArray("1"));
    QVERIFY(c.waitClosed());
    a.socket().abort();
    QTRY_COMPARE(m_service->liveConnections(), 1);
    RawClient d;
    QVERIFY(d.connectTo(m_service->serverPort()));
    d.send("GET / HTTP/1.1\r\nHost: a.test\r\n\r\n");
    QVERIFY(d.waitResponse(&r));
    QCOMPARE(r.status, 200);
}

void TestConnections::acceptRecoversAfterFileLimit()
{
    HttpConfig config;
    config.acceptRetryMs = 50;
    start(config);
    rlimit saved {};
    QCOMPARE(getrlimit(RLIMIT_NOFILE, &saved), 0);
    rlimit low = saved;
    low.rlim_cur = qMin<rlim_t>(256, saved.rlim_max);
    QCOMPARE(setrlimit(RLIMIT_NOFILE, &low), 0);

    // Fill the descriptor table, then leave exactly one free: the client's socket takes it, so accept() fails.
    QList<int> fillers;
    for (int fd; (fd = ::dup(0)) >= 0;)
        fillers.append(fd);
    QVERIFY(!fillers.isEmpty());
    ::close(fillers.takeLast());
    RawClient client;
    client.socket().connectToHost(QHostAddress::LocalHost, m_service->serverPort());
    QTRY_VERIFY(m_service->acceptErrors() > 0);
    QCOMPARE(m_service->liveConnections(), 0);

    for (int fd : std::as_const(fillers))
        ::close(fd);
    QCOMPARE(setrlimit(RLIMIT_NOFILE, &saved), 0);
    QTRY_COMPARE(client.socket().state(), QAbstractSocket::ConnectedState);
    client.send("GET / HTTP/1.1\r\nHost: a.test\r\n\r\n");
    RawResponse r;
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.status, 200);
}

QTEST_GUILESS_MAIN(TestConnections)
#include "tst_connections.moc"
