// The front door on real sockets: framing refusals, smuggling, body limits, 100-continue.
#include "rawclient.h"
#include "testhandler.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <http/httpservice.h>
#include <memory>

using namespace berth;
using namespace berth::test;

class TestFrontDoor final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void requestFieldsFromRawTarget();
    void refusals_data();
    void refusals();
    void leadingEmptyLinesAreIgnored();
    void smuggledAfter101Headers();
    void smuggledWithContentLengthAndChunked();
    void smuggledWithListContentLength();
    void bodyOverLimitRefusedBeforeItIsSent();
    void expectContinueAnsweredOnce();
    void expectContinueRefusedWithFinalStatus();
    void bodyInPiecesAndPipelinedPosts();
    void largeUploadsCapped();
    void bodyOfManySlicesTakesTurns();
    void abandonedLargeBodyFreesItsSlot();

private:
    void start(HttpConfig config = {});
    void startWithOneUploadSlot(); // one upload over 100 bytes at a time

    std::unique_ptr<TestHandler> m_handler;
    std::unique_ptr<HttpService> m_service;
};

void TestFrontDoor::init()
{
    start();
}

void TestFrontDoor::cleanup()
{
    m_service.reset();
    m_handler.reset();
}

void TestFrontDoor::start(HttpConfig config)
{
    m_service.reset();
    m_handler = std::make_unique<TestHandler>();
    m_service = std::make_unique<HttpService>(*m_handler, config);
    const Result<void> listening = m_service->listen(QHostAddress::LocalHost, 0);
    QVERIFY2(listening.ok(), qPrintable(listening.ok() ? QString() : listening.error().message));
    QVERIFY(m_service->serverPort() != 0);
}

void TestFrontDoor::startWithOneUploadSlot()
{
    HttpConfig config;
    config.maxLargeUploads = 1;
    config.largeUploadBytes = 100;
    start(config);
}

static QByteArray errorOf(const RawResponse &response)
{
    return QJsonDocument::fromJson(response.body).object().value(QStringLiteral("error")).toString().toUtf8();
}

void TestFrontDoor::requestFieldsFromRawTarget()
{
    RawClient client;
    QVERIFY(client.connectTo(m_service->serverPort()));
    client.send("POST /a%20b/%252e%2e/c+d?x=%20y&z HTTP/1.1\r\nHost: Site.Test:8080\r\nX-Mixed-Case: V\r\n"
                "Content-Length: 3\r\n\r\nabc");
    RawResponse r;
    QVERIFY(client.waitResponse(&r));
    const HttpRequest &req = m_handler->last;
    QCOMPARE(req.method, QByteArray("POST"));
    QCOMPARE(req.target, QByteArray("/a%20b/%252e%2e/c+d?x=%20y&z"));
    QCOMPARE(req.path, QStringLiteral("/a b/%2e./c+d")); // decoded exactly once, '+' untouched
    QCOMPARE(req.query, QByteArray("x=%20y&z"));
    QCOMPARE(req.header("x-mixed-case"), QByteArray("V"));
    QCOMPARE(req.host(), QStringLiteral("site.test"));
    QCOMPARE(req.body, QByteArray("abc"));
    QCOMPARE(req.peer, QHostAddress(QHostAddress::LocalHost));
}

