// TestSniCertificates, the parser's half: the ClientHello reader alone, on hellos made by hand (each field can be
// wrong on purpose) and on real ones a QSslSocket sent.
#include "clienthellobytes.h"
#include "tst_snicertificates.h"

#include <QTest>
#include <http/clienthello.h>

using namespace Qt::StringLiterals;
using namespace berth;
namespace Hello = berth::test::ClientHelloBytes;

void TestSniCertificates::readsNameAndAlpn()
{
    ClientHello hello
        = ClientHello::read(Hello::record(Hello::serverName("Alpha.Test.") + Hello::alpn({"h2", "acme-tls/1"})));
    QCOMPARE(hello.status, ClientHello::Status::Complete);
    QCOMPARE(hello.serverName, QByteArray("alpha.test")); // lower case, without the final dot
    QVERIFY(hello.offersAcmeTls);

    hello = ClientHello::read(Hello::record(Hello::alpn({"http/1.1"}) + Hello::serverName("b.example")));
    QCOMPARE(hello.serverName, QByteArray("b.example"));
    QVERIFY(!hello.offersAcmeTls);
    // No extensions at all, or none naming a server: a complete hello without a name.
    hello = ClientHello::read(Hello::record({}));
    QCOMPARE(hello.status, ClientHello::Status::Complete);
    QVERIFY(hello.serverName.isEmpty());
    hello = ClientHello::read(Hello::record(Hello::extension(10, Hello::vector16(Hello::u16(29)))));
    QCOMPARE(hello.status, ClientHello::Status::Complete);
    QVERIFY(hello.serverName.isEmpty());
    // A name no host could have is no name: the default certificate, not an error.
    for (const QByteArray &bad : {QByteArray("a..b"), QByteArray("a b"), QByteArray("ex/ample"), QByteArray(300, 'a'),
             QByteArray(64, 'a') + ".test", QByteArray("*.wild.test"), QByteArray("\xc3\xa9.test")}) {
        hello = ClientHello::read(Hello::record(Hello::serverName(bad)));
        QCOMPARE(hello.status, ClientHello::Status::Complete);
        QVERIFY2(hello.serverName.isEmpty(), bad.constData());
    }
}

void TestSniCertificates::waitsForTheWholeRecord()
{
    const QByteArray whole = Hello::record(Hello::serverName("alpha.test"));
    for (qsizetype size = 0; size < whole.size(); ++size) {
        const ClientHello hello = ClientHello::read(whole.first(size));
        QCOMPARE(hello.status, ClientHello::Status::Incomplete);
        QVERIFY(hello.needed > size && hello.needed <= whole.size()); // never asks for more than the record
    }
    QCOMPARE(ClientHello::read(whole).serverName, QByteArray("alpha.test"));
    // What follows the record (the client's next bytes) is not looked at.
    QCOMPARE(ClientHello::read(whole + QByteArray(20000, 'x')).serverName, QByteArray("alpha.test"));
}

void TestSniCertificates::refusesBrokenHellos()
{
    const auto status = [](const QByteArray &bytes) { return ClientHello::read(bytes).status; };
    const QByteArray sni = Hello::serverName("alpha.test");
    // Not TLS at all: known from the first byte.
    QCOMPARE(status("G"), ClientHello::Status::Unreadable);
    // A record over TLS's 16 KiB, or of no length, or of another major version.
    QCOMPARE(status("\x16\x03\x01\xff\xff"), ClientHello::Status::Unreadable);
    QCOMPARE(status(QByteArray("\x16\x03\x01\x00\x00", 5)), ClientHello::Status::Unreadable);
    QCOMPARE(status(QByteArray("\x16\x04\x01\x00\x10", 5)), ClientHello::Status::Unreadable);
    // A message that claims more than its record holds (a hello split over records, or a lie).
    QByteArray split = Hello::record(sni);
    split[7] = char(quint8(split[7]) + 1);
    QCOMPARE(status(split), ClientHello::Status::Unreadable);
    // Extensions whose lengths run past their end, a name list longer than its extension, trailing bytes.
    QCOMPARE(status(Hello::record(Hello::u16(0) + Hello::u16(400) + "abc")), ClientHello::Status::Unreadable);
    QCOMPARE(status(Hello::record(Hello::extension(0,
                 Hello::u16(50)
                     + QByteArray("\0\0\x03"
                                  "abc",
                         6)))),
        ClientHello::Status::Unreadable);
    const QByteArray nameList = Hello::vector16(QByteArray(1, '\0') + Hello::vector16("a.test"));
    QCOMPARE(status(Hello::record(Hello::extension(0, nameList + "x"))), ClientHello::Status::Unreadable);
    QCOMPARE(
        status(Hello::recordOf(Hello::helloFields() + Hello::vector16(sni) + "x")), ClientHello::Status::Unreadable);
    // Two server names, or two ALPN lists: no choosing between them.
    QCOMPARE(status(Hello::record(sni + Hello::serverName("other.test"))), ClientHello::Status::Unreadable);
    QCOMPARE(status(Hello::record(Hello::alpn({"h2"}) + Hello::alpn({"acme-tls/1"}))), ClientHello::Status::Unreadable);
    // An empty protocol name, an empty cipher suite list.
    QCOMPARE(status(Hello::record(Hello::extension(16, Hello::vector16(Hello::vector8({}))))),
        ClientHello::Status::Unreadable);
    QCOMPARE(status(Hello::recordOf(Hello::helloFields({}))), ClientHello::Status::Unreadable);
    // Whatever was read before the fault is dropped with it.
    const ClientHello broken = ClientHello::read(Hello::record(sni + Hello::alpn({"acme-tls/1"}) + sni));
    QVERIFY(broken.serverName.isEmpty() && !broken.offersAcmeTls);
}

void TestSniCertificates::readsRealHellos()
{
    const QByteArray named = Hello::captured(u"Alpha.test"_s, {"http/1.1", "acme-tls/1"});
    QVERIFY(!named.isEmpty());
    ClientHello hello = ClientHello::read(named);
    QCOMPARE(hello.status, ClientHello::Status::Complete);
    QCOMPARE(hello.serverName, QByteArray("alpha.test"));
    QVERIFY(hello.offersAcmeTls);
    hello = ClientHello::read(Hello::captured({}));
    QCOMPARE(hello.status, ClientHello::Status::Complete);
    QVERIFY(hello.serverName.isEmpty());
}
