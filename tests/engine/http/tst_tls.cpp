// HTTPS through the front door, on real sockets with a certificate made by openssl for the test: requests are
// served over TLS (and say so), the plain port redirects when asked to, a client that never completes its
// handshake is closed at the header timeout and counts in the per-address cap meanwhile, and bad certificate or
// key files are refused when loaded, in words.
#include "common/resultassert.h"
#include "common/testcertificates.h"
#include "rawclient.h"
#include "testhandler.h"

#include <QElapsedTimer>
#include <QSslSocket>
#include <QTemporaryDir>
#include <QTest>
#include <http/httpservice.h>
#include <http/tlscredentials.h>
#include <memory>

using namespace Qt::StringLiterals;
using namespace berth;
using namespace berth::test;

class TestTls final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();

    void servesOverTls();
    void redirectsPlainHttp();
    void stalledHandshakeIsClosed();
    void handshakesCountPerAddress();
    void badFilesRefusedWhenLoaded();
    void lastAnswerArrivesBeforeTheClose();

private:
    void start(HttpConfig config, bool redirect = false);
    // A TLS client that trusts the test CA; connected and encrypted, or null.
    // protocols: what the client offers by ALPN (a browser's by default).
    std::unique_ptr<QSslSocket> connectTls(
        const QList<QByteArray> &protocols = {QByteArrayLiteral("h2"), QByteArrayLiteral("http/1.1")});
    QByteArray exchangeTls(QSslSocket &socket, const QByteArray &request);

    QTemporaryDir m_dir;
    TestCertificates m_certs;
    TlsCredentials m_credentials;
    std::unique_ptr<TestHandler> m_handler;
    std::unique_ptr<HttpService> m_service;
};

void TestTls::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(m_certs.make(m_dir.path(), {u"localhost"_s, u"*.localhost"_s}));
    const Result<TlsCredentials> loaded = TlsCredentials::load(m_certs.serverCert, m_certs.serverKey);
    BERTH_VERIFY_OK(loaded);
    m_credentials = loaded.value();
    QVERIFY(!m_credentials.isNull());
    QVERIFY(m_credentials.names().contains(u"*.localhost"_s));
}

void TestTls::cleanup()
{
    m_service.reset();
    m_handler.reset();
}

void TestTls::start(HttpConfig config, bool redirect)
{
    m_service.reset();
    m_handler = std::make_unique<TestHandler>();
    m_service = std::make_unique<HttpService>(*m_handler, config);
    m_service->setTls(m_credentials.configuration, 0, redirect);
    const Result<void> listening = m_service->listen(QHostAddress::LocalHost, 0);
    QVERIFY2(listening.ok(), qPrintable(listening.ok() ? QString() : listening.error().message));
    QVERIFY(m_service->httpsPort() != 0 && m_service->httpsPort() != m_service->serverPort());
}

std::unique_ptr<QSslSocket> TestTls::connectTls(const QList<QByteArray> &protocols)
{
    auto socket = std::make_unique<QSslSocket>();
    QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
    configuration.setCaCertificates(QSslCertificate::fromPath(m_certs.caCert));
    // A browser offers HTTP/2 first: the front door speaks HTTP/1.1 only and must pick that.
    configuration.setAllowedNextProtocols(protocols);
    socket->setSslConfiguration(configuration);
    socket->connectToHostEncrypted(u"localhost"_s, m_service->httpsPort()); // the name is checked against the cert
    // The server runs on this thread: wait by running its events, never by blocking.
    if (!QTest::qWaitFor(
            [&] { return socket->isEncrypted() || socket->state() == QAbstractSocket::UnconnectedState; }, 5000)
        || !socket->isEncrypted()) {
        qWarning("no TLS connection: %s", qPrintable(socket->errorString()));
        return nullptr;
    }
    return socket;
}

QByteArray TestTls::exchangeTls(QSslSocket &socket, const QByteArray &request)
{
    socket.write(request);
    QByteArray received;
    // Whatever arrived within the time: the callers compare it with what they expect.
    const bool complete = QTest::qWaitFor(
        [&] {
            received += socket.readAll();
            return received.contains("\r\n\r\nhello") || socket.state() == QAbstractSocket::UnconnectedState;
        },
        5000);
    Q_UNUSED(complete)
    return received;
}

