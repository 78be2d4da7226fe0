// A certificate per name on the HTTPS door, on real sockets with certificates made by openssl for the test: the
// handshake gets the certificate of the name the client asks for (SNI), a wildcard's for a name one label under it,
// and the default one for other names and for clients that name none; pairs dropped into the watched folder are
// served to new connections without a restart, and a broken pair leaves the previous one in force; certificates
// installed at runtime (and ACME's TLS-ALPN-01 answers) apply to the next handshake. The hello is read by a bounded
// parser: hostile hellos (truncated, huge, trickled, with bogus lengths) cost bounded time and end in the default
// certificate or a closed connection.
#include "tst_snicertificates.h"

#include "clienthellobytes.h"
#include "common/resultassert.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QMutex>
#include <QSslSocket>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <http/httpservice.h>
#include <http/tlscertificatestore.h>
#include <http/tlscredentials.h>
#include <http/tlsdirectorywatcher.h>
#include <memory>

using namespace Qt::StringLiterals;
using namespace berth;
using namespace berth::test;
namespace Hello = berth::test::ClientHelloBytes;

namespace {

QMutex logLock;
QStringList logLines; // what the code under test logged
QtMessageHandler previousHandler = nullptr;

void captureLog(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    {
        const QMutexLocker locker(&logLock);
        logLines.append(message);
    }
    previousHandler(type, context, message);
}

bool logged(const QString &part)
{
    const QMutexLocker locker(&logLock);
    return std::any_of(logLines.cbegin(), logLines.cend(), [&](const QString &line) { return line.contains(part); });
}

} // namespace

void TestSniCertificates::initTestCase()
{
    previousHandler = qInstallMessageHandler(captureLog);
    QVERIFY(m_root.isValid());
    const QStringList names[Count] = {{u"localhost"_s}, {u"alpha.test"_s}, {u"*.beta.test"_s}, {u"gamma.test"_s}};
    for (int cert = 0; cert < Count; ++cert) {
        const QString folder = m_root.filePath(QString::number(cert));
        QVERIFY(QDir().mkpath(folder));
        QVERIFY(m_certs[cert].make(folder, names[cert]));
    }
    m_tlsDir = m_root.filePath(u"tls"_s);
}

void TestSniCertificates::cleanupTestCase()
{
    qInstallMessageHandler(previousHandler);
}

void TestSniCertificates::cleanup()
{
    m_service.reset();
    m_watcher.reset();
    m_store.reset();
    m_handler.reset();
    QDir(m_tlsDir).removeRecursively();
}

void TestSniCertificates::start(int headerTimeoutMs)
{
    QVERIFY(QDir().mkpath(m_tlsDir));
    const Result<TlsCredentials> fallback
        = TlsCredentials::load(m_certs[Default].serverCert, m_certs[Default].serverKey);
    BERTH_VERIFY_OK(fallback);
    m_store = std::make_unique<TlsCertificateStore>(fallback.value().configuration);
    m_watcher = std::make_unique<TlsDirectoryWatcher>(*m_store, m_tlsDir);
    BERTH_VERIFY_OK(m_watcher->start());
    HttpConfig config;
    config.headerTimeoutMs = headerTimeoutMs;
    m_handler = std::make_unique<TestHandler>();
    m_service = std::make_unique<HttpService>(*m_handler, config);
    m_service->setTls(*m_store, 0, false);
    BERTH_VERIFY_OK(m_service->listen(QHostAddress::LocalHost, 0));
}

