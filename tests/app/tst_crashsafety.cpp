// A deploy interrupted by killing the process leaves the old version served after a restart, and
// the blobs it had already written are collected.
#include "berthdprocess.h"
#include "httptestclient.h"

#include <QDirIterator>
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