void TestTls::servesOverTls()
{
    start({});
    auto socket = connectTls();
    QVERIFY(socket);
    QCOMPARE(socket->sslConfiguration().nextNegotiatedProtocol(), QByteArray("http/1.1"));
    for (int i = 0; i < 2; ++i) { // keep-alive over TLS
        const QByteArray response = exchangeTls(*socket, "GET / HTTP/1.1\r\nHost: a.localhost\r\n\r\n");
        QVERIFY2(response.startsWith("HTTP/1.1 200 OK\r\n"), response.constData());
        QVERIFY(response.endsWith("\r\n\r\nhello"));
    }
    QCOMPARE(m_handler->calls, 2);
    QVERIFY(m_handler->last.secure);

    // The plain port goes on serving plain HTTP, and says it was not secure.
    RawClient plain;
    QVERIFY(plain.connectTo(m_service->serverPort()));
    plain.send("GET / HTTP/1.1\r\nHost: a.localhost\r\n\r\n");
    RawResponse r;
    QVERIFY(plain.waitResponse(&r));
    QCOMPARE(r.status, 200);
    QVERIFY(!m_handler->last.secure);
}

void TestTls::redirectsPlainHttp()
{
    start({}, true);
    RawClient plain;
    QVERIFY(plain.connectTo(m_service->serverPort()));
    const QByteArray https = "https://blog.localhost:" + QByteArray::number(m_service->httpsPort());
    plain.send("GET /a/b%20c?x=1&y=2 HTTP/1.1\r\nHost: Blog.Localhost:8080\r\n\r\n");
    RawResponse r;
    QVERIFY(plain.waitResponse(&r));
    QCOMPARE(r.status, 308);
    QCOMPARE(r.header("location"), https + "/a/b%20c?x=1&y=2");
    // A POST keeps its method and body through a 308; it is read under the real handler's limits first.
    plain.send("POST /echo HTTP/1.1\r\nHost: blog.localhost\r\nContent-Length: 3\r\n\r\nabc");
    QVERIFY(plain.waitResponse(&r));
    QCOMPARE(r.status, 308);
    QCOMPARE(r.header("location"), https + "/echo");
    // A Host that could not name an address is not echoed into a Location.
    plain.send("GET / HTTP/1.1\r\nHost: evil.test/x?\r\n\r\n");
    QVERIFY(plain.waitResponse(&r));
    QCOMPARE(r.status, 400);
    QVERIFY(r.header("location").isEmpty());
    QCOMPARE(m_handler->calls, 0); // nothing reached the real handler over plain HTTP

    auto socket = connectTls(); // HTTPS itself is served
    QVERIFY(socket);
    QVERIFY(exchangeTls(*socket, "GET / HTTP/1.1\r\nHost: blog.localhost\r\n\r\n").endsWith("hello"));
    QCOMPARE(m_handler->calls, 1);
}

