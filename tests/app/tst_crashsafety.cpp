// A deploy interrupted by killing the process leaves the old version served after a restart, and
// the blobs it had already written are collected.
#include "berthdprocess.h"
#include "httptestclient.h"

#include <QCryptographicHash>
#include <QDirIterator>
#include <QFile>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::BerthdProcess;
using berth::test::HttpTestClient;

class TestCrashSafety : public QObject
{
    Q_OBJECT

    static int blobCount(const QString &dataDir)
    {
        int count = 0;
        QDirIterator it(dataDir + u"/blobs"_s, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            it.next();
            if (!it.fileName().contains(u'.'))
                ++count; // variants (.gz) and temporary files aside
        }
        return count;
    }

    // A deploy body of index.html and one stylesheet: the two versions the crash tests switch between.
    static QJsonObject twoFiles(const char *index, const QString &cssPath, const char *css)
    {
        return {{u"files"_s,
            QJsonArray {QJsonObject {{u"path"_s, u"index.html"_s}, {u"content"_s, QString::fromLatin1(index)}},
                QJsonObject {{u"path"_s, cssPath}, {u"content"_s, QString::fromLatin1(css)}}}}};
    }

    // The owner's key of a new instance in dataDir; empty when berthd could not make one.
    static QByteArray ownerKey(const QString &dataDir)
    {
        const QByteArray key = BerthdProcess::run({u"key"_s, u"create"_s, u"--data-dir"_s, dataDir}).out.trimmed();
        return key.startsWith("bk_") ? key : QByteArray();
    }

    // Through a berthd of its own: the site `slug` created from version 1 (index "v1", a.css "a1"), then each update
    // applied. Its id, or empty when a step was refused.
    static QString deployVersions(
        const QString &dataDir, const QByteArray &key, const QString &slug, const QList<QJsonObject> &updates = {})
    {
        BerthdProcess server(dataDir);
        if (!server.start())
            return {};
        HttpTestClient client(server.port());
        QJsonObject first = twoFiles("v1", u"a.css"_s, "a1");
        first.insert(u"slug"_s, slug);
        const auto created = client.api("POST", u"/deploy"_s, key, first);
        if (created.status != 200)
            return {};
        const QString id = created.json()[u"id"_s].toString();
        for (const QJsonObject &update : updates) {
            if (client.api("PUT", u"/deploy/"_s + id, key, update).status != 200)
                return {};
        }
        return id;
    }

    // A static generator's site: 10,000 files of about 140 bytes, each version's pages its own content.
    static constexpr int kManyFiles = 9999; // with index.html, the most a deployment may hold
    static QByteArray manyPage(int version, int i)
    {
        return "<!doctype html><title>Page " + QByteArray::number(i) + "</title><p>Version "
            + QByteArray::number(version) + " of a generated page, padded to about 140 bytes.</p>\n";
    }
    static QString manyPath(int i) { return u"pages/%1/p%2.html"_s.arg(i / 100).arg(i); }
    static QJsonObject manyFiles(int version)
    {
        QJsonArray files;
        files.append(QJsonObject {{u"path"_s, u"index.html"_s}, {u"content"_s, u"version %1"_s.arg(version)}});
        for (int i = 0; i < kManyFiles; ++i)
            files.append(
                QJsonObject {{u"path"_s, manyPath(i)}, {u"content"_s, QString::fromLatin1(manyPage(version, i))}});
        return {{u"files"_s, files}};
    }
    static QSet<QByteArray> manyBlobs(const QList<int> &versions)
    {
        QSet<QByteArray> hashes;
        for (const int version : versions) {
            hashes.insert(
                QCryptographicHash::hash("version " + QByteArray::number(version), QCryptographicHash::Sha256).toHex());
            for (int i = 0; i < kManyFiles; ++i)
                hashes.insert(QCryptographicHash::hash(manyPage(version, i), QCryptographicHash::Sha256).toHex());
        }
        return hashes;
    }
    // The blobs in the folder whose bytes match their name; a damaged one (half written, unflushed) counts as absent.
    static QSet<QByteArray> wholeBlobs(const QString &dataDir)
    {
        QSet<QByteArray> hashes;
        QDirIterator it(dataDir + u"/blobs"_s, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            if (it.fileName().contains(u'.'))
                continue;
            QFile file(path);
            const QByteArray name = (QFileInfo(path).dir().dirName() + it.fileName()).toLatin1();
            if (file.open(QIODevice::ReadOnly)
                && QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256).toHex() == name)
                hashes.insert(name);
            else
                hashes.insert("damaged " + name);
        }
        return hashes;
    }

