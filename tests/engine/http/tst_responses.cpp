// Responses on real sockets: the writer's headers, HEAD and bodiless statuses, file streaming, worker-thread
// responses, pipelining around both, slow readers and clients that leave mid-response.
#include "common/residentsize.h"
#include "rawclient.h"
#include "testhandler.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QtEndian>
#include <http/httpservice.h>
#include <http/responsewriter.h>
#include <memory>

using namespace berth;
using namespace berth::test;

namespace {

int openDescriptors()
{
    return int(QDir(QStringLiteral("/proc/self/fd")).entryList(QDir::Files | QDir::System).size());
}

} // namespace

class TestResponses final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void writerOwnsItsHeaders();
    void dateIsImfFixdate();
    void headHasLengthButNoBody();
    void bodilessStatuses();
    void streamsFileRanges();
    void pipelinedAroundStreamedFile();
    void pipelinedAroundWorkerResponse();
    void heldConnectionStopsReading();
    void slowReaderCostsNoMemory();
    void slowReaderGetsEveryByteInOrder();
    void disconnectMidStream();
    void disconnectMidWorkerResponse();
    void sendAfterDisconnectIsHarmless();

private:
    QByteArray makeFile(const QString &name, qint64 size);

    QTemporaryDir m_dir;
    std::unique_ptr<TestHandler> m_handler;
    std::unique_ptr<HttpService> m_service;
};

void TestResponses::initTestCase()
{
    QVERIFY(m_dir.isValid());
}

void TestResponses::init()
{
    m_handler = std::make_unique<TestHandler>();
    m_service = std::make_unique<HttpService>(*m_handler);
    QVERIFY(m_service->listen(QHostAddress::LocalHost, 0).ok());
}

void TestResponses::cleanup()
{
    m_handler->gate.release(100); // never leave a worker blocked
    m_service.reset();
    m_handler.reset();
}

// Writes a file of `size` bytes with a position-dependent pattern; returns its first 64 KiB for checks.
QByteArray TestResponses::makeFile(const QString &name, qint64 size)
{
    QFile file(m_dir.filePath(name));
    if (!file.open(QIODevice::WriteOnly))
        return {};
    QByteArray block(1 << 20, Qt::Uninitialized);
    for (qint64 written = 0; written < size; written += block.size()) {
        for (int i = 0; i < block.size(); i += 8)
            qToBigEndian<quint64>(quint64(written + i), block.data() + i);
        file.write(block.constData(), qMin<qint64>(block.size(), size - written));
    }
    file.close();
    m_handler->filePath = file.fileName();
    file.open(QIODevice::ReadOnly);
    return file.read(64 * 1024);
}

void TestResponses::writerOwnsItsHeaders()
{
    RawClient client;
    QVERIFY(client.connectTo(m_service->serverPort()));
    client.send("GET /headers HTTP/1.1\r\nHost: a.test\r\n\r\n");
    RawResponse r;
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.status, 405);
    QVERIFY(client.received().isEmpty()); // the handler's false Content-Length did not frame anything
    QCOMPARE(r.body, QByteArray("no"));
    QCOMPARE(r.header("allow"), QByteArray("GET, HEAD"));
    QCOMPARE(r.count("x-twin"), 1);
    QCOMPARE(r.header("x-twin"), QByteArray("2"));
    QCOMPARE(r.count("content-length"), 1);
    QCOMPARE(r.header("content-length"), QByteArray("2"));
    QCOMPARE(r.count("set-cookie"), 2);
    QCOMPARE(r.count("x-evil"), 0);
    QCOMPARE(r.count("injected"), 0);
    QCOMPARE(r.header("x-content-type-options"), QByteArray("nosniff"));
    QCOMPARE(r.header("server"), QByteArray("Berth"));
    QCOMPARE(r.count("date"), 1);
    QCOMPARE(r.count("connection"), 1);
}