void TestTls::stalledHandshakeIsClosed()
{
    HttpConfig config;
    config.headerTimeoutMs = 1000; // short, yet long enough for a real handshake on a loaded machine
    start(config);
    // One client sends nothing at all, one the first bytes of a ClientHello and then nothing.
    QTcpSocket silent;
    QTcpSocket partial;
    silent.connectToHost(QHostAddress::LocalHost, m_service->httpsPort());
    partial.connectToHost(QHostAddress::LocalHost, m_service->httpsPort());
    QTRY_COMPARE(m_service->liveConnections(), 2);
    partial.write(QByteArray::fromHex("16030100c8010000c40303"));
    QElapsedTimer clock;
    clock.start();
    QTRY_COMPARE_WITH_TIMEOUT(silent.state(), QAbstractSocket::UnconnectedState, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(partial.state(), QAbstractSocket::UnconnectedState, 5000);
    QVERIFY2(clock.elapsed() >= 500, "closed at the header timeout, not at once");
    QTRY_COMPARE(m_service->liveConnections(), 0);
    QCOMPARE(m_handler->calls, 0);
    // A client that does handshake in time is served as usual.
    auto socket = connectTls();
    QVERIFY(socket);
    QVERIFY(exchangeTls(*socket, "GET / HTTP/1.1\r\nHost: a.localhost\r\n\r\n").endsWith("hello"));
}

void TestTls::handshakesCountPerAddress()
{
    HttpConfig config;
    config.maxConnectionsPerAddress = 2;
    config.headerTimeoutMs = 60000; // the stalled ones stay for the whole test
    start(config);
    QTcpSocket first;
    QTcpSocket second;
    first.connectToHost(QHostAddress::LocalHost, m_service->httpsPort());
    second.connectToHost(QHostAddress::LocalHost, m_service->httpsPort());
    QTRY_COMPARE(m_service->liveConnections(), 2);
    // The third from the same address is over the cap while the two have not handshaken: closed at once, over TLS
    // as over plain HTTP (where it gets a 503).
    QTcpSocket third;
    third.connectToHost(QHostAddress::LocalHost, m_service->httpsPort());
    QTRY_COMPARE_WITH_TIMEOUT(third.state(), QAbstractSocket::UnconnectedState, 3000);
    RawClient plain;
    QVERIFY(plain.connectTo(m_service->serverPort()));
    RawResponse r;
    QVERIFY(plain.waitResponse(&r));
    QCOMPARE(r.status, 503);
    QCOMPARE(m_service->liveConnections(), 2);
    // One of them leaves: its place is free again.
    first.abort();
    QTRY_COMPARE(m_service->liveConnections(), 1);
    auto socket = connectTls();
    QVERIFY(socket);
    QVERIFY(exchangeTls(*socket, "GET / HTTP/1.1\r\nHost: a.localhost\r\n\r\n").endsWith("hello"));
}

void TestTls::badFilesRefusedWhenLoaded()
{
    // Each refusal is BadRequest, in words that say which file is wrong and how.
    const auto refusal = [](const Result<TlsCredentials> &loaded) {
        return !loaded && loaded.error().kind == Error::Kind::BadRequest ? loaded.error().message : QString();
    };
    QString error = refusal(TlsCredentials::load(m_dir.filePath(u"missing.pem"_s), m_certs.serverKey));
    QVERIFY2(error.contains(u"Cannot read the TLS certificate file"_s), qPrintable(error));
    error = refusal(TlsCredentials::load(m_certs.serverCert, m_certs.otherKey));
    QVERIFY2(error.contains(u"does not belong to the certificate"_s), qPrintable(error));
    // The files swapped: the key file holds no certificate.
    error = refusal(TlsCredentials::load(m_certs.serverKey, m_certs.serverCert));
    QVERIFY2(error.contains(u"no PEM certificate"_s), qPrintable(error));
    error = refusal(TlsCredentials::load(m_certs.serverCert, m_certs.caCert));
    QVERIFY2(error.contains(u"no usable private key"_s), qPrintable(error));
}

// An answer that closes the connection (the client asked for it, or spoke HTTP/1.0) arrives whole before the close:
// QSslSocket says its bytes were written before it handed the encrypted ones to the socket, and a shutdown then
// would cut them off. A client offering only http/1.0 by ALPN is not told a protocol it never offered.
void TestTls::lastAnswerArrivesBeforeTheClose()
{
    start({});
    for (const QByteArray &request : {QByteArray("GET / HTTP/1.1\r\nHost: a.localhost\r\nConnection: close\r\n\r\n"),
             QByteArray("GET / HTTP/1.0\r\nHost: a.localhost\r\n\r\n")}) {
        auto socket = connectTls({QByteArrayLiteral("http/1.0")});
        QVERIFY(socket);
        socket->write(request);
        QByteArray received;
        QVERIFY(QTest::qWaitFor(
            [&] {
                received += socket->readAll();
                return socket->state() == QAbstractSocket::UnconnectedState;
            },
            5000));
        received += socket->readAll();
        QVERIFY2(received.startsWith("HTTP/1.1 200 OK\r\n"), received.constData());
        QVERIFY2(received.endsWith("\r\n\r\nhello"), received.constData());
    }
}

QTEST_GUILESS_MAIN(TestTls)
#include "tst_tls.moc"
