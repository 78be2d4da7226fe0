// Archive deploys: POST /deploy and PUT /deploy/:id with a tar stream (plain or gzip) over real HTTP. Archives made
// by tar(1) are served byte for byte; links, devices, FIFOs, ".." and absolute entries are refused naming the entry;
// every limit is answered with its 413 while the body is still being sent, with the server's memory bounded; a
// refused update leaves the old version live and no blob behind; and berthd killed mid-archive comes back with the
// old version and collects what the archive had stored. On the PostgreSQL run (tst_archivedeploy@postgresql) the blobs
// travel to the database in batches, and the berthd child processes run on PostgreSQL too.
#include "api/archiveupload.h"
#include "archivetestsupport.h"
#include "berthdprocess.h"
#include "blobstatements.h"
#include "common/residentsize.h"
#include "domain/deploy/deploymentlimits.h"
#include "domain/deploy/tarstream.h"
#include "enginefixture.h"
#include "httptestclient.h"
#include "testcertificates.h"

#include <QDirIterator>
#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <sys/stat.h>
#include <unistd.h>

using namespace Qt::StringLiterals;
using berth::test::BerthdProcess;
using berth::test::EngineFixture;
using berth::test::HttpTestClient;
using namespace berth::test;

class TestArchiveDeploy : public QObject
{
    Q_OBJECT

    EngineFixture m_fixture;
    QTemporaryDir m_folders;
    int m_folder = 0;

    QString newFolder() { return m_folders.filePath(QString::number(++m_folder)); }
    quint16 port() { return m_fixture.engine().port(); }
    QByteArray key() { return m_fixture.ownerKey(); }
    HttpTestClient &client() { return m_fixture.client(); }