void TestResponses::dateIsImfFixdate()
{
    QCOMPARE(ResponseWriter::imfFixdate(784111777), QByteArray("Sun, 06 Nov 1994 08:49:37 GMT"));
    QCOMPARE(ResponseWriter::imfFixdate(0), QByteArray("Thu, 01 Jan 1970 00:00:00 GMT"));
    RawClient client;
    QVERIFY(client.connectTo(m_service->serverPort()));
    client.send("GET / HTTP/1.1\r\nHost: a.test\r\n\r\n");
    RawResponse r;
    QVERIFY(client.waitResponse(&r));
    static const QRegularExpression fixdate(
        QStringLiteral("^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \\d\\d [A-Z][a-z]{2} \\d{4} \\d\\d:\\d\\d:\\d\\d GMT$"));
    QVERIFY2(fixdate.match(QString::fromLatin1(r.header("date"))).hasMatch(), r.header("date").constData());
}

void TestResponses::headHasLengthButNoBody()
{
    makeFile(QStringLiteral("head.bin"), 300000);
    RawClient client;
    QVERIFY(client.connectTo(m_service->serverPort()));
    client.send("HEAD / HTTP/1.1\r\nHost: a.test\r\n\r\nHEAD /file HTTP/1.1\r\nHost: a.test\r\n\r\n"
                "GET / HTTP/1.1\r\nHost: a.test\r\n\r\n");
    RawResponse r;
    QVERIFY(client.waitResponse(&r, true));
    QCOMPARE(r.header("content-length"), QByteArray("5"));
    QVERIFY(r.body.isEmpty());
    QVERIFY(client.waitResponse(&r, true));
    QCOMPARE(r.header("content-length"), QByteArray("300000"));
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.body, QByteArray("hello")); // the bytes right after each HEAD response were the next response
    QVERIFY(client.received().isEmpty());
}

void TestResponses::bodilessStatuses()
{
    RawClient client;
    QVERIFY(client.connectTo(m_service->serverPort()));
    client.send("GET /204 HTTP/1.1\r\nHost: a.test\r\n\r\nGET /304 HTTP/1.1\r\nHost: a.test\r\n\r\n"
                "GET / HTTP/1.1\r\nHost: a.test\r\n\r\n");
    RawResponse r;
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.status, 204);
    QCOMPARE(r.count("content-length"), 0);
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.status, 304);
    QCOMPARE(r.count("content-length"), 0);
    QCOMPARE(r.header("etag"), QByteArray("\"x\""));
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.body, QByteArray("hello"));
}

void TestResponses::streamsFileRanges()
{
    const qint64 size = 3 * 1024 * 1024 + 17;
    makeFile(QStringLiteral("big.bin"), size);
    QFile file(m_handler->filePath);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray content = file.readAll();
    RawClient client;
    QVERIFY(client.connectTo(m_service->serverPort()));
    client.send("GET /file HTTP/1.1\r\nHost: a.test\r\n\r\n");
    RawResponse r;
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.body.size(), size);
    QVERIFY(r.body == content);
    QVERIFY(m_service->peakUnsentBytes() <= 1024 * 1024);
}

void TestResponses::pipelinedAroundStreamedFile()
{
    makeFile(QStringLiteral("pipe.bin"), 5 * 1024 * 1024);
    RawClient client;
    QVERIFY(client.connectTo(m_service->serverPort()));
    client.send("GET /first HTTP/1.1\r\nHost: a.test\r\n\r\nGET /file HTTP/1.1\r\nHost: a.test\r\n\r\n"
                "POST /echo HTTP/1.1\r\nHost: a.test\r\nContent-Length: 4\r\n\r\nlast");
    RawResponse r;
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.body, QByteArray("hello"));
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.body.size(), 5 * 1024 * 1024);
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.body, QByteArray("last"));
    QCOMPARE(
        m_handler->paths, QList<QString>({QStringLiteral("/first"), QStringLiteral("/file"), QStringLiteral("/echo")}));
}

void TestResponses::pipelinedAroundWorkerResponse()
{
    RawClient client;
    QVERIFY(client.connectTo(m_service->serverPort()));
    client.send(
        "GET /first HTTP/1.1\r\nHost: a.test\r\n\r\nPOST /slow HTTP/1.1\r\nHost: a.test\r\nContent-Length: 2\r\n\r\n"
        "xyGET /last HTTP/1.1\r\nHost: a.test\r\n\r\n");
    RawResponse r;
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.body, QByteArray("hello"));
    QTRY_COMPARE(m_handler->calls, 2);
    // The worker is blocked: the third request is held, not parsed, not answered.
    QVERIFY(!client.waitResponse(&r, false, 100));
    QCOMPARE(m_handler->calls, 2);
    m_handler->gate.release();
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.body, QByteArray("slow done"));
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.body, QByteArray("hello"));
    QCOMPARE(m_handler->paths.last(), QStringLiteral("/last"));
    QCOMPARE(m_handler->continuations.load(), 1);
}

