#pragma once

#include "common/testcertificates.h"
#include "testhandler.h"

#include <QList>
#include <QObject>
#include <QSslCertificate>
#include <QTemporaryDir>
#include <http/httpservice.h>
#include <http/tlscertificatestore.h>
#include <http/tlsdirectorywatcher.h>
#include <memory>

// The SNI suite's class: its hello parser tests are in snicertificatesparser.cpp, the handshakes in
// tst_snicertificates.cpp.
class TestSniCertificates final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void cleanup();

    // The parser alone.
    void readsNameAndAlpn();
    void waitsForTheWholeRecord();
    void refusesBrokenHellos();
    void readsRealHellos();

    // Handshakes.
    void picksCertificateByName();
    void newPairServedWithoutRestart();
    void brokenPairKeepsThePreviousOne();
    void installedAtRuntime();
    void acmeChallengeByAlpn();
    void trickledHelloIsServed();
    void hostileHellosCostBoundedTime();

private:
    enum Cert
    {
        Default,
        Alpha, // alpha.test
        Beta, // *.beta.test
        Gamma, // gamma.test
        Count
    };
    void start(int headerTimeoutMs = 5000);
    QSslCertificate leaf(Cert cert) const { return QSslCertificate::fromPath(m_certs[cert].serverCert).value(0); }
    void dropPair(Cert cert, const QString &stem, const QString &keyFrom = {});
    // The certificate the door presents to a client asking for sni ("": none); null without a handshake.
    QSslCertificate served(
        const QString &sni, const QList<QByteArray> &protocols = {}, QByteArray *negotiated = nullptr);
    // A client that checks the certificate as browsers do (the test CAs trusted, the name verified) is served.
    bool verifiedRequest(const QString &sni);
    // Milliseconds until the door closes a raw connection that sent these bytes; -1 when it does not in 10 s.
    qint64 msUntilClosed(const QByteArray &bytes);

    QTemporaryDir m_root;
    QString m_tlsDir;
    berth::test::TestCertificates m_certs[Count];
    std::unique_ptr<berth::TlsCertificateStore> m_store;
    std::unique_ptr<berth::TlsDirectoryWatcher> m_watcher;
    std::unique_ptr<berth::test::TestHandler> m_handler;
    std::unique_ptr<berth::HttpService> m_service;
};