void TestSniCertificates::dropPair(Cert cert, const QString &stem, const QString &keyFrom)
{
    // Written in place, key first, as a person copying a renewed pair over the old one would.
    const QDir dir(m_tlsDir);
    const auto copy = [](const QString &from, const QString &to) {
        QFile source(from);
        QFile target(to);
        return source.open(QIODevice::ReadOnly) && target.open(QIODevice::WriteOnly | QIODevice::Truncate)
            && target.write(source.readAll()) > 0;
    };
    const QString key = dir.filePath(stem + u".key"_s);
    QVERIFY(copy(keyFrom.isEmpty() ? m_certs[cert].serverKey : keyFrom, key));
    QVERIFY(QFile::setPermissions(key, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
    QVERIFY(copy(m_certs[cert].serverCert, dir.filePath(stem + u".pem"_s)));
}

QSslCertificate TestSniCertificates::served(
    const QString &sni, const QList<QByteArray> &protocols, QByteArray *negotiated)
{
    QSslSocket socket;
    QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
    configuration.setPeerVerifyMode(QSslSocket::VerifyNone); // whichever it is: the caller compares
    configuration.setAllowedNextProtocols(protocols);
    socket.setSslConfiguration(configuration);
    // To an address, a QSslSocket names no server; with a peer name, it names that one.
    socket.connectToHostEncrypted(u"127.0.0.1"_s, m_service->httpsPort(), sni.isEmpty() ? u"127.0.0.1"_s : sni);
    // The server runs on this thread: wait by running its events, never by blocking.
    const bool settled = QTest::qWaitFor(
        [&] { return socket.isEncrypted() || socket.state() == QAbstractSocket::UnconnectedState; }, 5000);
    Q_UNUSED(settled) // encrypted or not: the caller compares what it got
    if (negotiated)
        *negotiated = socket.sslConfiguration().nextNegotiatedProtocol();
    return socket.isEncrypted() ? socket.peerCertificate() : QSslCertificate();
}

bool TestSniCertificates::verifiedRequest(const QString &sni)
{
    QSslSocket socket;
    QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
    QList<QSslCertificate> authorities;
    for (const TestCertificates &certs : m_certs)
        authorities += QSslCertificate::fromPath(certs.caCert);
    configuration.setCaCertificates(authorities);
    socket.setSslConfiguration(configuration);
    socket.connectToHostEncrypted(u"127.0.0.1"_s, m_service->httpsPort(), sni);
    if (!QTest::qWaitFor(
            [&] { return socket.isEncrypted() || socket.state() == QAbstractSocket::UnconnectedState; }, 5000)
        || !socket.isEncrypted())
        return false;
    socket.write("GET / HTTP/1.1\r\nHost: " + sni.toLatin1() + "\r\n\r\n");
    QByteArray received;
    const bool complete
        = QTest::qWaitFor([&] { return (received += socket.readAll()).endsWith("\r\n\r\nhello"); }, 5000);
    Q_UNUSED(complete) // whatever arrived: compared below
    return received.startsWith("HTTP/1.1 200 OK\r\n") && m_handler->last.secure;
}

qint64 TestSniCertificates::msUntilClosed(const QByteArray &bytes)
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, m_service->httpsPort());
    if (!socket.waitForConnected(5000))
        return -1;
    QElapsedTimer clock;
    clock.start();
    socket.write(bytes);
    if (!QTest::qWaitFor([&] { return socket.state() == QAbstractSocket::UnconnectedState; }, 10000))
        return -1;
    return clock.elapsed();
}

void TestSniCertificates::picksCertificateByName()
{
    QVERIFY(QDir().mkpath(m_tlsDir));
    dropPair(Alpha, u"Alpha.Test"_s); // file names in any case: the name is lower case
    dropPair(Beta, u"_wildcard.beta.test"_s);
    start();
    QCOMPARE(m_store->names(), QStringList({u"*.beta.test"_s, u"alpha.test"_s}));

    QCOMPARE(served(u"alpha.test"_s), leaf(Alpha));
    QCOMPARE(served(u"ALPHA.test"_s), leaf(Alpha));
    QCOMPARE(served(u"www.beta.test"_s), leaf(Beta));
    QCOMPARE(served(u"beta.test"_s), leaf(Default)); // a wildcard covers one label, not its parent
    QCOMPARE(served(u"a.www.beta.test"_s), leaf(Default)); // nor two
    QCOMPARE(served(u"unknown.test"_s), leaf(Default));
    QCOMPARE(served({}), leaf(Default)); // no SNI at all
    // Real clients accept what they get, and are served over it.
    QVERIFY(verifiedRequest(u"alpha.test"_s));
    QVERIFY(verifiedRequest(u"shop.beta.test"_s));
    QVERIFY(verifiedRequest(u"localhost"_s));
    QVERIFY(!verifiedRequest(u"unknown.test"_s)); // the default names no such host: a browser refuses it
    QTRY_COMPARE(m_service->liveConnections(), 0);
}

