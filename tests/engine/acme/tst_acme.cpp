// Certificates by ACME against Debian's pebble, a real ACME server, on loopback: issuance, renewal on the injected
// clock, failures retried with backoff, an interrupted order, challenge answers only for Berth's own tokens, and HTTPS
// served by ACME alone (no --tls-cert): each name its own certificate, a failed handshake for the others.
#include "berthdprocess.h"
#include "certificatecheck.h"
#include "domain/acme/acmekey.h"
#include "domain/acme/acmemanager.h"
#include "enginefixture.h"
#include "pebbleserver.h"
#include "testcertificates.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QSignalSpy>
#include <QSslCertificate>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;
using namespace berth::test;

namespace {

using State = CertificateStatus::State;

// A Berth engine with ACME on a manual clock, and pebble whose validator connects to Berth's plain-HTTP port.
struct AcmeRig
{
    QTemporaryDir pebbleDir;
    PebbleServer pebble {pebbleDir.path()};
    EngineFixture fixture;

    QTemporaryDir tlsDir;
    QString tlsCert; // with both: HTTPS on, this certificate for names without one of their own
    QString tlsKey;
    bool httpsRedirect = false;
    QString challenge = u"http-01"_s;
    EngineSettings settings; // the test's own besides ACME's, ports and TLS

    bool start(int certificateSeconds = kCertificateSeconds, int nonceReject = 0)
    {
        settings.tlsCertFile = tlsCert;
        settings.tlsKeyFile = tlsKey;
        settings.httpsPort = pebble.berthHttpsPort();
        settings.httpsRedirect = httpsRedirect;
        const bool apiAndSiteNames = settings.acme.apiAndSiteNames;
        settings.acme = pebble.berthSettings();
        settings.acme.apiAndSiteNames = apiAndSiteNames;
        settings.acme.challenge = challenge;
        settings.listenPort = pebble.berthPort(); // kept across restarts: pebble validates there
        // pebble first: names known at the engine's start are ordered at once.
        return pebble.start(certificateSeconds, nonceReject)
            && fixture.startWithClock(QDateTime::currentDateTimeUtc(), settings);
    }
    // HTTPS on, with a certificate of the test's own for names that have none.
    bool serveHttps()
    {
        TestCertificates fallback;
        if (!fallback.make(tlsDir.path(), {u"localhost"_s}))
            return false;
        tlsCert = fallback.serverCert;
        tlsKey = fallback.serverKey;
        return true;
    }
    AcmeManager &acme() { return *fixture.engine().acme(); }
    State state(const QString &name = kName) { return acme().status(name).state; }
    QString file(const QString &name) const { return fixture.dataDir() + u"/certificates/"_s + name; }
    QByteArray read(const QString &name) const { return readFile(file(name)); }
    // Pebble's root in a file: what curl trusts, and nothing else.
    QString rootFile() const
    {
        const QString path = pebbleDir.filePath(u"pebble-root.pem"_s);
        return writeFile(path, pebble.rootPem()) ? path : QString();
    }
    QSslCertificate leaf(const QString &name = kName) const
    {
        const auto chain = QSslCertificate::fromData(read(name + u".pem"_s));
        return chain.isEmpty() ? QSslCertificate() : chain.first();
    }
};

} // namespace

