// HTTPS on the LAN: with --tls-cert/--tls-key and LAN sharing on, the LAN addresses take HTTPS on the
// HTTPS port, each site's own port speaks HTTPS, and every LAN address Berth gives out is an https:// one. The LAN
// is stood in for by a second loopback address (127.0.0.2), and the certificate is made by the test with openssl
// (a local CA, as docs/configuration.md describes), so nothing leaves the machine.
#include "deviceget.h"
#include "enginefixture.h"
#include "lan/lanservice.h"
#include "testcertificates.h"

#include <QtTest>

using namespace Qt::StringLiterals;
using namespace berth;

namespace {
// A GET as a device on the LAN sends it, trusting caCert (empty: only the system's authorities).
using Reply = test::DeviceReply;

Reply get(const QString &url, const QString &caCert, const QByteArray &host = {})
{
    return test::deviceGet(QUrl(url), host, caCert);
}

// Ports of this run's own, below the ephemeral range (no client socket in TIME_WAIT holds them) and apart from
// tst_lansharing's: the plain port, the HTTPS port, then 20 site ports.
quint16 basePort()
{
    return quint16(10000 + (QCoreApplication::applicationPid() % 400) * 24);
}
} // namespace

class TestLanHttps : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    test::TestCertificates m_certs;
    test::EngineFixture m_fixture;
    EngineSettings m_settings;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_certs.make(m_dir.path(), {u"tls-notes.local"_s, u"berth.local"_s, u"127.0.0.2"_s}));
        EngineSettings settings;
        settings.listenPort = basePort();
        settings.tlsCertFile = m_certs.serverCert;
        settings.tlsKeyFile = m_certs.serverKey;
        settings.httpsPort = basePort() + 1;
        settings.lanTestAddresses = {QHostAddress(u"127.0.0.2"_s)};
        settings.sitePortFirst = basePort() + 2;
        settings.sitePortLast = basePort() + 21;
        settings.lanSharing = true;
        m_settings = settings;
        QVERIFY(m_fixture.start(settings));
    }

    void theLanSpeaksHttps()
    {
        const QString id = m_fixture.deploySite(m_fixture.ownerKey(), u"tls-notes"_s, u"NOTES"_s);
        QVERIFY(!id.isEmpty());
        const LanService &lan = m_fixture.engine().lan();
        QVERIFY(lan.isEnabled());
        QVERIFY(lan.isHttps());
        const quint16 plain = basePort();
        const quint16 https = basePort() + 1;
        const quint16 sitePort = basePort() + 2;
        QCOMPARE(lan.httpsPort(), https);

        // Every address given out is an https:// one; the best (for a QR code) is the site's own port.
        QCOMPARE(lan.bestSiteUrl(id), u"https://127.0.0.2:%1/"_s.arg(sitePort));
        QCOMPARE(lan.siteUrls(id),
            QStringList({u"https://tls-notes.local:%1/"_s.arg(https), u"https://127.0.0.2:%1/"_s.arg(sitePort)}));
        QCOMPARE(lan.apiUrls(),
            QStringList({u"https://berth.local:%1/"_s.arg(https), u"https://127.0.0.2:%1/"_s.arg(https)}));

        // And they work, verified against the test's CA: the site's own port, the site by its .local name on the
        // HTTPS port, the API on the HTTPS port (which wants a key).
        const Reply own = get(lan.bestSiteUrl(id), m_certs.caCert);
        QVERIFY2(own.status == 200, qPrintable(own.error));
        QCOMPARE(own.body, QByteArray("NOTES"));
        const Reply byName = get(
            u"https://127.0.0.2:%1/"_s.arg(https), m_certs.caCert, "tls-notes.local:" + QByteArray::number(https));
        QVERIFY2(byName.status == 200, qPrintable(byName.error));
        QCOMPARE(byName.body, QByteArray("NOTES"));
        QCOMPARE(get(u"https://127.0.0.2:%1/deploys"_s.arg(https), m_certs.caCert).status, 401);

        // Really TLS: a device that does not trust the CA gets no answer, and the site's own port speaks no plain
        // HTTP. The plain port of the LAN address goes on serving plain HTTP, as on loopback.
        QCOMPARE(get(lan.bestSiteUrl(id), QString()).status, 0);
        QCOMPARE(get(u"http://127.0.0.2:%1/"_s.arg(sitePort), QString()).status, 0);
        const Reply plainByName
            = get(u"http://127.0.0.2:%1/"_s.arg(plain), QString(), "tls-notes.local:" + QByteArray::number(plain));
        QCOMPARE(plainByName.status, 200);
        QCOMPARE(plainByName.body, QByteArray("NOTES"));
    }

    // With --https-redirect the LAN's plain port redirects to HTTPS like the loopback one: nothing, not an API key
    // either, crosses the network in the clear.
    void withRedirectThePlainLanPortRedirects()
    {
        m_fixture.stop();
        EngineSettings settings = m_settings;
        settings.httpsRedirect = true;
        QVERIFY(m_fixture.start(settings)); // the same data: tls-notes is still there, on the same port
        const quint16 plain = basePort();
        const quint16 https = basePort() + 1;
        const QByteArray host = "tls-notes.local:" + QByteArray::number(plain);
        const Reply redirected = get(u"http://127.0.0.2:%1/page?x=1"_s.arg(plain), QString(), host);
        QCOMPARE(redirected.status, 308);
        QCOMPARE(redirected.location, "https://tls-notes.local:" + QByteArray::number(https) + "/page?x=1");
        const Reply followed = get(
            u"https://127.0.0.2:%1/"_s.arg(https), m_certs.caCert, "tls-notes.local:" + QByteArray::number(https));
        QCOMPARE(followed.status, 200);
        QCOMPARE(followed.body, QByteArray("NOTES"));
        const Reply own = get(u"https://127.0.0.2:%1/"_s.arg(basePort() + 2), m_certs.caCert);
        QCOMPARE(own.body, QByteArray("NOTES"));
    }

    void offClosesTheHttpsDoorsToo()
    {
        LanService &lan = m_fixture.engine().lan();
        lan.setEnabled(false);
        QCOMPARE(get(u"https://127.0.0.2:%1/deploys"_s.arg(basePort() + 1), m_certs.caCert).status, 0);
        QCOMPARE(get(u"https://127.0.0.2:%1/"_s.arg(basePort() + 2), m_certs.caCert).status, 0);
        QVERIFY(lan.apiUrls().isEmpty());
    }
};

QTEST_MAIN(TestLanHttps)
#include "tst_lanhttps.moc"
