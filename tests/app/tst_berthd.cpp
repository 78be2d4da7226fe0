// The berthd command line: help, usage errors, key creation, and the first-start owner key.
#include "berthdprocess.h"
#include "httptestclient.h"
#include "postgrescluster.h"

#include <QDirIterator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace Qt::StringLiterals;
using berth::test::BerthdProcess;

class TestBerthd : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void helpDocumentsEveryOption()
    {
        const auto serve = BerthdProcess::run({u"--help"_s});
        QCOMPARE(serve.exitCode, 0);
        for (const char *option : {"--listen", "--data-dir", "--site-domain", "--base-url", "--trusted-proxy",
                 "--api-rate", "--database", "--shared-rate-limits", "key create"})
            QVERIFY2(serve.out.contains(option), option);

        const auto key = BerthdProcess::run({u"key"_s, u"create"_s, u"--help"_s});
        QCOMPARE(key.exitCode, 0);
        for (const char *option : {"--user", "--plan", "--data-dir"})
            QVERIFY2(key.out.contains(option), option);
    }

    void badUsageExitsWith2_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QByteArray>("message");
        QTest::newRow("unknown option") << QStringList {u"--frobnicate"_s} << QByteArray("frobnicate");
        QTest::newRow("bad listen") << QStringList {u"--listen"_s, u"nowhere"_s} << QByteArray("--listen");
        QTest::newRow("bad port") << QStringList {u"--listen"_s, u"127.0.0.1:99999"_s} << QByteArray("--listen");
        QTest::newRow("unknown command") << QStringList {u"launch"_s} << QByteArray("launch");
        QTest::newRow("key without sub") << QStringList {u"key"_s} << QByteArray("create");
        QTest::newRow("bad plan") << QStringList {u"key"_s, u"create"_s, u"--user"_s, u"a@b.example"_s, u"--plan"_s,
            u"gold"_s} << QByteArray("--plan");
        QTest::newRow("missing value") << QStringList {u"--data-dir"_s} << QByteArray("data-dir");
        QTest::newRow("bad proxy") << QStringList {u"--trusted-proxy"_s, u"proxy.lan"_s}
                                   << QByteArray("--trusted-proxy");
        QTest::newRow("bad api rate") << QStringList {u"--api-rate"_s, u"0"_s} << QByteArray("--api-rate");
        QTest::newRow("bad database") << QStringList {u"--database"_s, u"postgresql://ann:hunter2@db.lan"_s}
                                      << QByteArray("--database");
        // SQLite is one server: there is nothing to share its limits with.
        QTest::newRow("shared limits without a database")
            << QStringList {u"--shared-rate-limits"_s} << QByteArray("--shared-rate-limits needs --database");
    }
    void badUsageExitsWith2()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QByteArray, message);
        const auto outcome = BerthdProcess::run(arguments);
        QCOMPARE(outcome.exitCode, 2);
        QVERIFY2(outcome.err.contains(message), outcome.err.constData());
        QVERIFY(outcome.out.isEmpty());
        QVERIFY2(!outcome.err.contains("hunter2"), outcome.err.constData()); // a URL's password is never echoed
    }

    // BERTH_DATABASE puts the records in PostgreSQL (the CTest fixture's cluster): the banner names the database
    // without its password, and the records live there: a second server on another data folder finds them.
    void servesFromPostgresql()
    {
        BERTH_FRESH_POSTGRES_DATABASE(database);
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(u"BERTH_DATABASE"_s, database.url());

        QTemporaryDir dir;
        QByteArray key;
        {
            BerthdProcess server(dir.path());
            QVERIFY(server.start(environment));
            QVERIFY2(server.output().contains("Database: postgresql://berth@"), server.output().constData());
            const auto match = QRegularExpression(u"Owner API key[^\n]*\n(bk_[A-Za-z0-9]+)\n"_s)
                                   .match(QString::fromLatin1(server.output()));
            QVERIFY2(match.hasMatch(), server.output().constData());
            key = match.captured(1).toLatin1();
            berth::test::HttpTestClient client(server.port());
            QCOMPARE(
                client.api("POST", u"/deploy"_s, key, QJsonObject {{u"html"_s, u"hi"_s}, {u"slug"_s, u"pg-site"_s}})
                    .status,
                200);
        }
        QVERIFY(!QFile::exists(dir.filePath(u"berth.sqlite"_s)));
        // The same records from the database, not from the data folder.
        QTemporaryDir other;
        BerthdProcess again(other.path());
        QVERIFY(again.start(environment));
        QVERIFY(!again.output().contains("bk_"));
        berth::test::HttpTestClient client(again.port());
        const QJsonArray sites = client.api("GET", u"/deploys"_s, key).json()[u"deployments"_s].toArray();
        QCOMPARE(sites.size(), 1);
        QCOMPARE(sites.at(0)[u"slug"_s].toString(), u"pg-site"_s);
    }

    // berthd migrate --from-sqlite: an instance's records move into PostgreSQL; served from there with the same data
    // folder (the files), everything is where it was and new rows get new ids.
    void migratesFromSqlite()
    {
        BERTH_FRESH_POSTGRES_DATABASE(database);

        QTemporaryDir dir;
        QByteArray key;
        QString id;
        {
            BerthdProcess server(dir.path());
            QVERIFY(server.start());
            const auto match = QRegularExpression(u"Owner API key[^\n]*\n(bk_[A-Za-z0-9]+)\n"_s)
                                   .match(QString::fromLatin1(server.output()));
            QVERIFY2(match.hasMatch(), server.output().constData());
            key = match.captured(1).toLatin1();
            berth::test::HttpTestClient client(server.port());
            const auto deployed = client.api(
                "POST", u"/deploy"_s, key, QJsonObject {{u"html"_s, u"<p>one</p>"_s}, {u"slug"_s, u"moved-site"_s}});
            QCOMPARE(deployed.status, 200);
            id = deployed.json()[u"id"_s].toString();
            QCOMPARE(
                client.api("PUT", u"/deploy/"_s + id, key, QJsonObject {{u"html"_s, u"<p>two</p>"_s}}).status, 200);
            const QString host = u"moved-site.localhost:%1"_s.arg(server.port());
            QCOMPARE(client.request("POST", host, u"/_counter/visits/increment"_s).status, 200);
            QCOMPARE(
                client.api("POST", u"/deploy/%1/links"_s.arg(id), key, QJsonObject {{u"label"_s, u"moved"_s}}).status,
                200);
        }

        const QString url = database.url();
        const auto migrated = BerthdProcess::run({u"migrate"_s, u"--from-sqlite"_s, dir.path(), u"--database"_s, url});
        QVERIFY2(migrated.exitCode == 0, migrated.err.constData());
        QVERIFY2(migrated.out.contains("deployments: 1 rows"), migrated.out.constData());
        QVERIFY2(migrated.out.contains("versions: 2 rows"), migrated.out.constData());
        QVERIFY2(migrated.out.contains("share_links: 1 rows"), migrated.out.constData());
        // The two pages and the two-version site's files, read back from the database and checked.
        QVERIFY2(QRegularExpression(u"files: [1-9][0-9]* \\(and [0-9]+ compressed variants\\), [0-9]+ bytes, "
                                    "digests verified"_s)
                     .match(QString::fromLatin1(migrated.out))
                     .hasMatch(),
            migrated.out.constData());
        // Into a database that is no longer empty: refused, nothing written.
        const auto again = BerthdProcess::run({u"migrate"_s, u"--from-sqlite"_s, dir.path(), u"--database"_s, url});
        QCOMPARE(again.exitCode, 1);
        QVERIFY2(again.err.contains("not empty"), again.err.constData());

        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(u"BERTH_DATABASE"_s, url);
        BerthdProcess server(dir.path());
        QVERIFY(server.start(environment));
        QVERIFY(!server.output().contains("bk_")); // the owner came along
        berth::test::HttpTestClient client(server.port());
        QVERIFY(client.site(u"moved-site"_s).body.contains("<p>two</p>"));
        QCOMPARE(client.request("GET", u"moved-site.localhost:%1"_s.arg(server.port()), u"/_counter/visits"_s)
                     .json()[u"value"_s]
                     .toInt(),
            1);
        QCOMPARE(client.api("GET", u"/deploy/%1/links"_s.arg(id), key).json()[u"links"_s][0][u"label"_s].toString(),
            u"moved"_s);
        // The identity columns go on after the copied ids: a third version and a new site.
        QCOMPARE(client.api("PUT", u"/deploy/"_s + id, key, QJsonObject {{u"html"_s, u"<p>three</p>"_s}}).status, 200);
        QVERIFY(client.site(u"moved-site"_s).body.contains("<p>three</p>"));
        QCOMPARE(
            client.api("POST", u"/deploy"_s, key, QJsonObject {{u"html"_s, u"new"_s}, {u"slug"_s, u"fresh-site"_s}})
                .status,
            200);
        QCOMPARE(client.api("GET", u"/deploy/%1/versions"_s.arg(id), key).json()[u"versions"_s].toArray().size(), 3);
        server.process().terminate();
        QVERIFY(server.waitForExit(10000));

        // The files are in the database: a node with an empty data folder of its own serves the site too.
        QTemporaryDir otherNode;
        BerthdProcess other(otherNode.path());
        QVERIFY(other.start(environment));
        berth::test::HttpTestClient otherClient(other.port());
        QVERIFY(otherClient.site(u"moved-site"_s).body.contains("<p>three</p>"));
    }

    void migrateRefusesADamagedFile()
    {
        BERTH_FRESH_POSTGRES_DATABASE(database);
        QTemporaryDir dir;
        {
            BerthdProcess server(dir.path());
            QVERIFY(server.start());
            const auto match = QRegularExpression(u"Owner API key[^\n]*\n(bk_[A-Za-z0-9]+)\n"_s)
                                   .match(QString::fromLatin1(server.output()));
            QVERIFY2(match.hasMatch(), server.output().constData());
            berth::test::HttpTestClient client(server.port());
            QCOMPARE(client
                         .api("POST", u"/deploy"_s, match.captured(1).toLatin1(),
                             QJsonObject {{u"html"_s, u"<p>one</p>"_s}, {u"slug"_s, u"damaged-site"_s}})
                         .status,
                200);
        }
        // A blob whose bytes no longer match its name.
        QDirIterator blobs(dir.filePath(u"blobs"_s), QDir::Files, QDirIterator::Subdirectories);
        QString damaged;
        while (damaged.isEmpty() && blobs.hasNext()) {
            const QString path = blobs.next();
            if (!blobs.fileName().contains(u'.')) // a blob, not a compressed variant
                damaged = path;
        }
        QVERIFY(!damaged.isEmpty());
        QFile::setPermissions(damaged, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        QFile file(damaged);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not what was deployed");
        file.close();

        const auto migrated
            = BerthdProcess::run({u"migrate"_s, u"--from-sqlite"_s, dir.path(), u"--database"_s, database.url()});
        QCOMPARE(migrated.exitCode, 1);
        QVERIFY2(migrated.err.contains("damaged") && migrated.err.contains(QFileInfo(damaged).fileName().toLatin1()),
            migrated.err.constData());
        QVERIFY2(migrated.err.contains("no records were written"), migrated.err.constData());
    }

    void keysWorkAgainstTheServer()
    {
        QTemporaryDir dir;
        const auto owner = BerthdProcess::run({u"key"_s, u"create"_s, u"--data-dir"_s, dir.path()});
        QCOMPARE(owner.exitCode, 0);
        QVERIFY2(QRegularExpression(u"^bk_[A-Za-z0-9]{32,}\n$"_s).match(QString::fromLatin1(owner.out)).hasMatch(),
            owner.out.constData());
        const auto agent = BerthdProcess::run({u"key"_s, u"create"_s, u"--user"_s, u"bot@example.com"_s, u"--plan"_s,
            u"agent"_s, u"--data-dir"_s, dir.path()});
        QCOMPARE(agent.exitCode, 0);
        QVERIFY(agent.out.startsWith("bk_") && agent.out != owner.out);

        BerthdProcess server(dir.path());
        QVERIFY(server.start());
        QVERIFY(!server.output().contains("Owner API key")); // the owner existed already: nothing shown again
        berth::test::HttpTestClient client(server.port());
        QCOMPARE(client.api("GET", u"/deploys"_s, owner.out.trimmed()).status, 200);
        QCOMPARE(client.api("POST", u"/deploy"_s, agent.out.trimmed(), QJsonObject {{u"html"_s, u"hi"_s}}).status, 200);
        QCOMPARE(client.api("GET", u"/deploys"_s, owner.out.trimmed()).json()[u"deployments"_s].toArray().size(), 0);
        QCOMPARE(client.api("GET", u"/deploys"_s, "bk_forged").status, 401);
    }

    void sigtermStopsCleanly()
    {
        QTemporaryDir dir;
        BerthdProcess server(dir.path());
        QVERIFY(server.start());
        berth::test::HttpTestClient client(server.port());
        QCOMPARE(client.site(u"no-site-here"_s).status, 404); // serving
        server.process().terminate(); // SIGTERM
        QVERIFY(server.waitForExit(10000));
        QCOMPARE(server.process().exitStatus(), QProcess::NormalExit);
        QCOMPARE(server.process().exitCode(), 0);
        QVERIFY(server.process().readAllStandardOutput().contains("Stopping."));
    }

    void firstStartPrintsTheOwnerKeyOnce()
    {
        QTemporaryDir dir;
        QByteArray key;
        {
            BerthdProcess server(dir.path());
            QVERIFY(server.start());
            const auto match = QRegularExpression(u"Owner API key[^\n]*\n(bk_[A-Za-z0-9]+)\n"_s)
                                   .match(QString::fromLatin1(server.output()));
            QVERIFY2(match.hasMatch(), server.output().constData());
            key = match.captured(1).toLatin1();
            berth::test::HttpTestClient client(server.port());
            QCOMPARE(client.api("GET", u"/deploys"_s, key).status, 200);
        }
        BerthdProcess again(dir.path());
        QVERIFY(again.start());
        QVERIFY(!again.output().contains("bk_"));
        berth::test::HttpTestClient client(again.port());
        QCOMPARE(client.api("GET", u"/deploys"_s, key).status, 200);
    }
};

QTEST_GUILESS_MAIN(TestBerthd)
#include "tst_berthd.moc"