class TestAcme : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        if (!PebbleServer::installed())
            QSKIP("pebble and pebble-challtestsrv (Debian's pebble package) are not installed");
    }

    void issuesACertificateFromPebblesRoot()
    {
        AcmeRig rig;
        QVERIFY(rig.start());
        QCOMPARE(rig.state(), State::None); // nothing asked for a name yet
        QSignalSpy ready(&rig.acme(), &AcmeManager::certificateReady);
        rig.acme().setNames({kName});
        QTRY_COMPARE_WITH_TIMEOUT(rig.state(), State::Active, kIssueTimeoutMs);

        const QByteArray chain = rig.read(kName + u".pem"_s);
        QVERIFY(verifiesAgainst(chain, rig.pebble.rootPem(), rig.pebbleDir.path()));
        QVERIFY(rig.leaf().subjectAlternativeNames().values(QSsl::DnsEntry).contains(kName));
        QCOMPARE(rig.acme().status(kName).expiresAt, rig.leaf().expiryDate().toUTC());
        QVERIFY(rig.acme().status(kName).error.isEmpty());
        QCOMPARE(ready.size(), 1);
        QCOMPARE(ready.first().at(0).toString(), kName);
        QCOMPARE(ready.first().at(1).toByteArray(), chain);
        QCOMPARE(ready.first().at(2).toByteArray(), rig.read(kName + u".key"_s));

        // The keys are the owner's alone, in a folder that is the owner's alone.
        const auto ownerOnly = QFile::ReadOwner | QFile::WriteOwner;
        const auto others = QFile::ReadGroup | QFile::WriteGroup | QFile::ReadOther | QFile::WriteOther;
        QCOMPARE(QFile::permissions(rig.file(kName + u".key"_s)) & (ownerOnly | others), ownerOnly);
        QCOMPARE(QFile::permissions(rig.file(u"account.key"_s)) & (ownerOnly | others), ownerOnly);
        const auto folderForOthers = QFile::permissions(rig.fixture.dataDir() + u"/certificates"_s)
            & (others | QFile::ExeGroup | QFile::ExeOther);
        QCOMPARE(folderForOthers, QFile::Permissions());
    }

    void renewsTwoThirdsIntoTheCertificatesLife()
    {
        AcmeRig rig;
        QVERIFY(rig.start());
        rig.acme().setNames({kName});
        QTRY_COMPARE_WITH_TIMEOUT(rig.state(), State::Active, kIssueTimeoutMs);
        const QSslCertificate first = rig.leaf();
        const qint64 life = first.effectiveDate().secsTo(first.expiryDate());
        QVERIFY2(life > 0 && life <= kCertificateSeconds + 60, qPrintable(QString::number(life)));
        const QDateTime renewal = first.effectiveDate().toUTC().addSecs(life * 2 / 3);

        rig.fixture.clock().set(renewal.addSecs(-5));
        rig.acme().check();
        QCOMPARE(rig.state(), State::Active); // not yet: no order started
        QCOMPARE(rig.leaf(), first);

        rig.fixture.clock().set(renewal.addSecs(5));
        rig.acme().check();
        QCOMPARE(rig.state(), State::Pending);
        QTRY_COMPARE_WITH_TIMEOUT(rig.state(), State::Active, kIssueTimeoutMs);
        QVERIFY(rig.leaf() != first);
        QVERIFY(rig.leaf().serialNumber() != first.serialNumber());
        QCOMPARE(rig.acme().status(kName).expiresAt, rig.leaf().expiryDate().toUTC());
    }

    void aFailedChallengeIsReportedAndRetriedWithBackoff()
    {
        AcmeRig rig;
        QVERIFY(rig.start());
        const QString broken = u"broken.example.test"_s;
        QVERIFY(rig.pebble.pointAt(broken, u"127.0.0.9"_s)); // nothing listens there: validation fails
        rig.acme().setNames({broken});
        QTRY_COMPARE_WITH_TIMEOUT(rig.state(broken), State::Failed, kIssueTimeoutMs);
        CertificateStatus status = rig.acme().status(broken);
        QVERIFY2(status.error.contains(u"validation"_s), qPrintable(status.error));
        QVERIFY(!status.error.contains(rig.fixture.dataDir())); // no server paths
        QCOMPARE(status.nextAttemptAt, rig.fixture.clock().now().addSecs(60));
        QVERIFY(!QFile::exists(rig.file(broken + u".pem"_s)));

        rig.fixture.clock().advance(59 * 1000);
        rig.acme().check();
        QCOMPARE(rig.state(broken), State::Failed); // still waiting: no new order
        QCOMPARE(rig.acme().status(broken).nextAttemptAt, status.nextAttemptAt);

        rig.fixture.clock().advance(2 * 1000);
        rig.acme().check();
        QCOMPARE(rig.state(broken), State::Pending);
        QTRY_COMPARE_WITH_TIMEOUT(rig.state(broken), State::Failed, kIssueTimeoutMs);
        QCOMPARE(rig.acme().status(broken).nextAttemptAt, rig.fixture.clock().now().addSecs(120)); // doubled

        // Once the name reaches Berth, the next retry gets the certificate.
        QVERIFY(rig.pebble.pointAt(broken, u"127.0.0.1"_s));
        rig.fixture.clock().advance(121 * 1000);
        rig.acme().check();
        QTRY_COMPARE_WITH_TIMEOUT(rig.state(broken), State::Active, kIssueTimeoutMs);
        QVERIFY(rig.acme().status(broken).error.isEmpty());
    }

    void anInterruptedOrderLeavesNoPartialFileAndARestartCompletesIt()
    {
        AcmeRig rig;
        QVERIFY(rig.start());
        rig.acme().setNames({kName});
        QCOMPARE(rig.state(), State::Pending);
        QTRY_COMPARE_WITH_TIMEOUT(rig.acme().challenges().size(), 1, kIssueTimeoutMs); // the challenge is answered
        rig.fixture.stop(); // the engine goes in the middle of the order

        // Only whole files: the account key, if written, is a key; nothing for the name; no temporary files.
        const QStringList left = QDir(rig.fixture.dataDir() + u"/certificates"_s).entryList(QDir::Files);
        QVERIFY2(left.isEmpty() || left == QStringList {u"account.key"_s}, qPrintable(left.join(u' ')));
        if (!left.isEmpty())
            QVERIFY(AcmeKey::fromPem(rig.read(u"account.key"_s)));

        QVERIFY(rig.fixture.restart());
        rig.acme().setNames({kName});
        QTRY_COMPARE_WITH_TIMEOUT(rig.state(), State::Active, kIssueTimeoutMs);
        QVERIFY(verifiesAgainst(rig.read(kName + u".pem"_s), rig.pebble.rootPem(), rig.pebbleDir.path()));
    }

    void aKeptCertificateIsServedAfterARestartAndAMismatchedPairIsNot()
    {
        AcmeRig rig;
        QVERIFY(rig.start());
        rig.acme().setNames({kName});
        QTRY_COMPARE_WITH_TIMEOUT(rig.state(), State::Active, kIssueTimeoutMs);
        const QDateTime expiry = rig.acme().status(kName).expiresAt;
        rig.pebble.stop(); // what follows needs no ACME server

        QVERIFY(rig.fixture.restart());
        QSignalSpy ready(&rig.acme(), &AcmeManager::certificateReady);
        rig.acme().setNames({kName});
        QCOMPARE(rig.state(), State::Active);
        QCOMPARE(rig.acme().status(kName).expiresAt, expiry);
        QCOMPARE(ready.size(), 1);

        // A key that does not belong to the chain (a crash between writing the two): no certificate, ordered again.
        rig.fixture.stop();
        QFile key(rig.file(kName + u".key"_s));
        QVERIFY(key.open(QIODevice::WriteOnly));
        key.write(AcmeKey::generate().value().privatePem());
        key.close();
        QVERIFY(rig.fixture.restart());
        QSignalSpy none(&rig.acme(), &AcmeManager::certificateReady);
        rig.acme().setNames({kName});
        QVERIFY(rig.state() != State::Active);
        QCOMPARE(none.size(), 0);
    }

    void badNoncesAreRetried()
    {
        AcmeRig rig;
        // pebble refuses a fifth of all nonces: an order of a dozen requests would rarely get through without
        // resending.
        QVERIFY(rig.start(kCertificateSeconds, 20));
        rig.acme().setNames({kName});
        QTRY_COMPARE_WITH_TIMEOUT(rig.state(), State::Active, kIssueTimeoutMs);
    }

    void aCustomDomainsCertificateIsServedBySni()
    {
        AcmeRig rig;
        QVERIFY(rig.serveHttps());
        QVERIFY(rig.start());
        QCOMPARE(rig.acme().names(), QStringList());

        // The site's custom domain is what makes Berth order a certificate for it.
        const QJsonObject site {
            {u"slug"_s, u"the-docs"_s}, {u"html"_s, u"<p>the docs</p>"_s}, {u"domains"_s, QJsonArray {kName}}};
        const TestReply deployed = rig.fixture.client().api("POST", u"/deploy"_s, rig.fixture.ownerKey(), site);
        QCOMPARE(deployed.status, 200);
        QCOMPARE(rig.acme().names(), QStringList {kName});
        QTRY_COMPARE_WITH_TIMEOUT(rig.state(), State::Active, kIssueTimeoutMs);

        const QString id = deployed.json().value(u"id"_s).toString();
        const QJsonObject shown = rig.fixture.client()
                                      .api("GET", u"/deploy/"_s + id, rig.fixture.ownerKey())
                                      .json()
                                      .value(u"domains"_s)
                                      .toArray()
                                      .first()
                                      .toObject();
        QCOMPARE(shown.value(u"name"_s).toString(), kName);
        const QJsonObject certificate = shown.value(u"certificate"_s).toObject();
        QCOMPARE(certificate.value(u"status"_s).toString(), u"active"_s);
        QCOMPARE(certificate.value(u"expires_at"_s).toString(), isoTimestamp(rig.leaf().expiryDate().toUTC()));
        QVERIFY(certificate.value(u"error"_s).isNull());

        // curl trusting only pebble's root reaches the site by its name: the handshake got the issued certificate.
        const CurlOutcome fetched = curlHttps(kName, u"127.0.0.1"_s, rig.fixture.engine().httpsPort(), rig.rootFile());
        QVERIFY2(fetched.exitCode == 0, fetched.err.constData());
        QVERIFY(fetched.out.contains("the docs"));
    }

    void acmeAloneServesHttpsWithEachNamesOwnCertificate()
    {
        AcmeRig rig; // no --tls-cert: nothing to serve names without a certificate of their own
        QVERIFY(rig.start());
        const quint16 https = rig.fixture.engine().httpsPort();
        QCOMPARE(https, rig.pebble.berthHttpsPort());
        const QString root = rig.rootFile();
        QVERIFY(!root.isEmpty());

        // Before its certificate arrives, a handshake for the name fails at once (an alert, no hang), as does one for
        // a name Berth has nothing for; the plain port answers meanwhile.
        const QString other = u"other.example.test"_s;
        for (const QString &name : {kName, other}) {
            const CurlOutcome refused = curlHttps(name, u"127.0.0.1"_s, https, root);
            QVERIFY2(refused.exitCode == 35, refused.err.constData()); // CURLE_SSL_CONNECT_ERROR
        }
        QCOMPARE(rig.fixture.client().request("GET", kName, u"/"_s).status, 421);

        const QJsonObject site {
            {u"slug"_s, u"the-docs"_s}, {u"html"_s, u"<p>the docs</p>"_s}, {u"domains"_s, QJsonArray {kName}}};
        QCOMPARE(rig.fixture.client().api("POST", u"/deploy"_s, rig.fixture.ownerKey(), site).status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(rig.state(), State::Active, kIssueTimeoutMs); // HTTP-01 on the plain port
        const CurlOutcome fetched = curlHttps(kName, u"127.0.0.1"_s, https, root);
        QVERIFY2(fetched.exitCode == 0, fetched.err.constData());
        QVERIFY(fetched.out.contains("the docs"));

        // The other name still fails its handshake, and the server goes on serving both ports.
        const CurlOutcome refused = curlHttps(other, u"127.0.0.1"_s, https, root);
        QVERIFY2(refused.exitCode == 35, refused.err.constData());
        QCOMPARE(curlHttps(kName, u"127.0.0.1"_s, https, root).exitCode, 0);
        QCOMPARE(rig.fixture.client().request("GET", kName, u"/"_s).status, 200);
    }

    void tlsAlpnIsAnsweredOnTheHttpsPort()
    {
        AcmeRig rig;
        QVERIFY(rig.serveHttps());
        rig.challenge = u"tls-alpn-01"_s;
        QVERIFY(rig.start());
        QSignalSpy answered(&rig.acme(), &AcmeManager::tlsChallengeReady);
        QSignalSpy withdrawn(&rig.acme(), &AcmeManager::tlsChallengeDone);
        rig.acme().setNames({kName});
        QTRY_COMPARE_WITH_TIMEOUT(rig.state(), State::Active, kIssueTimeoutMs);
        QCOMPARE(answered.size(), 1); // pebble validated through the HTTPS port's acme-tls/1 handshake
        QTRY_COMPARE(withdrawn.size(), 1); // the challenge certificate is gone with the order
        QVERIFY(verifiesAgainst(rig.read(kName + u".pem"_s), rig.pebble.rootPem(), rig.pebbleDir.path()));
    }

    void berthdKilledDuringAnOrderLeavesWholeFilesAndFinishesOnRestart()
    {
        QTemporaryDir dir;
        PebbleServer pebble(dir.filePath(u"pebble"_s));
        QVERIFY(QDir().mkpath(dir.filePath(u"pebble"_s)));
        const QString data = dir.filePath(u"data"_s);
        const auto key = BerthdProcess::run({u"key"_s, u"create"_s, u"--data-dir"_s, data});
        QCOMPARE(key.exitCode, 0);
        const QByteArray ownerKey = key.out.trimmed();
        const quint16 port = pebble.berthPort();
        QVERIFY(pebble.start(kCertificateSeconds));
        BerthdProcess berthd(data);
        // No --tls-cert: ACME alone turns HTTPS on.
        berthd.setExtraArguments(
            {u"--acme-directory"_s, pebble.directoryUrl(), u"--acme-email"_s, u"owner@example.test"_s, u"--acme-ca"_s,
                pebble.caFile(), u"--https-port"_s, QString::number(pebble.berthHttpsPort())});
        QVERIFY(berthd.start(QProcessEnvironment::systemEnvironment(), port));

        HttpTestClient client(port);
        const QJsonObject site {
            {u"slug"_s, u"the-docs"_s}, {u"html"_s, u"<p>the docs</p>"_s}, {u"domains"_s, QJsonArray {kName}}};
        const TestReply deployed = client.api("POST", u"/deploy"_s, ownerKey, site);
        QCOMPARE(deployed.status, 200);
        const QString path = u"/deploy/"_s + deployed.json().value(u"id"_s).toString();
        const auto certificateState = [&] {
            return client.api("GET", path, ownerKey)
                .json()
                .value(u"domains"_s)
                .toArray()
                .first()
                .toObject()
                .value(u"certificate"_s)
                .toObject()
                .value(u"status"_s)
                .toString();
        };
        QCOMPARE(certificateState(), u"pending"_s);
        berthd.kill(); // SIGKILL in the middle of the order

        const QString folder = data + u"/certificates"_s;
        const QStringList left = QDir(folder).entryList(QDir::Files);
        QVERIFY2(left.isEmpty() || left == QStringList {u"account.key"_s}, qPrintable(left.join(u' ')));
        if (!left.isEmpty())
            QVERIFY(AcmeKey::fromPem(readFile(folder + u"/account.key"_s)));

        QVERIFY(berthd.start(QProcessEnvironment::systemEnvironment(), port));
        QTRY_COMPARE_WITH_TIMEOUT(certificateState(), u"active"_s, kIssueTimeoutMs);
        QVERIFY(verifiesAgainst(readFile(folder + u'/' + kName + u".pem"_s), pebble.rootPem(), dir.path()));
        const QString root = dir.filePath(u"pebble-root.pem"_s);
        QVERIFY(writeFile(root, pebble.rootPem()));
        const CurlOutcome fetched = curlHttps(kName, u"127.0.0.1"_s, pebble.berthHttpsPort(), root);
        QVERIFY2(fetched.exitCode == 0, fetched.err.constData());
        QVERIFY(fetched.out.contains("the docs"));
        berthd.kill();
    }

    void acmeNamesAddsTheApiHostAndTheSitesNames()
    {
        AcmeRig rig;
        rig.settings.acme.apiAndSiteNames = true;
        rig.settings.siteDomain = u"sites.example.test"_s;
        rig.settings.baseUrl = u"https://api.example.test"_s;
        QVERIFY(rig.start());
        QCOMPARE(rig.acme().names(), QStringList {u"api.example.test"_s});
        QVERIFY(!rig.fixture.deploySite(rig.fixture.ownerKey(), u"the-docs"_s).isEmpty());
        QCOMPARE(rig.acme().names(), (QStringList {u"api.example.test"_s, u"the-docs.sites.example.test"_s}));
        QTRY_COMPARE_WITH_TIMEOUT(rig.state(u"the-docs.sites.example.test"_s), State::Active, kIssueTimeoutMs);
    }

    void onlyTokensBerthAskedForAreAnswered()
    {
        // With HTTPS and the plain port redirecting everything else: challenges are still answered on the plain port.
        AcmeRig rig;
        QVERIFY(rig.serveHttps());
        rig.httpsRedirect = true;
        QVERIFY(rig.start());
        HttpTestClient &plain = rig.fixture.client();
        QCOMPARE(plain.request("GET", kName, u"/"_s).status, 308);
        for (const QString &host : {kName, rig.fixture.siteHost(u"any-site"_s), plain.apiHost()}) {
            const TestReply reply = plain.request("GET", host, u"/.well-known/acme-challenge/madeUpToken123"_s);
            QCOMPARE(reply.status, 404);
            QCOMPARE(reply.error(), u"Not found"_s);
        }
        // Names that are no host names are never ordered.
        rig.acme().setNames({u"127.0.0.1"_s, u"*.example.test"_s, u"../etc"_s, u"localhost:8080"_s, u"UPPER.test"_s,
            u"bad-.example.test"_s, u"single"_s});
        QVERIFY(rig.acme().names().isEmpty());
        rig.acme().setNames({kName, kName});
        QCOMPARE(rig.acme().names(), QStringList {kName});
    }
};

QTEST_GUILESS_MAIN(TestAcme)
#include "tst_acme.moc"