void TestFrontDoor::refusals_data()
{
    QTest::addColumn<QByteArray>("request");
    QTest::addColumn<int>("status");
    const QByteArray h = "Host: a.test\r\n";
    QTest::newRow("garbage request line") << QByteArray("HELLO\r\n\r\n") << 400;
    QTest::newRow("two spaces") << QByteArray("GET  / HTTP/1.1\r\n" + h + "\r\n") << 400;
    QTest::newRow("bad version") << QByteArray("GET / HTTX/1.1\r\n" + h + "\r\n") << 400;
    QTest::newRow("http/2.0") << QByteArray("GET / HTTP/2.0\r\n" + h + "\r\n") << 505;
    QTest::newRow("absolute target") << QByteArray("GET http://a.test/ HTTP/1.1\r\n" + h + "\r\n") << 400;
    QTest::newRow("missing host") << QByteArray("GET / HTTP/1.1\r\n\r\n") << 400;
    QTest::newRow("two hosts") << QByteArray("GET / HTTP/1.1\r\n" + h + h + "\r\n") << 400;
    QTest::newRow("host with userinfo") << QByteArray("GET / HTTP/1.1\r\nHost: evil@a.test\r\n\r\n") << 400;
    QTest::newRow("bare LF") << QByteArray("GET / HTTP/1.1\n" + h + "\n") << 400;
    QTest::newRow("obs-fold") << QByteArray("GET / HTTP/1.1\r\n" + h + "X-A: 1\r\n 2\r\n\r\n") << 400;
    QTest::newRow("space before colon") << QByteArray("GET / HTTP/1.1\r\n" + h + "X-A : 1\r\n\r\n") << 400;
    QTest::newRow("NUL in value") << QByteArray("GET / HTTP/1.1\r\n" + h + QByteArray("X-A: a\0b\r\n\r\n", 12)) << 400;
    QTest::newRow("list content-length") << QByteArray("POST / HTTP/1.1\r\n" + h + "Content-Length: 3, 3\r\n\r\nabc")
                                         << 400;
    QTest::newRow("duplicate content-length")
        << QByteArray("POST / HTTP/1.1\r\n" + h + "Content-Length: 3\r\nContent-Length: 3\r\n\r\nabc") << 400;
    QTest::newRow("negative content-length")
        << QByteArray("POST / HTTP/1.1\r\n" + h + "Content-Length: -1\r\n\r\n") << 400;
    QTest::newRow("huge content-length") << QByteArray(
        "POST / HTTP/1.1\r\n" + h + "Content-Length: 99999999999999999999\r\n\r\n")
                                         << 400;
    QTest::newRow("content-length and chunked")
        << QByteArray("POST / HTTP/1.1\r\n" + h + "Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\nabc") << 400;
    QTest::newRow("chunked") << QByteArray("POST / HTTP/1.1\r\n" + h + "Transfer-Encoding: chunked\r\n\r\n") << 411;
    QTest::newRow("gzip coding") << QByteArray("POST / HTTP/1.1\r\n" + h + "Transfer-Encoding: gzip\r\n\r\n") << 501;
    QTest::newRow("unknown method") << QByteArray("BREW / HTTP/1.1\r\n" + h + "\r\n") << 501;
    QTest::newRow("connect") << QByteArray("CONNECT a.test:443 HTTP/1.1\r\n" + h + "\r\n") << 501;
    QTest::newRow("expect other") << QByteArray("POST / HTTP/1.1\r\n" + h + "Expect: 200-ok\r\n\r\n") << 417;
    QTest::newRow("long request line") << QByteArray("GET /" + QByteArray(9000, 'a') + " HTTP/1.1\r\n" + h + "\r\n")
                                       << 414;
    QByteArray many = "GET / HTTP/1.1\r\n" + h;
    for (int i = 0; i < 100; ++i)
        many += "X-" + QByteArray::number(i) + ": v\r\n";
    QTest::newRow("101 fields") << QByteArray(many + "\r\n") << 431;
    QTest::newRow("17 KiB of headers") << QByteArray("GET / HTTP/1.1\r\n" + h + "X-Big: " + QByteArray(17 * 1024, 'b')
        + "\r\n\r\n") << 431;
}

void TestFrontDoor::refusals()
{
    QFETCH(QByteArray, request);
    QFETCH(int, status);
    RawClient client;
    QVERIFY(client.connectTo(m_service->serverPort()));
    client.send(request);
    RawResponse r;
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.status, status);
    QCOMPARE(r.header("connection"), QByteArray("close"));
    QCOMPARE(r.header("content-type"), QByteArray("application/json"));
    QVERIFY(!errorOf(r).isEmpty());
    QVERIFY(client.waitClosed());
    QVERIFY(client.received().isEmpty()); // nothing after the refusal
    QCOMPARE(m_handler->calls, 0);
    QTRY_COMPARE(m_service->liveConnections(), 0);
}

void TestFrontDoor::leadingEmptyLinesAreIgnored()
{
    RawClient client;
    QVERIFY(client.connectTo(m_service->serverPort()));
    client.send("\r\n\r\nGET / HTTP/1.1\r\nHost: a.test\r\n\r\n");
    RawResponse r;
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.status, 200);
}

void TestFrontDoor::smuggledAfter101Headers()
{
    // QtNetwork alone stops at 100 fields and would run the body as a second request.
    QByteArray request = "POST /echo HTTP/1.1\r\nHost: a.test\r\n";
    for (int i = 0; i < 100; ++i)
        request += "X-" + QByteArray::number(i) + ": v\r\n";
    const QByteArray smuggled = "GET /smuggled HTTP/1.1\r\nHost: a.test\r\n\r\n";
    request += "Content-Length: " + QByteArray::number(smuggled.size()) + "\r\n\r\n" + smuggled;
    RawClient client;
    QVERIFY(client.connectTo(m_service->serverPort()));
    client.send(request);
    RawResponse r;
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.status, 431);
    QVERIFY(client.waitClosed());
    QVERIFY(client.received().isEmpty());
    QCOMPARE(m_handler->calls, 0);
}

