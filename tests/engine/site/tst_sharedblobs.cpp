// Two nodes on one PostgreSQL database, each with a data folder of its own (issue 16): what is deployed through one
// is served by the other, whose folder starts empty and fills as a cache from the database's chunks.
#include "common/enginefixture.h"
#include "common/gunzip.h"
#include "common/httptestclient.h"
#include "common/postgrescluster.h"
#include "engine.h"
#include "storage/blobstore.h"
#include "storage/database.h"

#include <QDirIterator>
#include <QJsonArray>
#include <QSqlQuery>
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
        QString error;
        const QString socketFolder = PostgresCluster::fixtureOrOwn(m_cluster, &error);
        QVERIFY2(!socketFolder.isEmpty(), qPrintable(error));
        m_database = std::make_unique<PostgresTestDatabase>(socketFolder);
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
        m_db.reset();
        m_b.reset();
        m_a.reset();
        m_database.reset();
        m_cluster.reset();
    }

    void filesDeployedThroughOneNodeAreServedByTheOther()
    {
        QVERIFY(startNodeA());
        QVERIFY(deployThroughA(u"shared-site"_s,
            QJsonArray {file(u"index.html"_s, "<h1>from A</h1>"), file(u"style.css"_s, m_css),
                file(u"big.bin"_s, m_big), file(u"_redirects"_s, "/old /index.html 301\n")}));

        // Node B starts after the deploy (it learns of deployments at its start) with an empty folder of its own.
        QTemporaryDir folderB;
        m_b = startNode(folderB);
        QVERIFY(m_b);
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
        // Four files, and the gzip variant of style.css: B learnt of it from the database and fetched it with it.
        QCOMPARE(filesUnder(blobsB), 5);
    }

    void compressedVariantsAreServedByANodeWithoutTheFiles()
    {
        QVERIFY(startNodeA());
        const QByteArray script = QByteArray("function greet(name) { return 'Hello, ' + name; }\n").repeated(200);
        QVERIFY(deployThroughA(
            u"zipped-site"_s, QJsonArray {file(u"index.html"_s, "<h1>zipped</h1>"), file(u"app.js"_s, script)}));
        const TestReply zippedByA
            = m_a->client().site(u"zipped-site"_s, u"/app.js"_s, "GET", {{"Accept-Encoding", "gzip"}});
        const TestReply plainByA
            = m_a->client().site(u"zipped-site"_s, u"/app.js"_s, "GET", {{"Accept-Encoding", "identity"}});
        QCOMPARE(zippedByA.header("content-encoding"), QByteArray("gzip"));

        // C starts with an empty folder: the variant's size and bytes come from the database.
        QTemporaryDir folder;
        const auto c = startNode(folder);
        QVERIFY(c);
        HttpTestClient client(c->port());
        const TestReply zipped = client.site(u"zipped-site"_s, u"/app.js"_s, "GET", {{"Accept-Encoding", "gzip"}});
        QCOMPARE(zipped.status, 200);
        QCOMPARE(zipped.header("content-encoding"), QByteArray("gzip"));
        QCOMPARE(zipped.header("vary"), QByteArray("Accept-Encoding"));
        QCOMPARE(zipped.header("etag"), zippedByA.header("etag"));
        QCOMPARE(zipped.header("content-length"), QByteArray::number(zipped.body.size()));
        QCOMPARE(zipped.header("content-length"), zippedByA.header("content-length"));
        QVERIFY(zipped.body.size() < script.size() / 4);
        QVERIFY(gunzip(zipped.body) == script);

        const TestReply plain = client.site(u"zipped-site"_s, u"/app.js"_s, "GET", {{"Accept-Encoding", "identity"}});
        QCOMPARE(plain.status, 200);
        QVERIFY(plain.header("content-encoding").isEmpty());
        QCOMPARE(plain.header("vary"), QByteArray("Accept-Encoding"));
        QCOMPARE(plain.header("etag"), plainByA.header("etag"));
        QVERIFY(plain.body == script);
    }

    void blobsOfAReplacedVersionLeaveTheDatabaseAfterTheirGrace()
    {
        // Another node may be about to commit a deploy with content that this one just stopped using: the database
        // keeps it for a while, and a later collection removes it.
        QVERIFY(startNodeA());
        QVERIFY(m_a->engine().setVersionsKept(1));
        const QByteArray first = "first version, replaced twice";
        const QByteArray second = "second version, replaced once";
        QVERIFY(deployThroughA(u"grace-site"_s, QJsonArray {file(u"index.html"_s, first)}));
        const QString id = m_deployed.value(u"grace-site"_s);
        QVERIFY(updateThroughA(id, QJsonArray {file(u"index.html"_s, second)}));
        QCOMPARE(chunksOf(first), 1); // unreferenced, but stored moments ago
        QVERIFY(!QFile::exists(blobPathInA(first))); // the folder is only a cache

        QVERIFY(ageChunks(first)); // stored two hours ago: past the grace, on the database's clock
        QVERIFY(updateThroughA(id, QJsonArray {file(u"index.html"_s, "third version")}));
        QCOMPARE(chunksOf(first), 0);
        QCOMPARE(chunksOf(second), 1); // replaced too, but its grace counts from the second deploy
    }

    void aReferenceToContentTheDatabaseLostIsRefused()
    {
        // A deploy may name content this user's deployments hold by its hash alone. Should another node have removed
        // it from the database meanwhile (this node's folder may still hold a copy), the deploy asks for the content
        // rather than commit a version whose file no node could fetch.
        QVERIFY(startNodeA());
        const QByteArray style = "p { margin: 0 }";
        QVERIFY(deployThroughA(
            u"reuse-site"_s, QJsonArray {file(u"index.html"_s, "<p>one</p>"), file(u"style.css"_s, style)}));
        QVERIFY(QFile::exists(blobPathInA(style)));
        QVERIFY(execute(u"DELETE FROM blob_chunks WHERE hash = '%1'"_s.arg(QLatin1String(BlobStore::hashOf(style)))));

        const QJsonObject reference {
            {u"path"_s, u"style.css"_s}, {u"sha256"_s, QString::fromLatin1(BlobStore::hashOf(style))}};
        TestReply reply = m_a->client().api("POST", u"/deploy"_s, m_a->ownerKey(),
            QJsonObject {{u"slug"_s, u"reuse-site-2"_s},
                {u"files"_s, QJsonArray {file(u"index.html"_s, "<p>two</p>"), reference}}});
        QCOMPARE(reply.status, 409);
        QCOMPARE(reply.json()[u"missing"_s].toArray(), QJsonArray {u"style.css"_s});
        QVERIFY(deployThroughA(
            u"reuse-site-2"_s, QJsonArray {file(u"index.html"_s, "<p>two</p>"), file(u"style.css"_s, style)}));
        QCOMPARE(chunksOf(style), 1);
    }

