// berthd serve with --tls-cert/--tls-key: a test CA and a server certificate made with openssl, curl --cacert over
// HTTPS to the API (a deploy with a body) and to the sites, the announced addresses in https, the access cookie of a
// private site marked Secure over HTTPS only, --https-redirect answering 308 on the plain port, a certificate of
// its own for a name in --tls-dir (curl --resolve), and bad files or options refused at startup in words.
#include "berthdprocess.h"
#include "testcertificates.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::BerthdProcess;
using berth::test::TestCertificates;

namespace {

struct CurlResult
{
    int exitCode = -1;
    QByteArray headers; // lower-cased
    QByteArray body;
    int status = 0;
};

} // namespace

class TestBerthdHttps : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    TestCertificates m_certs;
    QByteArray m_key;

    static quint16 httpsPortOf(const BerthdProcess &server)
    {
        return quint16(QRegularExpression(u"HTTPS on port (\\d+)"_s)
                           .match(QString::fromUtf8(server.output()))
                           .captured(1)
                           .toUInt());
    }
    // curl with the test CA as the only trusted one; extra: more curl arguments.
    CurlResult curl(const QString &url, const QStringList &extra = {})
    {
        QProcess process;
        process.start(u"curl"_s,
            QStringList {u"-sS"_s, u"-D"_s, u"-"_s, u"--max-time"_s, u"20"_s, u"--cacert"_s, m_certs.caCert} + extra
                + QStringList {url});
        CurlResult result;
        if (!process.waitForFinished(30000))
            return result;
        result.exitCode = process.exitCode();
        const QByteArray out = process.readAllStandardOutput();
        // The last header block (after any redirect followed) and its body.
        qsizetype start = 0;
        qsizetype end = out.indexOf("\r\n\r\n");
        while (end >= 0 && out.mid(end + 4).startsWith("HTTP/")) {
            start = end + 4;
            end = out.indexOf("\r\n\r\n", start);
        }
        result.headers = out.mid(start, end - start).toLower();
        result.body = end < 0 ? QByteArray() : out.mid(end + 4);
        result.status = result.headers.mid(9, 3).toInt();
        if (result.exitCode != 0)
            qWarning("curl %s: %s", qPrintable(url), process.readAllStandardError().constData());
        return result;
    }
    QJsonObject deploy(quint16 httpsPort, const QByteArray &json)
    {
        const CurlResult result = curl(u"https://localhost:%1/deploy"_s.arg(httpsPort),
            {u"-H"_s, u"Authorization: Bearer "_s + QString::fromLatin1(m_key), u"-H"_s,
                u"Content-Type: application/json"_s, u"--data-binary"_s, QString::fromUtf8(json)});
        return QJsonDocument::fromJson(result.body).object();
    }
    std::unique_ptr<BerthdProcess> startServer(const QString &dataDir, const QStringList &extra)
    {
        auto server = std::make_unique<BerthdProcess>(dataDir);
        server->setExtraArguments(QStringList {u"--tls-cert"_s, m_certs.serverCert, u"--tls-key"_s, m_certs.serverKey,
                                      u"--https-port"_s, u"0"_s}
            + extra);
        if (!server->start())
            return nullptr;
        return server;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        // The wildcard for every site, and the names this test uses spelled out as well (tools differ on whether
        // a wildcard may stand directly under "localhost").
        QVERIFY(m_certs.make(m_dir.path(),
            {u"localhost"_s, u"*.localhost"_s, u"tls-site.localhost"_s, u"tls-secret.localhost"_s,
                u"moved.localhost"_s}));
        const auto key = BerthdProcess::run({u"key"_s, u"create"_s, u"--data-dir"_s, m_dir.filePath(u"data"_s)});
        QCOMPARE(key.exitCode, 0);
        m_key = key.out.trimmed();
    }

    void apiAndSitesOverHttps()
    {
        auto server = startServer(m_dir.filePath(u"data"_s), {});
        QVERIFY(server);
        const quint16 https = httpsPortOf(*server);
        QVERIFY(https != 0 && https != server->port());
        QVERIFY2(server->output().contains("API:   https://localhost:" + QByteArray::number(https)),
            server->output().constData());

        const QJsonObject site = deploy(https, R"({"html": "<h1>secure</h1>", "slug": "tls-site"})");
        QCOMPARE(site.value(u"url"_s).toString(), u"https://tls-site.localhost:%1"_s.arg(https));
        const CurlResult page = curl(site.value(u"url"_s).toString() + u'/');
        QCOMPARE(page.exitCode, 0);
        QCOMPARE(page.status, 200);
        QVERIFY(page.body.contains("<h1>secure</h1>"));
        const CurlResult list = curl(u"https://localhost:%1/deploys"_s.arg(https),
            {u"-H"_s, u"Authorization: Bearer "_s + QString::fromLatin1(m_key)});
        QCOMPARE(list.status, 200);
        QVERIFY(list.body.contains("tls-site"));
        // Plain HTTP still answers on its port (no --https-redirect).
        const CurlResult plain = curl(u"http://tls-site.localhost:%1/"_s.arg(server->port()));
        QCOMPARE(plain.status, 200);

        // A private site: the share link sets the access cookie, Secure over HTTPS, not over plain HTTP (where a
        // browser would drop a Secure cookie and loop at the gate).
        const QJsonObject secret = deploy(https, R"({"html": "<p>secret</p>", "slug": "tls-secret", "protect": true})");
        const QString share = secret.value(u"share_url"_s).toString();
        QVERIFY2(share.startsWith(u"https://tls-secret.localhost:%1/?_token="_s.arg(https)), qPrintable(share));
        const CurlResult viaHttps = curl(share);
        QCOMPARE(viaHttps.status, 302);
        const QByteArray cookie = QRegularExpression(u"set-cookie: ([^\r\n]*)"_s)
                                      .match(QString::fromLatin1(viaHttps.headers))
                                      .captured(1)
                                      .toLatin1();
        QVERIFY2(cookie.contains("; secure") && cookie.contains("; httponly"), viaHttps.headers.constData());
        const QString plainShare = QString(share)
                                       .replace(u"https://"_s, u"http://"_s)
                                       .replace(u":%1/"_s.arg(https), u":%1/"_s.arg(server->port()));
        const CurlResult viaHttp = curl(plainShare);
        QCOMPARE(viaHttp.status, 302);
        QVERIFY(viaHttp.headers.contains("set-cookie: "));
        QVERIFY2(!viaHttp.headers.contains("; secure"), viaHttp.headers.constData());
    }

    void plainHttpRedirects()
    {
        auto server = startServer(m_dir.filePath(u"data2"_s), {u"--https-redirect"_s});
        QVERIFY(server);
        const quint16 https = httpsPortOf(*server);
        QVERIFY(server->output().contains("HTTP redirects to it"));
        const CurlResult moved = curl(u"http://moved.localhost:%1/a/b?c=1"_s.arg(server->port()));
        QCOMPARE(moved.status, 308);
        QVERIFY2(moved.headers.contains("location: https://moved.localhost:" + QByteArray::number(https) + "/a/b?c=1"),
            moved.headers.constData());
        // Followed, it lands on HTTPS (a site that does not exist: its 404 page, served over TLS).
        const CurlResult followed = curl(u"http://moved.localhost:%1/"_s.arg(server->port()), {u"-L"_s});
        QCOMPARE(followed.exitCode, 0);
        QCOMPARE(followed.status, 404);
    }

    void certificatePerNameFromFolder()
    {
        // Another authority's certificate for docs.example.test in --tls-dir: curl trusting that authority alone
        // is served for that name; for any other name it is refused, and the --tls-cert authority is trusted.
        const QString docsFolder = m_dir.filePath(u"docs-certs"_s);
        const QString tlsDir = m_dir.filePath(u"tls"_s);
        QVERIFY(QDir().mkpath(docsFolder) && QDir().mkpath(tlsDir));
        TestCertificates docs;
        QVERIFY(docs.make(docsFolder, {u"docs.example.test"_s}));
        QVERIFY(QFile::copy(docs.serverKey, tlsDir + u"/docs.example.test.key"_s));
        QVERIFY(QFile::copy(docs.serverCert, tlsDir + u"/docs.example.test.pem"_s));
        auto server = startServer(m_dir.filePath(u"data4"_s), {u"--tls-dir"_s, tlsDir});
        QVERIFY(server);
        const quint16 https = httpsPortOf(*server);
        const auto fetch = [&](const QString &name, const QString &authority) {
            return curl(u"https://%1:%2/"_s.arg(name).arg(https),
                {u"--resolve"_s, u"%1:%2:127.0.0.1"_s.arg(name).arg(https), u"--cacert"_s, authority});
        };
        const CurlResult own = fetch(u"docs.example.test"_s, docs.caCert);
        QCOMPARE(own.exitCode, 0);
        QCOMPARE(own.status, 421); // served over its certificate; no site has the name
        QCOMPARE(fetch(u"docs.example.test"_s, m_certs.caCert).exitCode, 60); // not the default certificate
        QCOMPARE(fetch(u"tls-site.localhost"_s, docs.caCert).exitCode, 60);
        QCOMPARE(fetch(u"tls-site.localhost"_s, m_certs.caCert).status, 404); // the default one for other names
    }

    void badFilesAndOptionsRefused()
    {
        auto run = [this](const QStringList &options) {
            return BerthdProcess::run(
                QStringList {u"serve"_s, u"--listen"_s, u"127.0.0.1:0"_s, u"--data-dir"_s, m_dir.filePath(u"data3"_s)}
                + options);
        };
        auto outcome = run({u"--tls-cert"_s, m_certs.serverCert, u"--tls-key"_s, m_certs.otherKey});
        QCOMPARE(outcome.exitCode, 1);
        QVERIFY2(outcome.err.contains("does not belong to the certificate"), outcome.err.constData());
        outcome = run({u"--tls-cert"_s, m_dir.filePath(u"nothing.pem"_s), u"--tls-key"_s, m_certs.serverKey});
        QCOMPARE(outcome.exitCode, 1);
        QVERIFY2(outcome.err.contains("Cannot read the TLS certificate file"), outcome.err.constData());
        outcome = run({u"--tls-cert"_s, m_certs.serverCert});
        QCOMPARE(outcome.exitCode, 2);
        QVERIFY(outcome.err.contains("--tls-cert and --tls-key go together"));
        outcome = run({u"--https-redirect"_s});
        QCOMPARE(outcome.exitCode, 2);
        outcome = run({u"--tls-dir"_s, m_dir.path()});
        QCOMPARE(outcome.exitCode, 2);
        QVERIFY2(outcome.err.contains("--tls-dir need --tls-cert and --tls-key"), outcome.err.constData());
        outcome = run({u"--tls-cert"_s, m_certs.serverCert, u"--tls-key"_s, m_certs.serverKey, u"--tls-dir"_s,
            m_dir.filePath(u"no-such-folder"_s)});
        QCOMPARE(outcome.exitCode, 1);
        QVERIFY2(outcome.err.contains("is not a folder Berth can read"), outcome.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestBerthdHttps)
#include "tst_berthdhttps.moc"
