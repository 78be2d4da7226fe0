// Two nodes on one PostgreSQL database, each with a data folder of its own (issue 16): what is deployed through one
// is served by the other, whose folder starts empty and fills as a cache from the database's chunks.
#include "common/enginefixture.h"
#include "common/httptestclient.h"
#include "common/postgrescluster.h"
#include "engine.h"

#include <QDirIterator>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

using namespace Qt::StringLiterals;
using namespace berth;
using namespace berth::test;

namespace {

QJsonObject file(const QString &path, const QByteArray &content)
{
    return {{u"path"_s, path}, {u"content"_s, QString::fromLatin1(content.toBase64())}, {u"encoding"_s, u"base64"_s}};
}

int filesUnder(const QString &folder)
{
    int count = 0;
    QDirIterator it(folder, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        ++count;
    }
    return count;
}

} // namespace

class TestSharedBlobs final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QString socketFolder = qEnvironmentVariable(PostgresCluster::kEnvironmentVariable);
        if (socketFolder.isEmpty()) {
            m_cluster = std::make_unique<PostgresCluster>();
            QString error;
            QVERIFY2(m_cluster->start(&error), qPrintable(error));
            socketFolder = m_cluster->socketFolder();
        }
        m_database = std::make_unique<PostgresTestDatabase>(socketFolder);
        QString error;
        QVERIFY2(m_database->create(&error), qPrintable(error));

        m_big.resize(10 * 1024 * 1024); // 10 chunks in the database, streamed from B's cache
        quint32 state = 12345;
        for (qsizetype i = 0; i < m_big.size(); ++i) {
            state = state * 1664525u + 1013904223u;
            m_big[i] = char(state >> 24);
        }
    }
    void cleanupTestCase()
    {
        m_b.reset();
        m_a.reset();
        m_database.reset();
        m_cluster.reset();
    }

    void filesDeployedThroughOneNodeAreServedByTheOther()
    {
        m_a = std::make_unique<EngineFixture>();
        EngineSettings settings;
        settings.databaseUrl = m_database->url();
        QVERIFY(m_a->start(settings));
        const auto deployed = m_a->client().api("POST", u"/deploy"_s, m_a->ownerKey(),
            QJsonObject {{u"slug"_s, u"shared-site"_s},
                {u"files"_s,
                    QJsonArray {file(u"index.html"_s, "<h1>from A</h1>"), file(u"style.css"_s, m_css),
                        file(u"big.bin"_s, m_big), file(u"_redirects"_s, "/old /index.html 301\n")}}});
        QVERIFY2(deployed.status == 200, deployed.body.constData());

        // Node B starts after the deploy (it learns of deployments at its start) with an empty folder of its own.
        QTemporaryDir folderB;
        EngineSettings settingsB;
        settingsB.dataDir = folderB.path();
        settingsB.databaseUrl = m_database->url();
        settingsB.listenPort = 0;
        settingsB.servingThreads = 2;
        m_b = std::make_unique<Engine>(settingsB);
        const Result<void> started = m_b->start();
        QVERIFY2(started.ok(), started.ok() ? "" : qPrintable(started.error().message));
        const QString blobsB = folderB.filePath(u"blobs"_s);
        // Nothing yet: at start a site is a placeholder, its files (the rules file too) read on its first request.
        QCOMPARE(filesUnder(blobsB), 0);

        HttpTestClient client(m_b->port());
        TestReply reply = client.site(u"shared-site"_s, u"/"_s);
        QCOMPARE(reply.status, 200);
        QCOMPARE(reply.body, QByteArray("<h1>from A</h1>"));
        reply = client.site(u"shared-site"_s, u"/style.css"_s, "GET", {{"Accept-Encoding", "identity"}});
        QCOMPARE(reply.status, 200);
        QCOMPARE(reply.body, m_css);
        reply = client.site(u"shared-site"_s, u"/big.bin"_s);
        QCOMPARE(reply.status, 200);
        QCOMPARE(reply.body.size(), m_big.size());
        QVERIFY(reply.body == m_big);
        // A range of the large file, now from B's cache.
        reply = client.site(u"shared-site"_s, u"/big.bin"_s, "GET", {{"Range", "bytes=5242880-5242889"}});
        QCOMPARE(reply.status, 206);
        QCOMPARE(reply.body, m_big.mid(5242880, 10));
        reply = client.site(u"shared-site"_s, u"/old"_s); // the rules file came from the database too
        QCOMPARE(reply.status, 301);
        QVERIFY(reply.header("location").endsWith("/index.html"));
        QCOMPARE(filesUnder(blobsB), 4);
    }

private:
    std::unique_ptr<PostgresCluster> m_cluster;
    std::unique_ptr<PostgresTestDatabase> m_database;
    std::unique_ptr<EngineFixture> m_a;
    std::unique_ptr<Engine> m_b;
    QByteArray m_css = QByteArray("body { color: teal; }\n").repeated(100);
    QByteArray m_big;
};

QTEST_GUILESS_MAIN(TestSharedBlobs)
#include "tst_sharedblobs.moc"