void TestFrontDoor::smuggledWithContentLengthAndChunked()
{
    RawClient client;
    QVERIFY(client.connectTo(m_service->serverPort()));
    client.send("POST / HTTP/1.1\r\nHost: a.test\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"
                "0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: a.test\r\n\r\n");
    RawResponse r;
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.status, 400);
    QVERIFY(client.waitClosed());
    QVERIFY(client.received().isEmpty());
    QCOMPARE(m_handler->calls, 0);
}

void TestFrontDoor::smuggledWithListContentLength()
{
    RawClient client;
    QVERIFY(client.connectTo(m_service->serverPort()));
    client.send("POST / HTTP/1.1\r\nHost: a.test\r\nContent-Length: 3, 3\r\n\r\n"
                "abcGET /smuggled HTTP/1.1\r\nHost: a.test\r\n\r\n");
    RawResponse r;
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.status, 400);
    QVERIFY(client.waitClosed());
    QVERIFY(client.received().isEmpty());
    QCOMPARE(m_handler->calls, 0);
}

void TestFrontDoor::bodyOverLimitRefusedBeforeItIsSent()
{
    RawClient client;
    QVERIFY(client.connectTo(m_service->serverPort()));
    client.send("POST /upload HTTP/1.1\r\nHost: a.test\r\nContent-Length: 5000000\r\n\r\n"); // no body byte sent
    RawResponse r;
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.status, 413);
    QCOMPARE(errorOf(r), QByteArray("Upload exceeds the 1000 byte limit"));
    QVERIFY(client.waitClosed());
    QCOMPARE(m_handler->calls, 0);
}

void TestFrontDoor::expectContinueAnsweredOnce()
{
    RawClient client;
    QVERIFY(client.connectTo(m_service->serverPort()));
    client.send("POST /echo HTTP/1.1\r\nHost: a.test\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n");
    const QByteArray interim = "HTTP/1.1 100 Continue\r\n\r\n";
    QTRY_COMPARE((client.received() += client.socket().readAll()), interim);
    client.received().clear();
    client.send("hello");
    RawResponse r;
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.body, QByteArray("hello"));
    // And the next request on the connection brings no stray second 100.
    client.send("GET / HTTP/1.1\r\nHost: a.test\r\n\r\n");
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.status, 200);
    QVERIFY(!client.received().contains("100 Continue"));
}

void TestFrontDoor::expectContinueRefusedWithFinalStatus()
{
    RawClient client;
    QVERIFY(client.connectTo(m_service->serverPort()));
    client.send("POST /upload HTTP/1.1\r\nHost: a.test\r\nExpect: 100-continue\r\nContent-Length: 2000\r\n\r\n");
    RawResponse r;
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.status, 413);
    QVERIFY(client.waitClosed());
    QCOMPARE(m_handler->calls, 0);
}

void TestFrontDoor::bodyInPiecesAndPipelinedPosts()
{
    RawClient client;
    QVERIFY(client.connectTo(m_service->serverPort()));
    const QByteArray body(100000, 'x');
    client.send("POST /echo HTTP/1.1\r\nHost: a.test\r\nExpect: 100-continue\r\nContent-Length: 100000\r\n\r\n");
    QTRY_VERIFY((client.received() += client.socket().readAll()).endsWith("100 Continue\r\n\r\n"));
    client.received().clear();
    client.send(body.first(30000));
    client.send(body.sliced(30000) + "POST /echo HTTP/1.1\r\nHost: a.test\r\nContent-Length: 3\r\n\r\nabc"
        + "GET / HTTP/1.1\r\nHost: a.test\r\n\r\n");
    RawResponse r;
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.body, body);
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.body, QByteArray("abc"));
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.body, QByteArray("hello"));
    QCOMPARE(m_handler->calls, 3);
}

