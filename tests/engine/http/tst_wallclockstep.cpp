// A step of the wall clock (an NTP correction, a suspended laptop, an administrator's `date -s`) must not change
// which connections live: durations are measured on the monotonic clock. CTest runs this suite under libfaketime,
// whose offset the test changes mid-run through the file FAKETIME_TIMESTAMP_FILE names; the monotonic clock is left
// alone (FAKETIME_DONT_FAKE_MONOTONIC), as the kernel does when the wall clock is set.
#include "rawclient.h"
#include "testhandler.h"

#include <QDateTime>
#include <QFile>
#include <QTest>
#include <http/httpservice.h>
#include <memory>

using namespace berth;
using namespace berth::test;

class TestWallClockStep final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();

    void backwardStepKeepsTheNewestIdleConnection();
    void forwardStepClosesNoIdleConnection();

private:
    // Moves the process's wall clock by `seconds` from the real time (0: back to the real time), and checks it moved.
    void stepWallClock(qint64 seconds);
    void start(const HttpConfig &config);
    static void request(RawClient &client, quint16 port);

    std::unique_ptr<TestHandler> m_handler;
    std::unique_ptr<HttpService> m_service;
};

void TestWallClockStep::initTestCase()
{
    QVERIFY2(!qEnvironmentVariable("FAKETIME_TIMESTAMP_FILE").isEmpty(),
        "run this suite through CTest, which preloads libfaketime (Debian's package faketime)");
    stepWallClock(0);
}

void TestWallClockStep::cleanup()
{
    m_service.reset();
    m_handler.reset();
    stepWallClock(0);
}

void TestWallClockStep::stepWallClock(qint64 seconds)
{
    const qint64 before = QDateTime::currentSecsSinceEpoch();
    QFile file(qEnvironmentVariable("FAKETIME_TIMESTAMP_FILE"));
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write((seconds < 0 ? QByteArray() : QByteArray("+")) + QByteArray::number(seconds) + '\n');
    file.close();
    if (seconds != 0) {
        // The clock really moved: without libfaketime in the process this test would prove nothing.
        const qint64 moved = QDateTime::currentSecsSinceEpoch() - before;
        QVERIFY2(qAbs(moved - seconds) < 3600, qPrintable(QStringLiteral("the wall clock moved by %1 s").arg(moved)));
    }
}

void TestWallClockStep::start(const HttpConfig &config)
{
    m_handler = std::make_unique<TestHandler>();
    m_service = std::make_unique<HttpService>(*m_handler, config);
    QVERIFY(m_service->listen(QHostAddress::LocalHost, 0).ok());
}

void TestWallClockStep::request(RawClient &client, quint16 port)
{
    if (client.socket().state() != QAbstractSocket::ConnectedState)
        QVERIFY(client.connectTo(port));
    client.send("GET / HTTP/1.1\r\nHost: a.test\r\n\r\n");
    RawResponse response;
    QVERIFY(client.waitResponse(&response));
    QCOMPARE(response.status, 200);
}

void TestWallClockStep::backwardStepKeepsTheNewestIdleConnection()
{
    // At the connection cap the connection idle longest makes room for a newcomer. After the wall clock is set back a
    // day, the connection that went idle last would look a day older than the first by wall-clock time.
    HttpConfig config;
    config.maxConnections = 2;
    config.apiReservedConnections = 0; // both places for visitors
    config.idleTimeoutMs = 60000;
    start(config);
    const quint16 port = m_service->serverPort();
    RawClient first;
    request(first, port);
    QTest::qWait(5); // only so that the two go idle at distinct milliseconds of the monotonic clock
    stepWallClock(-86400);
    RawClient second;
    request(second, port);
    QTRY_COMPARE(m_service->liveConnections(), 2);

    RawClient newcomer;
    request(newcomer, port);
    QVERIFY(first.waitClosed()); // idle longest: it made room
    request(second, port); // the one idle a moment is still open and serving
    QCOMPARE(second.socket().state(), QAbstractSocket::ConnectedState);
}

void TestWallClockStep::forwardStepClosesNoIdleConnection()
{
    HttpConfig config;
    config.idleTimeoutMs = 60000;
    start(config);
    const quint16 port = m_service->serverPort();
    RawClient client;
    request(client, port);
    stepWallClock(86400);
    RawClient newcomer;
    request(newcomer, port);
    QCOMPARE(m_service->liveConnections(), 2);
    QCOMPARE(client.socket().state(), QAbstractSocket::ConnectedState);
    request(client, port); // the same connection answers after the step
}

QTEST_GUILESS_MAIN(TestWallClockStep)
#include "tst_wallclockstep.moc"