void TestSniCertificates::newPairServedWithoutRestart()
{
    start();
    QCOMPARE(served(u"gamma.test"_s), leaf(Default));
    dropPair(Gamma, u"gamma.test"_s);
    QTRY_COMPARE(served(u"gamma.test"_s), leaf(Gamma)); // the watcher's settling time, then every new handshake
    QVERIFY(verifiedRequest(u"gamma.test"_s));

    // A connection made before a change keeps what it had; the next one gets the new pair.
    QSslSocket before;
    before.setPeerVerifyMode(QSslSocket::VerifyNone);
    before.connectToHostEncrypted(u"127.0.0.1"_s, m_service->httpsPort(), u"gamma.test"_s);
    QTRY_VERIFY(before.isEncrypted());
    dropPair(Alpha, u"gamma.test"_s); // alpha's certificate under gamma's name: replaced in place
    QTRY_COMPARE(served(u"gamma.test"_s), leaf(Alpha));
    QCOMPARE(before.peerCertificate(), leaf(Gamma));
    QVERIFY(before.isEncrypted());

    // Gone from the folder: the default certificate again.
    QVERIFY(QFile::remove(QDir(m_tlsDir).filePath(u"gamma.test.pem"_s)));
    QTRY_COMPARE(served(u"gamma.test"_s), leaf(Default));
    QVERIFY(logged(u"gamma.test is gone from --tls-dir"_s));
}

void TestSniCertificates::brokenPairKeepsThePreviousOne()
{
    QVERIFY(QDir().mkpath(m_tlsDir));
    dropPair(Alpha, u"alpha.test"_s);
    start();
    QCOMPARE(served(u"alpha.test"_s), leaf(Alpha));
    // A key that is not the certificate's: logged by name, and alpha.test keeps its certificate.
    dropPair(Gamma, u"alpha.test"_s, m_certs[Alpha].otherKey);
    QTRY_VERIFY(logged(u"the TLS certificate for alpha.test is not taken"_s));
    QVERIFY(logged(u"does not belong to the certificate"_s));
    QCOMPARE(served(u"alpha.test"_s), leaf(Alpha));
    // A new name whose certificate file is no certificate at all: logged, and it gets the default one.
    QVERIFY(QFile::copy(m_certs[Gamma].serverKey, QDir(m_tlsDir).filePath(u"delta.test.key"_s)));
    QFile junk(QDir(m_tlsDir).filePath(u"delta.test.pem"_s));
    QVERIFY(junk.open(QIODevice::WriteOnly));
    junk.write("-----BEGIN CERTIFICATE-----\nnot base64 at all\n");
    junk.close();
    QTRY_VERIFY(logged(u"the TLS certificate for delta.test is not taken"_s));
    QCOMPARE(served(u"delta.test"_s), leaf(Default));
    // A certificate without a key (a CA's file) is no pair: passed over without a word.
    QVERIFY(QFile::copy(m_certs[Gamma].caCert, QDir(m_tlsDir).filePath(u"ca.pem"_s)));
    // Its key gone, a name keeps the certificate it was served with.
    QVERIFY(QFile::remove(QDir(m_tlsDir).filePath(u"alpha.test.key"_s)));
    QTRY_VERIFY(logged(u"alpha.test has no key file"_s));
    QCOMPARE(served(u"alpha.test"_s), leaf(Alpha));
    // A key other users can read is taken, with a warning.
    dropPair(Gamma, u"gamma.test"_s);
    QVERIFY(QFile::setPermissions(QDir(m_tlsDir).filePath(u"gamma.test.key"_s),
        QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadOther));
    QTRY_COMPARE(served(u"gamma.test"_s), leaf(Gamma));
    QTRY_VERIFY(logged(u"gamma.test.key can be read by other users"_s));
    // Fixed: the pair is taken at once.
    dropPair(Gamma, u"alpha.test"_s);
    QTRY_COMPARE(served(u"alpha.test"_s), leaf(Gamma));
    QVERIFY(!logged(u"certificate for ca "_s)); // the lone CA file, never a pair
    // No key ever reaches the log.
    const QMutexLocker locker(&logLock);
    for (const QString &line : std::as_const(logLines))
        QVERIFY2(!line.contains(u"PRIVATE KEY"_s), qPrintable(line));
}

