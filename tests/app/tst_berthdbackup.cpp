// berthd backup and restore with real processes: a backup taken while deploys and submissions run, restored into a
// fresh folder and served by a second berthd: every site serves the same bytes, counts match; a damaged blob is
// refused on restore and leaves nothing behind; with PostgreSQL both refuse and point to pg_dump.
#include "berthdprocess.h"
#include "httptestclient.h"
#include "postgrescluster.h"

#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::BerthdProcess;
using berth::test::HttpTestClient;

namespace {

constexpr int kSites = 4;
constexpr int kBusyDeploys = 6;
constexpr int kBusySubmissions = 30;

QString pageOf(int i)
{
    return u"<h1>site %1</h1>"_s.arg(i) + QString(2000 + i * 500, QChar(u'a' + i));
}

} // namespace

class TestBerthdBackup : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<BerthdProcess> m_server;
    std::unique_ptr<HttpTestClient> m_http;
    QByteArray m_key;

    QString path(const QString &name) const { return m_dir.filePath(name); }

    // slug -> bytes of "/" and "/data.bin", and the submission total, for every deployment of the owner.
    QMap<QString, QByteArrayList> snapshot(HttpTestClient &http)
    {
        QMap<QString, QByteArrayList> sites;
        for (const QJsonValue &site : http.api("GET", u"/deploys"_s, m_key).json()[u"deployments"_s].toArray()) {
            const QString slug = site[u"slug"_s].toString();
            const QString id = site[u"id"_s].toString();
            const QByteArray total = QByteArray::number(
                http.api("GET", u"/deploy/%1/submissions"_s.arg(id), m_key).json()[u"total"_s].toInt());
            sites.insert(slug, {http.site(slug).body, http.site(slug, u"/data.bin"_s).body, total});
        }
        return sites;
    }

    // A second berthd on the restored folder answers with this snapshot.
    QMap<QString, QByteArrayList> restoredSnapshot(const QString &backup, const QString &dataDir)
    {
        const auto restored = BerthdProcess::run({u"restore"_s, backup, u"--data-dir"_s, dataDir});
        if (restored.exitCode != 0) {
            qWarning("%s", restored.err.constData());
            return {};
        }
        BerthdProcess server(dataDir);
        if (!server.start())
            return {};
        HttpTestClient http(server.port());
        return snapshot(http);
    }

