// Two nodes on one PostgreSQL database, each with a data folder of its own: what is deployed through one
// is served by the other, whose folder starts empty and fills as a cache from the database's chunks.
#include "common/deployfiles.h"
#include "common/enginefixture.h"
#include "common/gunzip.h"
#include "common/httptestclient.h"
#include "common/postgrescluster.h"
#include "common/twonodes.h"
#include "instance/engine.h"
#include "storage/blobstore.h"
#include "storage/database.h"

#include <QJsonArray>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

using namespace Qt::StringLiterals;
using namespace berth;
using namespace berth::test;

class TestSharedBlobs final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_nodes.createDatabase(&error), qPrintable(error));

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
        m_b.reset(); // before the database it uses, which m_nodes drops
    }

    void filesDeployedThroughOneNodeAreServedByTheOther()
    {
        QVERIFY(startNodeA());
        QVERIFY(deployThroughA(u"shared-site"_s,
            QJsonArray {base64File(u"index.html"_s, "<h1>from A</h1>"), base64File(u"style.css"_s, m_css),
                base64File(u"big.bin"_s, m_big), base64File(u"_redirects"_s, "/old /index.html 301\n")}));

        // Node B starts after the deploy (it learns of deployments at its start) with an empty folder of its own.
        QTemporaryDir folderB;
        m_b = m_nodes.startNode(folderB.path());
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
        // Four files, and none of style.css's variants: it was asked for as it is, and a variant is fetched only for a
        // request that chooses it.
        QCOMPARE(filesUnder(blobsB), 4);
        reply = client.site(u"shared-site"_s, u"/style.css"_s, "GET", {{"Accept-Encoding", "gzip"}});
        QCOMPARE(reply.header("content-encoding"), QByteArray("gzip"));
        QVERIFY(gunzip(reply.body) == m_css);
        QCOMPARE(filesUnder(blobsB), 5);
    }

    void compressedVariantsAreServedByANodeWithoutTheFiles()
    {
        QVERIFY(startNodeA());
        const QByteArray script = QByteArray("function greet(name) { return 'Hello, ' + name; }\n").repeated(200);
        QVERIFY(deployThroughA(u"zipped-site"_s,
            QJsonArray {base64File(u"index.html"_s, "<h1>zipped</h1>"), base64File(u"app.js"_s, script)}));
        const TestReply zippedByA
            = m_nodes.a().client().site(u"zipped-site"_s, u"/app.js"_s, "GET", {{"Accept-Encoding", "gzip"}});
        const TestReply plainByA
            = m_nodes.a().client().site(u"zipped-site"_s, u"/app.js"_s, "GET", {{"Accept-Encoding", "identity"}});
        QCOMPARE(zippedByA.header("content-encoding"), QByteArray("gzip"));

        // C starts with an empty folder: the variant's size and bytes come from the database.
        QTemporaryDir folder;
        const auto c = m_nodes.startNode(folder.path());
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
        QVERIFY(m_nodes.a().engine().setVersionsKept(1));
        const QByteArray first = "first version, replaced twice";
        const QByteArray second = "second version, replaced once";
        QVERIFY(deployThroughA(u"grace-site"_s, QJsonArray {base64File(u"index.html"_s, first)}));
        const QString id = m_deployed.value(u"grace-site"_s);
        QVERIFY(updateThroughA(id, QJsonArray {base64File(u"index.html"_s, second)}));
        QCOMPARE(chunksOf(first), 1); // unreferenced, but stored moments ago
        QVERIFY(!QFile::exists(blobPathInA(first))); // the folder is only a cache

        QVERIFY(ageChunks(first)); // stored two hours ago: past the grace, on the database's clock
        QVERIFY(updateThroughA(id, QJsonArray {base64File(u"index.html"_s, "third version")}));
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
        QVERIFY(deployThroughA(u"reuse-site"_s,
            QJsonArray {base64File(u"index.html"_s, "<p>one</p>"), base64File(u"style.css"_s, style)}));
        QVERIFY(QFile::exists(blobPathInA(style)));
        QVERIFY(execute(u"DELETE FROM blob_chunks WHERE hash = '%1'"_s.arg(QLatin1String(BlobStore::hashOf(style)))));

        const QJsonObject reference {
            {u"path"_s, u"style.css"_s}, {u"sha256"_s, QString::fromLatin1(BlobStore::hashOf(style))}};
        TestReply reply = m_nodes.a().client().api("POST", u"/deploy"_s, m_nodes.a().ownerKey(),
            QJsonObject {{u"slug"_s, u"reuse-site-2"_s},
                {u"files"_s, QJsonArray {base64File(u"index.html"_s, "<p>two</p>"), reference}}});
        QCOMPARE(reply.status, 409);
        QCOMPARE(reply.json()[u"missing"_s].toArray(), QJsonArray {u"style.css"_s});
        QVERIFY(deployThroughA(u"reuse-site-2"_s,
            QJsonArray {base64File(u"index.html"_s, "<p>two</p>"), base64File(u"style.css"_s, style)}));
        QCOMPARE(chunksOf(style), 1);
    }

private:
    bool startNodeA() { return m_nodes.startA(); }
    bool deployThroughA(const QString &slug, const QJsonArray &files)
    {
        const TestReply reply = m_nodes.deployThroughA(slug, files);
        m_deployed.insert(slug, reply.json()[u"id"_s].toString());
        return reply.status == 200;
    }
    bool updateThroughA(const QString &id, const QJsonArray &files)
    {
        const TestReply reply = m_nodes.a().client().api(
            "PUT", u"/deploy/"_s + id, m_nodes.a().ownerKey(), QJsonObject {{u"files"_s, files}});
        if (reply.status != 200)
            qWarning("update failed: %d %s", reply.status, reply.body.constData());
        return reply.status == 200;
    }
    QString blobPathInA(const QByteArray &content) const
    {
        const QByteArray hash = BlobStore::hashOf(content);
        return m_nodes.a().dataDir() + u"/blobs/"_s + QLatin1String(hash.left(2)) + u'/' + QLatin1String(hash.mid(2));
    }
    Database &database()
    {
        if (!m_db) {
            m_db = std::make_unique<Database>(QString(), m_nodes.databaseUrl());
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

    TwoNodes m_nodes;
    std::unique_ptr<Engine> m_b;
    std::unique_ptr<Database> m_db;
    QHash<QString, QString> m_deployed; // deployment ids by slug
    QByteArray m_css = QByteArray("body { color: teal; }\n").repeated(100);
    QByteArray m_big;
};

QTEST_GUILESS_MAIN(TestSharedBlobs)
#include "tst_sharedblobs.moc"