    // A small site: a page, a stylesheet, a binary file and a name too long for a plain ustar header.
    QMap<QString, QByteArray> siteFiles(const QByteArray &version)
    {
        return {{u"index.html"_s, "<!doctype html><title>Archive " + version + "</title><p>" + version},
            {u"css/site.css"_s, "body { color: #" + version.toHex().left(6) + "; }\n"},
            {u"img/photo.bin"_s, randomBytes(quint32(version.size()), 300 * 1024 + 7)},
            {u"docs/"_s + QString(120, u'n') + u"/page.html"_s, "<p>deep " + version}};
    }
    QString folderOf(const QMap<QString, QByteArray> &files)
    {
        const QString folder = newFolder();
        for (auto it = files.cbegin(); it != files.cend(); ++it) {
            if (!writeFile(folder + u'/' + it.key(), it.value()))
                return {};
        }
        return folder;
    }
    void verifyServed(const QString &slug, const QMap<QString, QByteArray> &files)
    {
        for (auto it = files.cbegin(); it != files.cend(); ++it) {
            const auto reply = client().site(slug, u'/' + it.key());
            QCOMPARE(reply.status, 200);
            QVERIFY2(reply.body == it.value(), qPrintable(it.key()));
        }
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_fixture.start()); }

    void deploysArchivesMadeByTar_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QByteArray>("type");
        QTest::newRow("gnu tar") << QStringList() << QByteArray("application/x-tar");
        QTest::newRow("pax") << QStringList {u"--format=pax"_s} << QByteArray("application/x-tar");
        QTest::newRow("gzip") << QStringList {u"-z"_s} << QByteArray("application/gzip");
    }
    void deploysArchivesMadeByTar()
    {
        QFETCH(QStringList, options);
        QFETCH(QByteArray, type);
        const QString slug = u"tar-"_s + QString::number(++m_folder);
        const auto v1 = siteFiles("v1");
        const QByteArray archive = tarOf(folderOf(v1), options);
        QVERIFY(!archive.isEmpty());
        const auto created = upload(
            port(), "POST", "/deploy?slug=" + slug.toLatin1() + "&title=From%20tar&is_spa=true", key(), type, archive);
        QCOMPARE(created.status, 200);
        const QString id = created.json().value(u"id"_s).toString();
        verifyServed(slug, v1);
        const auto details = client().api("GET", u"/deploy/"_s + id, key());
        QCOMPARE(details.json().value(u"title"_s).toString(), u"From tar"_s);
        QCOMPARE(details.json().value(u"is_spa"_s).toBool(), true);

        // An update replaces every file: the new set is served, the old-only file is gone.
        auto v2 = siteFiles("v2");
        v2.remove(u"css/site.css"_s);
        const auto updated = upload(
            port(), "PUT", "/deploy/" + id.toLatin1() + "?is_spa=false", key(), type, tarOf(folderOf(v2), options));
        QCOMPARE(updated.status, 200);
        verifyServed(slug, v2);
        QCOMPARE(client().site(slug, u"/css/site.css"_s).status, 404);
    }

    void refusesEntriesThatAreNotFiles_data()
    {
        QTest::addColumn<QByteArray>("archive");
        QTest::addColumn<QString>("named");
        QTest::addColumn<QString>("kind");
        const QByteArray page = tarEntry("index.html", "<p>page");
        QTest::newRow("character device")
            << page + tarHeader("dev/null", '3', 0) + kTarEnd << u"\"dev/null\""_s << u"a character device"_s;
        QTest::newRow("block device") << page + tarHeader("disk", '4', 0) + kTarEnd << u"\"disk\""_s
                                      << u"a block device"_s;
        QTest::newRow("dot dot") << page + tarEntry("../outside.html", "<p>out") + kTarEnd << u"\"../outside.html\""_s
                                 << u"\"..\""_s;
        QTest::newRow("absolute") << page + tarEntry("/etc/cron.d/job", "x") + kTarEnd << u"\"/etc/cron.d/job\""_s
                                  << u"absolute"_s;
        QTest::newRow("dot dot directory")
            << tarHeader("a/../../up/", '5', 0) + page + kTarEnd << u"\"a/../../up/\""_s << u"\"..\""_s;

        // Made by tar(1) from a real folder: a symbolic link, a hard link and a FIFO.
        const QString folder = newFolder();
        writeFile(folder + u"/index.html"_s, "<p>page");
        QFile::link(u"index.html"_s, folder + u"/link.html"_s);
        QTest::newRow("symbolic link") << tarOf(folder) << u"\"./link.html\""_s << u"a symbolic link"_s;
        const QString hard = newFolder();
        writeFile(hard + u"/index.html"_s, "<p>page");
        ::link(QFile::encodeName(hard + u"/index.html"_s).constData(),
            QFile::encodeName(hard + u"/same.html"_s).constData());
        const QByteArray hardArchive = tarOf(hard);
        // tar names the second of the two as the link, whichever readdir gives first.
        QTest::newRow("hard link") << hardArchive << u".html\""_s << u"a hard link"_s;
        const QString fifo = newFolder();
        writeFile(fifo + u"/index.html"_s, "<p>page");
        ::mkfifo(QFile::encodeName(fifo + u"/pipe"_s).constData(), 0600);
        QTest::newRow("fifo") << tarOf(fifo) << u"\"./pipe\""_s << u"a FIFO"_s;
    }
    void refusesEntriesThatAreNotFiles()
    {
        QFETCH(QByteArray, archive);
        QFETCH(QString, named);
        QFETCH(QString, kind);
        QVERIFY(!archive.isEmpty());
        const int before = client().api("GET", u"/deploys"_s, key()).body.count("\"id\"");
        const auto reply = upload(port(), "POST", "/deploy?slug=refused-site", key(), "application/x-tar", archive);
        QCOMPARE(reply.status, 400);
        QVERIFY2(reply.error().contains(named) && reply.error().contains(kind), qPrintable(reply.error()));
        QCOMPARE(client().api("GET", u"/deploys"_s, key()).body.count("\"id\""), before);
        QCOMPARE(client().site(u"refused-site"_s).status, 404);
    }

    void refusesTruncatedArchives_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QByteArray>("type");
        QTest::newRow("tar") << QStringList() << QByteArray("application/x-tar");
        QTest::newRow("gzip") << QStringList {u"-z"_s} << QByteArray("application/gzip");
    }
    void refusesTruncatedArchives()
    {
        QFETCH(QStringList, options);
        QFETCH(QByteArray, type);
        const QByteArray whole = tarOf(folderOf(siteFiles("cut")), options);
        QVERIFY(whole.size() > 4096);
        const auto reply
            = upload(port(), "POST", "/deploy?slug=truncated-site", key(), type, whole.left(whole.size() * 2 / 3));
        QCOMPARE(reply.status, 400);
        QVERIFY2(reply.error() == berth::TarStream::truncatedMessage() || reply.error().contains(u"damaged"_s),
            qPrintable(reply.error()));
        QCOMPARE(client().site(u"truncated-site"_s).status, 404);
    }

    void refusesAPasswordInTheQuery()
    {
        const QByteArray archive = tarEntry("index.html", "<p>secret") + kTarEnd;
        const auto reply = upload(
            port(), "POST", "/deploy?slug=pw-site&protect=true&password=hunter2", key(), "application/x-tar", archive);
        QCOMPARE(reply.status, 400);
        QCOMPARE(reply.error(), berth::ArchiveUpload::passwordInQueryMessage());
        QCOMPARE(client().site(u"pw-site"_s).status, 404);
        // A field the JSON body does not know is refused the same way.
        QCOMPARE(upload(port(), "POST", "/deploy?slug=pw-site&protec=true", key(), "application/x-tar", archive).status,
            400);
    }

    // Each limit is answered from the header that passes it, while the client is still sending: a refused update
    // leaves the live version as it was, and what the archive had stored is collected.
    void limitsAreAnsweredWhileStreaming_data()
    {
        QTest::addColumn<QList<qint64>>("sizes");
        QTest::addColumn<QString>("error");
        QTest::addColumn<bool>("beforeTheEnd"); // whether the answer must come before the client has sent it all
        QTest::newRow("file over 10 MB") << QList<qint64>(7, berth::kMaxFileBytes + 1)
                                         << berth::DeploymentLimits::fileTooLarge(u"data/file0.bin"_s) << true;
        // 60 MB sent in pieces: refused at the sixth file's header, after 45 MB, with the server's memory bounded.
        // What the kernel buffers on loopback (tcp_rmem, up to 32 MB) may hold the rest: the early answer is the first
        // row's, whose 73 MB cannot all wait there.
        QTest::newRow("60 MB in all") << QList<qint64> {9000000, 9000000, 9000000, 9000000, 9000000, 10000000, 5000000}
                                      << berth::DeploymentLimits::totalTooLarge() << false;
        // The last header is the one refused: only its last kilobyte is left to send by then.
        QTest::newRow("10,001 files") << QList<qint64>(berth::kMaxFilesPerDeployment + 1, 1)
                                      << berth::DeploymentLimits::tooManyFiles() << false;
    }
    void limitsAreAnsweredWhileStreaming()
    {
        QFETCH(QList<qint64>, sizes);
        QFETCH(QString, error);
        QFETCH(bool, beforeTheEnd);
        const QString slug = u"limits-"_s + QString::number(++m_folder);
        const auto v1 = siteFiles("live");
        const auto created = upload(
            port(), "POST", "/deploy?slug=" + slug.toLatin1(), key(), "application/x-tar", tarOf(folderOf(v1)));
        QCOMPARE(created.status, 200);
        const QString id = created.json().value(u"id"_s).toString();
        QTRY_VERIFY(blobCount(m_fixture.dataDir()) > 0);
        const int blobsBefore = blobCount(m_fixture.dataDir());

        qint64 length = 0;
        const auto archive = generatedArchive(sizes, &length);
        const qint64 residentBefore = residentKiB();
        const auto reply
            = upload(port(), "PUT", "/deploy/" + id.toLatin1(), key(), "application/x-tar", length, archive);
        QCOMPARE(reply.status, 413);
        QCOMPARE(reply.error(), error);
        const qint64 grewKb = reply.peakResidentKb - residentBefore;
        qInfo().noquote() << "sent" << reply.sent << "of" << length << "bytes; resident size grew by" << grewKb
                          << "KiB";
        if (beforeTheEnd)
            QVERIFY2(reply.sent < length, "answered only once the whole body was sent");
        // The body is never held whole: a constant (the stream's 2 MiB, socket buffers) and the largest file; on
        // PostgreSQL also the files not yet sent to the database and one statement's escaped text.
        QVERIFY2(grewKb < 36 * 1024, qPrintable(QString::number(grewKb)));

        verifyServed(slug, v1);
        QTRY_COMPARE_WITH_TIMEOUT(blobCount(m_fixture.dataDir()), blobsBefore, 10000);
    }

    // Over HTTPS the body arrives through TLS's own buffering: several megabytes, more than the front door lets wait,
    // are stored and served byte for byte.
    void deploysOverTls()
    {
        QTemporaryDir certificates;
        berth::test::TestCertificates certs;
        QVERIFY(certs.make(certificates.path(), {u"localhost"_s}));
        EngineFixture secure;
        berth::EngineSettings settings;
        settings.tlsCertFile = certs.serverCert;
        settings.tlsKeyFile = certs.serverKey;
        settings.httpsPort = 0;
        QVERIFY(secure.start(settings));
        auto files = siteFiles("tls");
        files.insert(u"big.bin"_s, randomBytes(11, 3 * 1024 * 1024 + 5));
        const auto created = upload(secure.engine().httpsPort(), "POST", "/deploy?slug=tls-archive", secure.ownerKey(),
            "application/gzip", tarOf(folderOf(files), {u"-z"_s}), certs.caCert);
        QCOMPARE(created.status, 200);
        for (auto it = files.cbegin(); it != files.cend(); ++it)
            QVERIFY2(secure.client().site(u"tls-archive"_s, u'/' + it.key()).body == it.value(), qPrintable(it.key()));
    }

    // A site generator's thousands of small files, each served; on PostgreSQL their blobs reach the database in
    // multi-row statements: a few for the whole archive, not one for each file.
    void manySmallFilesTravelInBatches()
    {
        constexpr int kFiles = 1000;
        const auto pageOf = [](int number) { return "<p>small page " + QByteArray::number(number) + "</p>\n"; };
        QByteArray archive;
        for (int i = 0; i < kFiles; ++i)
            archive += tarEntry("pages/" + QByteArray::number(i) + ".html", pageOf(i));
        archive += kTarEnd;
        BlobStatementCount inserts(m_fixture, u"INSERT"_s);
        const bool counted = usesPostgres(m_fixture);
        if (counted)
            QVERIFY(inserts.start());

        const auto created = upload(port(), "POST", "/deploy?slug=many-small", key(), "application/x-tar", archive);
        QCOMPARE(created.status, 200);
        if (counted) {
            const int statements = inserts.count();
            qInfo() << "blob inserts on PostgreSQL:" << statements << "statements for" << kFiles << "files";
            QVERIFY2(statements >= 1 && statements <= kFiles / 20, qPrintable(QString::number(statements)));
        }
        for (int i = 0; i < kFiles; ++i) {
            const auto served = client().site(u"many-small"_s, u"/pages/%1.html"_s.arg(i));
            QCOMPARE(served.status, 200);
            QCOMPARE(served.body, pageOf(i));
        }
    }

    // berthd killed (SIGKILL) after the archive's second file is stored: started again, it serves the old version
    // and its sweep removes what the archive had stored.
    void killedMidArchiveLeavesTheOldVersion()
    {
        ChildDatabase database;
        QString error;
        QVERIFY2(database.create(&error), qPrintable(error));
        BerthdProcess::setProgram(QStringLiteral(BERTHD_FAULTS_PATH));
        QTemporaryDir dir;
        QByteArray ownerKey;
        QString id;
        int blobsBefore = 0;
        {
            auto server = BerthdProcess::startWithOwnerKey(dir.path(), &ownerKey);
            QVERIFY(server);
            const auto created = upload(server->port(), "POST", "/deploy?slug=crash-site", ownerKey,
                "application/x-tar", tarEntry("index.html", "v1") + kTarEnd);
            QCOMPARE(created.status, 200);
            id = created.json().value(u"id"_s).toString();
            blobsBefore = blobCount(dir.path());
        }
        {
            QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
            environment.insert(u"BERTH_FAULT_POINT"_s, u"blob-written"_s);
            environment.insert(u"BERTH_FAULT_COUNT"_s, u"2"_s);
            BerthdProcess server(dir.path());
            QVERIFY(server.start(environment));
            const QByteArray archive = tarEntry("index.html", "v2") + tarEntry("a.css", "a2")
                + tarEntry("b.bin", randomBytes(7, 2 * 1024 * 1024)) + kTarEnd;
            const auto interrupted
                = upload(server.port(), "PUT", "/deploy/" + id.toLatin1(), ownerKey, "application/x-tar", archive);
            QCOMPARE(interrupted.status, 0);
            QVERIFY(server.waitForExit(10000));
            QCOMPARE(server.process().exitStatus(), QProcess::CrashExit);
            QVERIFY(blobCount(dir.path()) > blobsBefore);
        }
        BerthdProcess server(dir.path());
        QVERIFY(server.start());
        HttpTestClient fresh(server.port());
        QCOMPARE(fresh.site(u"crash-site"_s).body, QByteArray("v1"));
        QCOMPARE(fresh.site(u"crash-site"_s, u"/a.css"_s).status, 404);
        QTRY_COMPARE_WITH_TIMEOUT(blobCount(dir.path()), blobsBefore, 10000);
        QCOMPARE(QFile::exists(dir.filePath(u"berth.sqlite"_s)), !database.onPostgres());
    }

    // berthd deploy sends a folder the server lacks as an archive (the access log shows its query string), and a
    // redeploy of the unchanged folder its digests alone.
    void cliSendsWhatTheServerLacksAsAnArchive()
    {
        ChildDatabase database;
        QString error;
        QVERIFY2(database.create(&error), qPrintable(error));
        BerthdProcess::setProgram(QStringLiteral(BERTHD_PATH));
        QTemporaryDir dir;
        const QByteArray ownerKey
            = BerthdProcess::run({u"key"_s, u"create"_s, u"--data-dir"_s, dir.path()}).out.trimmed();
        QVERIFY(ownerKey.startsWith("bk_"));
        const QString log = dir.filePath(u"access.log"_s);
        BerthdProcess server(dir.path());
        server.setExtraArguments({u"--access-log"_s, log});
        QVERIFY(server.start());
        const auto files = siteFiles("cli");
        const QString folder = folderOf(files);
        const auto first = server.runClient({u"deploy"_s, folder, u"--slug"_s, u"cli-archive"_s}, ownerKey, dir.path());
        QVERIFY2(first.exitCode == 0, first.err.constData());
        HttpTestClient fresh(server.port());
        for (auto it = files.cbegin(); it != files.cend(); ++it)
            QVERIFY2(fresh.site(u"cli-archive"_s, u'/' + it.key()).body == it.value(), qPrintable(it.key()));
        const auto logged = [&log](const QString &pattern) {
            QFile file(log);
            return file.open(QIODevice::ReadOnly)
                && QString::fromUtf8(file.readAll()).contains(QRegularExpression(pattern));
        };
        QTRY_VERIFY_WITH_TIMEOUT(logged(u"\"POST /deploy\\?[^ ]*slug=cli-archive[^ ]* HTTP/1.1\" 200 "_s), 10000);

        const auto again
            = server.runClient({u"deploy"_s, folder, u"--update"_s, u"cli-archive"_s}, ownerKey, dir.path());
        QVERIFY2(again.exitCode == 0, again.err.constData());
        QTRY_VERIFY_WITH_TIMEOUT(logged(u"\"PUT /deploy/dep_[^ ?]+ HTTP/1.1\" 200 "_s), 10000);
        QVERIFY(!logged(u"\"PUT /deploy/dep_[^ ]*\\?"_s));
    }
};

QTEST_GUILESS_MAIN(TestArchiveDeploy)
#include "tst_archivedeploy.moc"