private Q_SLOTS:
    void init() { BerthdProcess::setProgram(QStringLiteral(BERTHD_FAULTS_PATH)); }

    void killedDeployLeavesTheOldVersion()
    {
        QTemporaryDir dir;
        const QByteArray key = ownerKey(dir.path());
        QVERIFY(!key.isEmpty());
        const QJsonObject v2 = twoFiles("v2", u"b.css"_s, "b2");
        const QString id = deployVersions(dir.path(), key, u"crash-test"_s);
        QVERIFY(!id.isEmpty());
        QCOMPARE(blobCount(dir.path()), 2);

        {
            // This run dies, SIGKILL, after the new blobs are written and before the commit.
            QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
            environment.insert(u"BERTH_FAULT_POINT"_s, u"before-commit"_s);
            BerthdProcess server(dir.path());
            QVERIFY(server.start(environment));
            HttpTestClient client(server.port());
            const auto interrupted = client.api("PUT", u"/deploy/"_s + id, key, v2);
            QCOMPARE(interrupted.status, 0); // no response: the process is gone
            QVERIFY(server.waitForExit(10000));
            QCOMPARE(server.process().exitStatus(), QProcess::CrashExit);
            QCOMPARE(blobCount(dir.path()), 4); // v2's blobs were on disk when it died
        }

        BerthdProcess server(dir.path());
        QVERIFY(server.start());
        HttpTestClient client(server.port());
        QCOMPARE(client.site(u"crash-test"_s).body, QByteArray("v1"));
        QCOMPARE(client.site(u"crash-test"_s, u"/a.css"_s).body, QByteArray("a1"));
        QCOMPARE(client.site(u"crash-test"_s, u"/b.css"_s).status, 404);
        // The orphans are collected at start, by a sweep on a worker once the server listens: soon, not at once.
        QTRY_COMPARE_WITH_TIMEOUT(blobCount(dir.path()), 2, 10000);

        // And the same update, uninterrupted, now succeeds.
        QCOMPARE(client.api("PUT", u"/deploy/"_s + id, key, v2).status, 200);
        QCOMPARE(client.site(u"crash-test"_s).body, QByteArray("v2"));
    }

    // A deploy of 10,000 new files killed at random points, between its writes, around the flush of its blobs and
    // around its commit: after each restart the site is the old version or the new one, whole; every acknowledged
    // deploy is there, even when the process dies right after the answer; after the sweep at start every blob in
    // the folder is one a kept version references, and every one they reference is there, whole.
    void killedManyFileDeploysLeaveOneWholeVersion()
    {
        QTemporaryDir dir;
        const QByteArray key = ownerKey(dir.path());
        QVERIFY(!key.isEmpty());
        QString id;
        {
            BerthdProcess server(dir.path());
            QVERIFY(server.start());
            QJsonObject first = manyFiles(1);
            first.insert(u"slug"_s, u"many-files"_s);
            const auto created = HttpTestClient(server.port()).api("POST", u"/deploy"_s, key, first);
            QCOMPARE(created.status, 200);
            id = created.json()[u"id"_s].toString();
        }
        QList<int> committed {1};
        auto *random = QRandomGenerator::global();
        // Four rounds keep the test under a minute: a random write, a random step around the flush, the commit, and
        // an acknowledged deploy.
        const QStringList aroundFlush {u"before-blob-flush"_s, u"after-blob-flush"_s, u"before-commit"_s};
        const QList<std::pair<QString, int>> faults {{u"blob-written"_s, 1 + int(random->bounded(kManyFiles))},
            {aroundFlush.at(int(random->bounded(aroundFlush.size()))), 1}, {u"after-commit"_s, 1}, {QString(), 0}};
        for (int round = 0; round < faults.size(); ++round) {
            const auto &[point, count] = faults.at(round);
            const int version = round + 2;
            qInfo().noquote() << "version" << version << "killed at" << (point.isEmpty() ? u"-"_s : point) << count;
            QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
            if (!point.isEmpty()) {
                environment.insert(u"BERTH_FAULT_POINT"_s, point);
                environment.insert(u"BERTH_FAULT_COUNT"_s, QString::number(count));
            }
            {
                BerthdProcess server(dir.path());
                QVERIFY(server.start(environment));
                const auto reply
                    = HttpTestClient(server.port()).api("PUT", u"/deploy/"_s + id, key, manyFiles(version));
                if (point.isEmpty()) {
                    QCOMPARE(reply.status, 200); // acknowledged: then killed all the same
                    server.kill();
                } else {
                    QCOMPARE(reply.status, 0);
                }
                QVERIFY(server.waitForExit(10000));
            }
            BerthdProcess server(dir.path());
            QVERIFY(server.start());
            HttpTestClient client(server.port());
            const QByteArray live = client.site(u"many-files"_s).body;
            const bool committedNow = point.isEmpty() || point == u"after-commit";
            QCOMPARE(live, u"version %1"_s.arg(committedNow ? version : committed.last()).toLatin1());
            if (committedNow)
                committed.append(version);
            for (int sample = 0; sample < 20; ++sample) {
                const int i = int(random->bounded(kManyFiles));
                QCOMPARE(client.site(u"many-files"_s, u"/"_s + manyPath(i)).body, manyPage(committed.last(), i));
            }
            QCOMPARE(client.api("GET", u"/deploy/%1/versions"_s.arg(id), key).json()[u"versions"_s].toArray().size(),
                committed.size());
            QTRY_COMPARE_WITH_TIMEOUT(wholeBlobs(dir.path()), manyBlobs(committed), 20000);
        }
    }

    // The product's own berthd has no fault points: the same environment changes nothing.
    void productBerthdHasNoFaultPoints()
    {
        QTemporaryDir dir;
        const QByteArray key = BerthdProcess::run({u"key"_s, u"create"_s, u"--data-dir"_s, dir.path()}).out.trimmed();
        QVERIFY(!key.isEmpty());
        BerthdProcess::setProgram(QStringLiteral(BERTHD_PATH));
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(u"BERTH_FAULT_POINT"_s, u"before-commit"_s);
        BerthdProcess server(dir.path());
        QVERIFY(server.start(environment));
        HttpTestClient client(server.port());
        const QJsonObject site {{u"slug"_s, u"no-faults"_s},
            {u"files"_s, QJsonArray {QJsonObject {{u"path"_s, u"index.html"_s}, {u"content"_s, u"ok"_s}}}}};
        QCOMPARE(client.api("POST", u"/deploy"_s, key, site).status, 200);
        QCOMPARE(client.site(u"no-faults"_s).body, QByteArray("ok"));
        BerthdProcess::setProgram(QStringLiteral(BERTHD_FAULTS_PATH));
    }

    // A rollback killed before its commit leaves the version that was live; killed right after it, the version
    // rolled back to. Either way one version is served whole.
    void killedRollbackLeavesOneWholeVersion()
    {
        QTemporaryDir dir;
        const QByteArray key = ownerKey(dir.path());
        QVERIFY(!key.isEmpty());
        const QString id = deployVersions(dir.path(), key, u"roll-crash"_s, {twoFiles("v2", u"b.css"_s, "b2")});
        QVERIFY(!id.isEmpty());
        const auto killedAt = [&](const QString &point) {
            QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
            environment.insert(u"BERTH_FAULT_POINT"_s, point);
            BerthdProcess server(dir.path());
            if (!server.start(environment))
                return false;
            HttpTestClient client(server.port());
            const auto interrupted
                = client.api("POST", u"/deploy/%1/rollback"_s.arg(id), key, QJsonObject {{u"version"_s, 1}});
            return interrupted.status == 0 && server.waitForExit(10000)
                && server.process().exitStatus() == QProcess::CrashExit;
        };
        const auto versionsAfterRestart = [&](QByteArray *index, QByteArray *a, QByteArray *b) {
            BerthdProcess server(dir.path());
            if (!server.start())
                return -1;
            HttpTestClient client(server.port());
            *index = client.site(u"roll-crash"_s).body;
            *a = client.site(u"roll-crash"_s, u"/a.css"_s).body;
            *b = client.site(u"roll-crash"_s, u"/b.css"_s).body;
            return int(client.api("GET", u"/deploy/%1/versions"_s.arg(id), key).json()[u"versions"_s].toArray().size());
        };

        QByteArray index, a, b;
        QVERIFY(killedAt(u"before-rollback-commit"_s));
        QCOMPARE(versionsAfterRestart(&index, &a, &b), 2);
        QCOMPARE(index, QByteArray("v2")); // version 2, whole
        QCOMPARE(b, QByteArray("b2"));
        QVERIFY(a.isEmpty() || !a.contains("a1"));

        QVERIFY(killedAt(u"after-rollback-commit"_s));
        QCOMPARE(versionsAfterRestart(&index, &a, &b), 3);
        QCOMPARE(index, QByteArray("v1")); // version 1 again, whole
        QCOMPARE(a, QByteArray("a1"));
        QVERIFY(b.isEmpty() || !b.contains("b2"));
    }
};

QTEST_GUILESS_MAIN(TestCrashSafety)
#include "tst_crashsafety.moc"
