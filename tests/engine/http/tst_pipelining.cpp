// Pipelined requests across the front door's two paths, on real sockets: a request without a body is handed to the
// handler by the guard itself, one with a body is parsed by QtHttpServer after the guard approved it. Whatever
// the mix, and however the bytes arrive (all at once, a byte at a time), every request is answered once, in order,
// with its own method, target and body; none is parsed by QtHttpServer unframed (it would drop the connection).
#include "rawclient.h"
#include "testhandler.h"

#include <QTest>
#include <http/httpservice.h>
#include <memory>

using namespace Qt::StringLiterals;
using namespace berth;
using namespace berth::test;

class TestPipelining final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void mixedRequestsInOneWrite();
    void mixedRequestsByteByByte();
    void manyBodylessRequestsInOneWrite();
    void bodylessRequestHeldBehindWorkerAnswer();

private:
    // The answers to kMixed, in order, then one more request on the same connection.
    void expectMixedAnswers(RawClient &client);

    std::unique_ptr<TestHandler> m_handler;
    std::unique_ptr<HttpService> m_service;
};

// Bodyless GET and HEAD, a POST with a body, a POST with an explicit empty body, a bodiless status and a query.
static const QByteArray kMixed = "GET /a HTTP/1.1\r\nHost: a.test\r\n\r\n"
                                 "HEAD /b HTTP/1.1\r\nHost: a.test\r\n\r\n"
                                 "POST /echo HTTP/1.1\r\nHost: a.test\r\nContent-Length: 3\r\n\r\nabc"
                                 "GET /204 HTTP/1.1\r\nHost: a.test\r\n\r\n"
                                 "POST /echo HTTP/1.1\r\nHost: a.test\r\nContent-Length: 0\r\n\r\n"
                                 "GET /c?x=1 HTTP/1.1\r\nHost: a.test\r\nX-Last: yes\r\n\r\n";

void TestPipelining::init()
{
    m_handler = std::make_unique<TestHandler>();
    m_service = std::make_unique<HttpService>(*m_handler, HttpConfig {});
    const Result<void> listening = m_service->listen(QHostAddress::LocalHost, 0);
    QVERIFY2(listening.ok(), qPrintable(listening.ok() ? QString() : listening.error().message));
}

void TestPipelining::cleanup()
{
    m_service.reset();
    m_handler.reset();
}

void TestPipelining::expectMixedAnswers(RawClient &client)
{
    RawResponse r;
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.body, QByteArray("hello"));
    QVERIFY(client.waitResponse(&r, /*noBody=*/true));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.header("content-length"), QByteArray("5"));
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.body, QByteArray("abc"));
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.status, 204);
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.body, QByteArray());
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.body, QByteArray("hello"));
    // Nothing more came, nothing was handled twice, and the connection is still open for the next request.
    QVERIFY(!client.waitResponse(&r, false, 100));
    QCOMPARE(m_handler->paths, QList<QString>({u"/a"_s, u"/b"_s, u"/echo"_s, u"/204"_s, u"/echo"_s, u"/c"_s}));
    QCOMPARE(m_handler->last.method, QByteArray("GET"));
    QCOMPARE(m_handler->last.query, QByteArray("x=1"));
    QCOMPARE(m_handler->last.header("x-last"), QByteArray("yes"));
    QCOMPARE(client.socket().state(), QAbstractSocket::ConnectedState);
    client.send("GET /again HTTP/1.1\r\nHost: a.test\r\n\r\n");
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.body, QByteArray("hello"));
    QCOMPARE(m_handler->calls, 7);
}

void TestPipelining::mixedRequestsInOneWrite()
{
    RawClient client;
    QVERIFY(client.connectTo(m_service->serverPort()));
    client.send(kMixed);
    expectMixedAnswers(client);
}

void TestPipelining::mixedRequestsByteByByte()
{
    // Heads split across reads take the guard's transaction path, bodies arrive after their heads were approved.
    RawClient client;
    QVERIFY(client.connectTo(m_service->serverPort()));
    for (qsizetype i = 0; i < kMixed.size(); ++i) {
        client.send(kMixed.sliced(i, 1));
        if (i % 8 == 0)
            QTest::qWait(1); // the server reads what has arrived so far, often a single byte
    }
    expectMixedAnswers(client);
}

void TestPipelining::manyBodylessRequestsInOneWrite()
{
    // Each answer is given at once, with the rest still pipelined behind it in the same read.
    constexpr int kRequests = 300;
    QByteArray requests;
    for (int i = 0; i < kRequests; ++i)
        requests += "GET /n" + QByteArray::number(i) + " HTTP/1.1\r\nHost: a.test\r\n\r\n";
    RawClient client;
    QVERIFY(client.connectTo(m_service->serverPort()));
    client.send(requests);
    RawResponse r;
    for (int i = 0; i < kRequests; ++i) {
        QVERIFY2(client.waitResponse(&r), qPrintable(QString::number(i)));
        QCOMPARE(r.body, QByteArray("hello"));
    }
    QCOMPARE(m_handler->calls, kRequests);
    for (int i = 0; i < kRequests; ++i)
        QCOMPARE(m_handler->paths.at(i), QStringLiteral("/n%1").arg(i));
}

void TestPipelining::bodylessRequestHeldBehindWorkerAnswer()
{
    RawClient client;
    QVERIFY(client.connectTo(m_service->serverPort()));
    client.send("GET /slow HTTP/1.1\r\nHost: a.test\r\n\r\nGET /after HTTP/1.1\r\nHost: a.test\r\n\r\n"
                "HEAD /last HTTP/1.1\r\nHost: a.test\r\n\r\n");
    QTRY_COMPARE(m_handler->calls, 1);
    RawResponse r;
    QVERIFY(!client.waitResponse(&r, false, 100)); // the worker is blocked: the others are held, not handled
    QCOMPARE(m_handler->calls, 1);
    m_handler->gate.release();
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.body, QByteArray("slow done"));
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.body, QByteArray("hello"));
    QVERIFY(client.waitResponse(&r, /*noBody=*/true));
    QCOMPARE(r.status, 200);
    QCOMPARE(m_handler->paths, QList<QString>({u"/slow"_s, u"/after"_s, u"/last"_s}));
}

QTEST_MAIN(TestPipelining)
#include "tst_pipelining.moc"