private:
    bool startNodeA()
    {
        if (m_a)
            return true;
        m_a = std::make_unique<EngineFixture>();
        EngineSettings settings;
        settings.databaseUrl = m_database->url();
        return m_a->start(settings);
    }
    bool deployThroughA(const QString &slug, const QJsonArray &files)
    {
        const TestReply reply = m_a->client().api(
            "POST", u"/deploy"_s, m_a->ownerKey(), QJsonObject {{u"slug"_s, slug}, {u"files"_s, files}});
        if (reply.status != 200)
            qWarning("deploy failed: %d %s", reply.status, reply.body.constData());
        m_deployed.insert(slug, reply.json()[u"id"_s].toString());
        return reply.status == 200;
    }
    bool updateThroughA(const QString &id, const QJsonArray &files)
    {
        const TestReply reply
            = m_a->client().api("PUT", u"/deploy/"_s + id, m_a->ownerKey(), QJsonObject {{u"files"_s, files}});
        if (reply.status != 200)
            qWarning("update failed: %d %s", reply.status, reply.body.constData());
        return reply.status == 200;
    }
    // Another node on the database, with an empty data folder of its own.
    std::unique_ptr<Engine> startNode(const QTemporaryDir &folder) const
    {
        EngineSettings settings;
        settings.dataDir = folder.path();
        settings.databaseUrl = m_database->url();
        settings.listenPort = 0;
        settings.servingThreads = 2;
        auto node = std::make_unique<Engine>(settings);
        const Result<void> started = node->start();
        if (!started) {
            qWarning("%s", qPrintable(started.error().message));
            return nullptr;
        }
        return node;
    }
    QString blobPathInA(const QByteArray &content) const
    {
        const QByteArray hash = BlobStore::hashOf(content);
        return m_a->dataDir() + u"/blobs/"_s + QLatin1String(hash.left(2)) + u'/' + QLatin1String(hash.mid(2));
    }
    Database &database()
    {
        if (!m_db) {
            m_db = std::make_unique<Database>(QString(), m_database->url());
            if (!m_db->open())
                qWarning("cannot open the test database");
        }
        return *m_db;
    }
    int chunksOf(const QByteArray &content)
    {
        QSqlQuery query(database().connection());
        if (!query.exec(
                u"SELECT COUNT(*) FROM blob_chunks WHERE hash = '%1'"_s.arg(QLatin1String(BlobStore::hashOf(content))))
            || !query.next())
            return -1;
        return query.value(0).toInt();
    }
    bool execute(const QString &statement)
    {
        QSqlQuery query(database().connection());
        return query.exec(statement);
    }
    bool ageChunks(const QByteArray &content)
    {
        return execute(u"UPDATE blob_chunks SET stored_at = now() - interval '2 hours' WHERE hash = '%1'"_s.arg(
            QLatin1String(BlobStore::hashOf(content))));
    }

    std::unique_ptr<PostgresCluster> m_cluster;
    std::unique_ptr<PostgresTestDatabase> m_database;
    std::unique_ptr<EngineFixture> m_a;
    std::unique_ptr<Engine> m_b;
    std::unique_ptr<Database> m_db;
    QHash<QString, QString> m_deployed; // deployment ids by slug
    QByteArray m_css = QByteArray("body { color: teal; }\n").repeated(100);
    QByteArray m_big;
};

QTEST_GUILESS_MAIN(TestSharedBlobs)
#include "tst_sharedblobs.moc"