void TestResponses::heldConnectionStopsReading()
{
    // While a response is pending the connection buffers a bounded amount, then TCP pushes back on the client.
    RawClient client;
    QVERIFY(client.connectTo(m_service->serverPort()));
    client.send("GET /later HTTP/1.1\r\nHost: a.test\r\n\r\n");
    QTRY_VERIFY(m_handler->laterSink.has_value());
    const QByteArray flood(64 * 1024 * 1024, 'G');
    const qint64 before = residentKiB();
    client.socket().write(flood);
    // Wait until the client can hand nothing more to the kernel: its queue stops shrinking for 20 checks in a row.
    int steadyChecks = 0;
    qint64 lastQueued = -1;
    QTimer probe;
    QObject::connect(&probe, &QTimer::timeout, [&] {
        const qint64 queued = client.socket().bytesToWrite();
        steadyChecks = queued == lastQueued ? steadyChecks + 1 : 0;
        lastQueued = queued;
    });
    probe.start(5);
    QTRY_VERIFY_WITH_TIMEOUT(steadyChecks >= 20, 20000);
    probe.stop();
    // Loopback kernel buffers take a few MB; a server that read the flood in would have let all of it go.
    QVERIFY2(client.socket().bytesToWrite() > 32 * 1024 * 1024, "the server took the flood in");
    QVERIFY2(residentKiB() - before < 16 * 1024, "a held connection buffered the flood");
    m_handler->laterSink->send(HttpResponse::bytes(200, "text/plain", "late"));
    RawResponse r;
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.body, QByteArray("late"));
    // Then the flood is framed as a request line, found too long, and refused.
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.status, 414);
    QCOMPARE(m_handler->calls, 1);
}

void TestResponses::slowReaderCostsNoMemory()
{
    const qint64 size = 64 * 1024 * 1024;
    makeFile(QStringLiteral("slow.bin"), size);
    RawClient client;
    client.socket().setReadBufferSize(64 * 1024);
    QVERIFY(client.connectTo(m_service->serverPort()));
    const qint64 before = residentKiB();
    qint64 peakGrowth = 0;
    qint64 received = 0;
    QByteArray sink(64 * 1024, Qt::Uninitialized);
    client.send("GET /file HTTP/1.1\r\nHost: a.test\r\n\r\n");
    // Read at a throttled pace: 64 KiB per 2 ms tick, about 32 MB/s.
    QTimer pace;
    QObject::connect(&pace, &QTimer::timeout, [&] {
        received += client.socket().read(sink.data(), sink.size());
        peakGrowth = qMax(peakGrowth, residentKiB() - before);
    });
    pace.start(2);
    QTRY_VERIFY_WITH_TIMEOUT(received > size, 60000); // body plus the head
    pace.stop();
    QVERIFY2(peakGrowth < 24 * 1024, qPrintable(QStringLiteral("grew by %1 KiB").arg(peakGrowth)));
    QVERIFY(m_service->peakUnsentBytes() <= 1024 * 1024);
    QVERIFY(m_service->peakUnsentBytes() > 0);
}