void TestFrontDoor::largeUploadsCapped()
{
    startWithOneUploadSlot();
    RawClient first;
    RawClient second;
    QVERIFY(first.connectTo(m_service->serverPort()));
    QVERIFY(second.connectTo(m_service->serverPort()));
    // The 100 proves the first head was framed and took the only slot.
    first.send("POST /echo HTTP/1.1\r\nHost: a.test\r\nExpect: 100-continue\r\nContent-Length: 500\r\n\r\n");
    QTRY_VERIFY((first.received() += first.socket().readAll()).endsWith("100 Continue\r\n\r\n"));
    first.received().clear();
    first.send(QByteArray(200, 'a'));
    second.send("POST /echo HTTP/1.1\r\nHost: a.test\r\nContent-Length: 500\r\n\r\n");
    RawResponse r;
    QVERIFY(second.waitResponse(&r));
    QCOMPARE(r.status, 503);
    QCOMPARE(r.header("retry-after"), QByteArray("1"));
    first.send(QByteArray(300, 'a'));
    QVERIFY(first.waitResponse(&r));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.body.size(), 500);
    // The slot is free again.
    first.send("POST /echo HTTP/1.1\r\nHost: a.test\r\nContent-Length: 500\r\n\r\n" + QByteArray(500, 'b'));
    QVERIFY(first.waitResponse(&r));
    QCOMPARE(r.status, 200);
    QCOMPARE(m_handler->calls, 2);
}

// A large body is read by the guard a slice at a time (kBodySliceBytes) as it arrives: that must never stall. A body
// of many slices, sent at once with a request pipelined behind it, arrives whole; another
// connection is answered while the body is still incomplete.
void TestFrontDoor::bodyOfManySlicesTakesTurns()
{
    constexpr qsizetype kBodyBytes = 3 * 1024 * 1024 + 17; // about a dozen slices, the last one partial
    QByteArray body(kBodyBytes, Qt::Uninitialized);
    for (qsizetype i = 0; i < body.size(); ++i)
        body[i] = char('a' + i % 23);
    RawClient uploader;
    RawClient visitor;
    QVERIFY(uploader.connectTo(m_service->serverPort()));
    QVERIFY(visitor.connectTo(m_service->serverPort()));
    uploader.send("POST /echo HTTP/1.1\r\nHost: a.test\r\nContent-Length: " + QByteArray::number(kBodyBytes)
        + "\r\n\r\n" + body.first(2 * 1024 * 1024));
    visitor.send("GET / HTTP/1.1\r\nHost: a.test\r\n\r\n");
    RawResponse r;
    QVERIFY(visitor.waitResponse(&r));
    QCOMPARE(r.body, QByteArray("hello"));
    uploader.send(body.sliced(2 * 1024 * 1024) + "POST /echo HTTP/1.1\r\nHost: a.test\r\nContent-Length: 3\r\n\r\nxyz");
    QVERIFY(uploader.waitResponse(&r, false, 20000));
    QCOMPARE(r.status, 200);
    QVERIFY(r.body == body);
    QVERIFY(uploader.waitResponse(&r));
    QCOMPARE(r.body, QByteArray("xyz"));
    QCOMPARE(m_handler->calls, 3);
}

// A client that stops halfway through a large body (read by the guard itself) and goes: the upload slot is free for
// the next one, whose body arrives whole.
void TestFrontDoor::abandonedLargeBodyFreesItsSlot()
{
    startWithOneUploadSlot();
    constexpr qsizetype kBodyBytes = 300000;
    {
        RawClient quitter;
        QVERIFY(quitter.connectTo(m_service->serverPort()));
        quitter.send("POST /echo HTTP/1.1\r\nHost: a.test\r\nContent-Length: " + QByteArray::number(kBodyBytes)
            + "\r\n\r\n" + QByteArray(kBodyBytes / 2, 'q'));
        QTRY_COMPARE(m_service->liveConnections(), 1);
        quitter.socket().abort();
    }
    QTRY_COMPARE(m_service->liveConnections(), 0);
    QByteArray body(kBodyBytes, Qt::Uninitialized);
    for (qsizetype i = 0; i < body.size(); ++i)
        body[i] = char('A' + i % 26);
    RawClient next;
    QVERIFY(next.connectTo(m_service->serverPort()));
    next.send(
        "POST /echo HTTP/1.1\r\nHost: a.test\r\nContent-Length: " + QByteArray::number(kBodyBytes) + "\r\n\r\n" + body);
    RawResponse r;
    QVERIFY(next.waitResponse(&r));
    QCOMPARE(r.status, 200);
    QVERIFY(r.body == body);
    QCOMPARE(m_handler->calls, 1);
}

QTEST_GUILESS_MAIN(TestFrontDoor)
#include "tst_frontdoor.moc"