void TestSniCertificates::installedAtRuntime()
{
    start();
    const auto pem = [](const QString &path) {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    };
    const Result<TlsCredentials> gamma
        = TlsCredentials::fromPem(pem(m_certs[Gamma].serverCert), pem(m_certs[Gamma].serverKey));
    BERTH_VERIFY_OK(gamma);
    const Result<TlsCredentials> mismatched
        = TlsCredentials::fromPem(pem(m_certs[Gamma].serverCert), pem(m_certs[Gamma].otherKey));
    QVERIFY(!mismatched && mismatched.error().message.contains(u"does not belong"_s));

    const std::shared_ptr<const TlsCertificateSet> before = m_store->snapshot();
    BERTH_VERIFY_OK(m_store->install(u"Gamma.Test"_s, gamma.value()));
    QCOMPARE(served(u"gamma.test"_s), leaf(Gamma)); // the very next handshake
    QVERIFY(before->byName.isEmpty()); // a snapshot taken before never changes under its reader
    for (const QString &bad : {u"gamma test"_s, u""_s, u"*"_s, u"a.*.test"_s, u"gämma.test"_s})
        QCOMPARE(m_store->install(bad, gamma.value()).error().kind, Error::Kind::BadRequest);
    m_store->remove(u"gamma.test"_s);
    QCOMPARE(served(u"gamma.test"_s), leaf(Default));
    // A new default applies to every name without its own.
    m_store->setFallback(gamma.value());
    QCOMPARE(served(u"unknown.test"_s), leaf(Gamma));
}

void TestSniCertificates::acmeChallengeByAlpn()
{
    QVERIFY(QDir().mkpath(m_tlsDir));
    dropPair(Alpha, u"alpha.test"_s);
    start();
    const Result<TlsCredentials> challenge = TlsCredentials::load(m_certs[Gamma].serverCert, m_certs[Gamma].serverKey);
    BERTH_VERIFY_OK(challenge);
    BERTH_VERIFY_OK(m_store->installChallenge(u"alpha.test"_s, challenge.value()));
    // An ACME server offers acme-tls/1 alone and gets the challenge certificate with that protocol.
    QByteArray negotiated;
    QCOMPARE(served(u"alpha.test"_s, {"acme-tls/1"}, &negotiated), leaf(Gamma));
    QCOMPARE(negotiated, QByteArray("acme-tls/1"));
    // Visitors, and the same offer for another name, are not affected.
    QCOMPARE(served(u"alpha.test"_s, {"h2", "http/1.1"}, &negotiated), leaf(Alpha));
    QCOMPARE(negotiated, QByteArray("http/1.1"));
    QCOMPARE(served(u"other.test"_s, {"acme-tls/1", "http/1.1"}), leaf(Default));
    m_store->removeChallenge(u"alpha.test"_s);
    QCOMPARE(served(u"alpha.test"_s, {"acme-tls/1", "http/1.1"}, &negotiated), leaf(Alpha));
    QCOMPARE(negotiated, QByteArray("http/1.1"));
}