void TestResponses::slowReaderGetsEveryByteInOrder()
{
    // A file larger than the socket buffers, read in small steps: the bytes alternate between sendfile (while Qt's
    // buffer is empty) and pieces queued through Qt (while the client is behind), and must arrive exactly once each,
    // in order, with the keep-alive connection usable afterwards.
    const qint64 size = 12 * 1024 * 1024 + 4093;
    makeFile(QStringLiteral("paced.bin"), size);
    QFile file(m_handler->filePath);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray content = file.readAll();
    RawClient client;
    client.socket().setReadBufferSize(32 * 1024);
    QVERIFY(client.connectTo(m_service->serverPort()));
    client.send("GET /file HTTP/1.1\r\nHost: a.test\r\n\r\n");
    QByteArray received;
    QByteArray step(32 * 1024, Qt::Uninitialized);
    QTimer pace;
    QObject::connect(&pace, &QTimer::timeout, [&] {
        const qint64 got = client.socket().read(step.data(), step.size());
        if (got > 0)
            received.append(step.constData(), got);
    });
    pace.start(1);
    const auto headEnd = [&] { return received.indexOf("\r\n\r\n"); };
    QTRY_VERIFY_WITH_TIMEOUT(headEnd() > 0 && received.size() - headEnd() - 4 >= size, 60000);
    pace.stop();
    QVERIFY(received.startsWith("HTTP/1.1 200 "));
    QVERIFY(received.contains("Content-Length: " + QByteArray::number(size) + "\r\n"));
    const QByteArray body = received.mid(headEnd() + 4);
    QCOMPARE(body.size(), size);
    QVERIFY(body == content);

    client.send("GET / HTTP/1.1\r\nHost: a.test\r\n\r\n");
    RawResponse r;
    QVERIFY(client.waitResponse(&r));
    QCOMPARE(r.status, 200);
}

void TestResponses::disconnectMidStream()
{
    makeFile(QStringLiteral("leave.bin"), 32 * 1024 * 1024);
    const int fdsBefore = openDescriptors();
    {
        RawClient client;
        client.socket().setReadBufferSize(64 * 1024);
        QVERIFY(client.connectTo(m_service->serverPort()));
        client.send("GET /file HTTP/1.1\r\nHost: a.test\r\n\r\n");
        QTRY_VERIFY(client.socket().bytesAvailable() > 0);
        QTRY_VERIFY(m_service->peakUnsentBytes() > 0); // streaming has started
        client.socket().abort();
    }
    QTRY_COMPARE(m_service->liveConnections(), 0);
    QTRY_COMPARE(openDescriptors(), fdsBefore); // the file and the socket are closed
    // And the server goes on serving.
    RawClient next;
    QVERIFY(next.connectTo(m_service->serverPort()));
    next.send("GET / HTTP/1.1\r\nHost: a.test\r\n\r\n");
    RawResponse r;
    QVERIFY(next.waitResponse(&r));
    QCOMPARE(r.status, 200);
}

void TestResponses::disconnectMidWorkerResponse()
{
    {
        RawClient client;
        QVERIFY(client.connectTo(m_service->serverPort()));
        client.send(
            "POST /slow HTTP/1.1\r\nHost: a.test\r\nContent-Length: 2\r\n\r\nxyGET / HTTP/1.1\r\nHost: a\r\n\r\n");
        QTRY_COMPARE(m_handler->calls, 1);
        client.socket().abort();
    }
    QTRY_COMPARE(m_service->liveConnections(), 0);
    m_handler->gate.release();
    QTRY_COMPARE(m_handler->workersDone.load(), 1);
    // The continuation runs on the worker after the connection is gone; its answer goes nowhere (not to the next
    // client, who may get the same socket number), and the pipelined request behind it was never handled.
    QTRY_COMPARE(m_handler->continuations.load(), 1);
    RawClient next;
    QVERIFY(next.connectTo(m_service->serverPort()));
    next.send("GET / HTTP/1.1\r\nHost: a.test\r\n\r\n");
    RawResponse r;
    QVERIFY(next.waitResponse(&r));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.body, QByteArray("hello"));
    QCOMPARE(m_handler->calls, 2);
}

void TestResponses::sendAfterDisconnectIsHarmless()
{
    {
        RawClient client;
        QVERIFY(client.connectTo(m_service->serverPort()));
        client.send("GET /later HTTP/1.1\r\nHost: a.test\r\n\r\n");
        QTRY_VERIFY(m_handler->laterSink.has_value());
        QVERIFY(m_handler->laterSink->isConnected());
        client.socket().abort();
    }
    QTRY_VERIFY(!m_handler->laterSink->isConnected());
    QTRY_COMPARE(m_service->liveConnections(), 0);
    QVERIFY(m_handler->laterSink->context() == nullptr); // never the connection, which is gone
    m_handler->laterSink->send(HttpResponse::bytes(200, "text/plain", "nobody"));
    m_handler->laterSink->send(HttpResponse::bytes(200, "text/plain", "twice"));
}

QTEST_GUILESS_MAIN(TestResponses)
#include "tst_responses.moc"