private Q_SLOTS:
    void initTestCase()
    {
        const auto key = BerthdProcess::run({u"key"_s, u"create"_s, u"--data-dir"_s, path(u"data"_s)});
        QCOMPARE(key.exitCode, 0);
        m_key = key.out.trimmed();
        m_server = std::make_unique<BerthdProcess>(path(u"data"_s));
        QVERIFY(m_server->start());
        m_http = std::make_unique<HttpTestClient>(m_server->port());
        for (int i = 0; i < kSites; ++i) {
            const QJsonArray files {QJsonObject {{u"path"_s, u"index.html"_s}, {u"content"_s, pageOf(i)}},
                QJsonObject {{u"path"_s, u"data.bin"_s},
                    {u"content"_s, QString::fromLatin1(QByteArray(5000, char(i)).toBase64())},
                    {u"encoding"_s, u"base64"_s}}};
            QCOMPARE(m_http
                         ->api("POST", u"/deploy"_s, m_key,
                             QJsonObject {{u"files"_s, files}, {u"slug"_s, u"backup-site-%1"_s.arg(i)}})
                         .status,
                200);
            QCOMPARE(m_http
                         ->request("POST", u"backup-site-%1.localhost:%2"_s.arg(i).arg(m_server->port()), u"/_submit"_s,
                             R"({"n":1})", {{"content-type", "application/json"}})
                         .status,
                200);
        }
    }

    void backupWhileBusyRestoresConsistently()
    {
        // Deploys and submissions in flight while the backup runs.
        QNetworkAccessManager manager;
        QList<QNetworkReply *> busy;
        const auto post = [&](const QString &host, const QString &target, const QByteArray &body, bool keyed) {
            QNetworkRequest request(QUrl(u"http://127.0.0.1:%1%2"_s.arg(m_server->port()).arg(target)));
            request.setRawHeader("Host", host.toUtf8());
            request.setRawHeader("Content-Type", "application/json");
            if (keyed)
                request.setRawHeader("Authorization", "Bearer " + m_key);
            busy.append(manager.post(request, body));
        };
        for (int i = 0; i < kBusyDeploys; ++i)
            post(m_http->apiHost(), u"/deploy"_s,
                QJsonDocument(QJsonObject {{u"html"_s, pageOf(i) + u"busy"_s}, {u"slug"_s, u"busy-site-%1"_s.arg(i)}})
                    .toJson(),
                true);
        for (int i = 0; i < kBusySubmissions; ++i)
            post(u"backup-site-%1.localhost:%2"_s.arg(i % kSites).arg(m_server->port()), u"/_submit"_s,
                R"({"busy":true})", false);

        QProcess backup;
        backup.start(
            QStringLiteral(BERTHD_PATH), {u"backup"_s, path(u"backup-busy"_s), u"--data-dir"_s, path(u"data"_s)});
        QVERIFY(backup.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(backup.state() == QProcess::NotRunning, 60000);
        QVERIFY2(backup.exitCode() == 0, backup.readAllStandardError().constData());
        QVERIFY(backup.readAllStandardOutput().contains("Backed up"));
        QTRY_VERIFY_WITH_TIMEOUT(
            std::all_of(busy.cbegin(), busy.cend(), [](auto *r) { return r->isFinished(); }), 60000);
        qDeleteAll(busy);

        // Restored: every site it has serves the original's bytes; no submission it holds is one too many.
        const QMap<QString, QByteArrayList> original = snapshot(*m_http);
        const QMap<QString, QByteArrayList> restored
            = restoredSnapshot(path(u"backup-busy"_s), path(u"restored-busy"_s));
        QVERIFY(restored.size() >= kSites);
        for (auto it = restored.cbegin(); it != restored.cend(); ++it) {
            QVERIFY2(original.contains(it.key()), qPrintable(it.key()));
            QCOMPARE(it.value().at(0), original.value(it.key()).at(0));
            QCOMPARE(it.value().at(1), original.value(it.key()).at(1));
            if (it.key().startsWith(u"backup-site-"_s)) // each had one submission before the backup began
                QVERIFY(it.value().at(2).toInt() >= 1);
            QVERIFY(it.value().at(2).toInt() <= original.value(it.key()).at(2).toInt());
        }
        QCOMPARE(restored.value(u"backup-site-0"_s).at(0).contains("site 0"), true);
    }

    void quietBackupMatchesExactly()
    {
        const auto backup
            = BerthdProcess::run({u"backup"_s, path(u"backup-quiet"_s), u"--data-dir"_s, path(u"data"_s)});
        QVERIFY2(backup.exitCode == 0, backup.err.constData());
        const QMap<QString, QByteArrayList> original = snapshot(*m_http);
        QCOMPARE(original.size(), kSites + kBusyDeploys);
        QCOMPARE(restoredSnapshot(path(u"backup-quiet"_s), path(u"restored-quiet"_s)), original);

        // Into a folder that is not empty: refused, untouched.
        const auto again
            = BerthdProcess::run({u"restore"_s, path(u"backup-quiet"_s), u"--data-dir"_s, path(u"restored-quiet"_s)});
        QCOMPARE(again.exitCode, 2);
        QVERIFY(again.err.contains("not empty"));
        QCOMPARE(
            BerthdProcess::run({u"backup"_s, path(u"backup-quiet"_s), u"--data-dir"_s, path(u"data"_s)}).exitCode, 2);
    }

    void damagedBlobIsRefused()
    {
        const auto backup
            = BerthdProcess::run({u"backup"_s, path(u"backup-damaged"_s), u"--data-dir"_s, path(u"data"_s)});
        QCOMPARE(backup.exitCode, 0);
        QDirIterator blobs(path(u"backup-damaged/blobs"_s), QDir::Files, QDirIterator::Subdirectories);
        QString victim;
        while (blobs.hasNext() && (victim.isEmpty() || QFileInfo(victim).fileName().contains(u'.')))
            victim = blobs.next();
        QFile file(victim);
        QVERIFY(file.open(QIODevice::Append));
        file.write("tampered");
        file.close();
        const auto restored = BerthdProcess::run(
            {u"restore"_s, path(u"backup-damaged"_s), u"--data-dir"_s, path(u"restored-damaged"_s)});
        QCOMPARE(restored.exitCode, 1);
        QVERIFY2(restored.err.contains("does not match its digest"), restored.err.constData());
        QVERIFY(!QFileInfo::exists(path(u"restored-damaged"_s)));
    }

    // With PostgreSQL (--database or BERTH_DATABASE) the data folder's SQLite file is not the instance: backup and
    // restore refuse, point to pg_dump and pg_restore, and write nothing, even where an SQLite file is (here a live
    // one, as an instance migrated to PostgreSQL keeps its old one).
    void refusedOnPostgresql()
    {
        const QString url = u"postgresql://berth:hunter2@db.lan/berth"_s;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(u"BERTH_DATABASE"_s, url);
        const QList<BerthdProcess::Outcome> refused {
            BerthdProcess::run(
                {u"backup"_s, path(u"backup-pg"_s), u"--data-dir"_s, path(u"data"_s), u"--database"_s, url}),
            BerthdProcess::run({u"backup"_s, path(u"backup-pg"_s), u"--data-dir"_s, path(u"data"_s)}, environment),
            BerthdProcess::run(
                {u"restore"_s, path(u"backup-pg"_s), u"--data-dir"_s, path(u"restored-pg"_s), u"--database"_s, url}),
        };
        for (const BerthdProcess::Outcome &outcome : refused) {
            QCOMPARE(outcome.exitCode, 2);
            for (const char *words : {"works on SQLite only", "postgresql://berth@db.lan:5432/berth",
                     "pg_dump --format=custom", "pg_restore", "only this server's cache"})
                QVERIFY2(outcome.err.contains(words), outcome.err.constData());
            QVERIFY2(!outcome.err.contains("hunter2"), outcome.err.constData());
            QVERIFY(outcome.out.isEmpty());
        }
        QVERIFY(!QFileInfo::exists(path(u"backup-pg"_s)));
        QVERIFY(!QFileInfo::exists(path(u"restored-pg"_s)));
    }

    // Without --database, on a data folder that a server on PostgreSQL uses: the folder's berth.sqlite is the one
    // `migrate` left behind, no longer the instance, and backup and restore say so (from a private marker that
    // `serve --database` leaves, which names no URL). Once the folder is served on SQLite again, backup works.
    void refusedOnAFolderServedFromPostgresql()
    {
        BERTH_FRESH_POSTGRES_DATABASE(database);
        const QString folder = path(u"pg-node"_s);
        QCOMPARE(BerthdProcess::run({u"key"_s, u"create"_s, u"--data-dir"_s, folder}).exitCode, 0);
        const auto migrated
            = BerthdProcess::run({u"migrate"_s, u"--from-sqlite"_s, folder, u"--database"_s, database.url()});
        QVERIFY2(migrated.exitCode == 0, migrated.err.constData());
        const QString marker = QDir(folder).filePath(u"berth.backend"_s);
        QVERIFY(!QFileInfo::exists(marker)); // not served from PostgreSQL yet: its SQLite file is still current
        {
            BerthdProcess node(folder);
            node.setExtraArguments({u"--database"_s, database.url()});
            QVERIFY(node.start());
        }
        QVERIFY(QFileInfo::exists(path(u"pg-node/berth.sqlite"_s))); // kept by migrate
        QFile file(marker);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("postgresql\n")); // names the backend, never the URL or a password
        QCOMPARE(file.permissions() & ~(QFile::ReadUser | QFile::WriteUser), QFile::ReadOwner | QFile::WriteOwner);

        const QList<BerthdProcess::Outcome> refused {
            BerthdProcess::run({u"backup"_s, path(u"backup-pg-node"_s), u"--data-dir"_s, folder}),
            BerthdProcess::run({u"restore"_s, folder, u"--data-dir"_s, path(u"restored-pg-node"_s)}),
        };
        for (const BerthdProcess::Outcome &outcome : refused) {
            QCOMPARE(outcome.exitCode, 2);
            for (const char *words : {"works on SQLite only", "belongs to an instance on PostgreSQL",
                     "pg_dump --format=custom", "pg_restore", "only this server's cache"})
                QVERIFY2(outcome.err.contains(words), outcome.err.constData());
            QVERIFY(outcome.out.isEmpty());
        }
        QVERIFY(!QFileInfo::exists(path(u"backup-pg-node"_s)));
        QVERIFY(!QFileInfo::exists(path(u"restored-pg-node"_s)));

        // Served on SQLite again: the marker goes, and the folder backs up as any SQLite instance.
        {
            BerthdProcess node(folder);
            QVERIFY(node.start());
        }
        QVERIFY(!QFileInfo::exists(marker));
        const auto backup = BerthdProcess::run({u"backup"_s, path(u"backup-pg-node"_s), u"--data-dir"_s, folder});
        QVERIFY2(backup.exitCode == 0, backup.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestBerthdBackup)
#include "tst_berthdbackup.moc"