void TestSniCertificates::trickledHelloIsServed()
{
    QVERIFY(QDir().mkpath(m_tlsDir));
    dropPair(Alpha, u"alpha.test"_s);
    start();
    // A relay between a real client and the door hands the client's bytes over one at a time: the hello arrives in
    // hundreds of pieces, and its name is still read.
    QTcpServer relay;
    QVERIFY(relay.listen(QHostAddress::LocalHost));
    QSslSocket client;
    client.setPeerVerifyMode(QSslSocket::VerifyNone);
    client.connectToHostEncrypted(u"127.0.0.1"_s, relay.serverPort(), u"alpha.test"_s);
    QTRY_VERIFY(relay.hasPendingConnections());
    std::unique_ptr<QTcpSocket> near(relay.nextPendingConnection());
    QTcpSocket far;
    far.connectToHost(QHostAddress::LocalHost, m_service->httpsPort());
    QTRY_COMPARE(far.state(), QAbstractSocket::ConnectedState);
    far.setSocketOption(QAbstractSocket::LowDelayOption, 1);
    int pieces = 0;
    QElapsedTimer clock;
    clock.start();
    while (!client.isEncrypted() && client.state() == QAbstractSocket::ConnectedState && clock.elapsed() < 4000) {
        QCoreApplication::processEvents(); // the door runs on this thread too
        if (near->bytesAvailable() > 0) {
            far.write(near->read(1));
            far.flush();
            ++pieces;
        }
        if (far.bytesAvailable() > 0)
            near->write(far.readAll());
    }
    QVERIFY2(pieces > 100, qPrintable(QString::number(pieces)));
    QCOMPARE(client.peerCertificate(), leaf(Alpha));
}

void TestSniCertificates::hostileHellosCostBoundedTime()
{
    start(1000);
    // Refused as soon as they are seen, far within the header timeout: not TLS, a record over 16 KiB, bogus
    // lengths, two names, and 1 MiB of noise behind a maximal record's header.
    const QByteArray noise = QByteArray("\x16\x03\x01\x40\x00\x01\xff\xff\xff", 9) + QByteArray(1 << 20, '\x5a');
    const QList<QByteArray> refused {"GET / HTTP/1.1\r\nHost: a\r\n\r\n", QByteArray("\x16\x03\x01\xff\xff", 5) + "x",
        Hello::record(Hello::u16(0) + Hello::u16(400) + "abc"), noise,
        Hello::record(Hello::serverName("alpha.test") + Hello::serverName("beta.test"))};
    for (const QByteArray &bytes : refused) {
        const qint64 ms = msUntilClosed(bytes);
        QVERIFY2(ms >= 0 && ms < 900, qPrintable(QString::number(ms)));
    }
    // A hello cut short, one announced and never sent, and one that claims more than its record (the rest never
    // comes): closed at the header timeout, not before.
    QByteArray overlong = Hello::record(Hello::serverName("alpha.test"));
    overlong[7] = char(quint8(overlong[7]) + 1);
    for (const QByteArray &bytes : {Hello::record(Hello::serverName("alpha.test")).first(40),
             QByteArray("\x16\x03\x01\x00\xc8", 5), QByteArray("\x16", 1), overlong}) {
        const qint64 ms = msUntilClosed(bytes);
        QVERIFY2(ms >= 900 && ms < 5000, qPrintable(QString::number(ms)));
    }
    QTRY_COMPARE(m_service->liveConnections(), 0);
    QCOMPARE(m_handler->calls, 0);
    // The door serves on as before.
    QVERIFY(verifiedRequest(u"localhost"_s));
}

QTEST_GUILESS_MAIN(TestSniCertificates)
