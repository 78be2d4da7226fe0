// Kept versions, rollback and uploads that name content by hash, over real HTTP.
#include "common/deployfiles.h"
#include "domain/deploy/deploymentservice.h"
#include "domain/deploy/versionhistory.h"
#include "enginefixture.h"

#include <QCryptographicHash>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::base64File;
using berth::test::EngineFixture;
using berth::test::TestReply;

class TestVersions : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineFixture> m_fixture;
    QByteArray m_key;

    berth::test::HttpTestClient &client() { return m_fixture->client(); }
    static QByteArray sha(const QByteArray &content)
    {
        return QCryptographicHash::hash(content, QCryptographicHash::Sha256).toHex();
    }
    static QJsonObject reference(const QString &path, const QByteArray &content)
    {
        return {{u"path"_s, path}, {u"sha256"_s, QString::fromLatin1(sha(content))}};
    }
    QString create(const QString &slug, const QJsonArray &files, const QByteArray &key = {})
    {
        const TestReply reply = client().api(
            "POST", u"/deploy"_s, key.isEmpty() ? m_key : key, QJsonObject {{u"slug"_s, slug}, {u"files"_s, files}});
        if (reply.status != 200)
            qWarning("create failed: %d %s", reply.status, reply.body.constData());
        return reply.json()[u"id"_s].toString();
    }
    TestReply put(const QString &id, const QJsonObject &body, const QByteArray &key = {})
    {
        return client().api("PUT", u"/deploy/"_s + id, key.isEmpty() ? m_key : key, body);
    }
    TestReply rollback(const QString &id, const QJsonValue &version, const QByteArray &key = {})
    {
        return client().api("POST", u"/deploy/%1/rollback"_s.arg(id), key.isEmpty() ? m_key : key,
            QJsonObject {{u"version"_s, version}});
    }
    QJsonArray versions(const QString &id)
    {
        const TestReply reply = client().api("GET", u"/deploy/%1/versions"_s.arg(id), m_key);
        if (reply.status != 200)
            qWarning("versions failed: %d %s", reply.status, reply.body.constData());
        return reply.json()[u"versions"_s].toArray();
    }
    bool blobOnDisk(const QByteArray &content) const
    {
        const QByteArray hash = sha(content);
        return QFile::exists(
            QDir(m_fixture->dataDir())
                .filePath(u"blobs/%1/%2"_s.arg(QString::fromLatin1(hash.left(2)), QString::fromLatin1(hash.mid(2)))));
    }

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<EngineFixture>();
        QVERIFY(m_fixture->start());
        m_key = m_fixture->ownerKey();
    }
    void cleanup() { m_fixture.reset(); }

    void updatesKeepTheLastNVersions()
    {
        QVERIFY(m_fixture->engine().setVersionsKept(3));
        const QString id = create(u"kept-site"_s, {base64File(u"index.html"_s, "v1")});
        QVERIFY(!id.isEmpty());
        for (int v = 2; v <= 5; ++v) // N + 2 deploys in all
            QCOMPARE(
                put(id, {{u"files"_s, QJsonArray {base64File(u"index.html"_s, "v" + QByteArray::number(v))}}}).status,
                200);
        const QJsonArray kept = versions(id);
        QCOMPARE(kept.size(), 3);
        QCOMPARE(kept.at(0)[u"version"_s].toInt(), 5); // newest first
        QCOMPARE(kept.at(1)[u"version"_s].toInt(), 4);
        QCOMPARE(kept.at(2)[u"version"_s].toInt(), 3);
        QVERIFY(kept.at(0)[u"live"_s].toBool());
        QVERIFY(!kept.at(1)[u"live"_s].toBool());
        QCOMPARE(kept.at(0)[u"file_count"_s].toInt(), 1);
        QCOMPARE(kept.at(0)[u"total_size"_s].toInt(), 2);
        QVERIFY(!kept.at(0)[u"created_at"_s].toString().isEmpty());
        // The blobs of kept versions stay; those of pruned ones are collected.
        QVERIFY(blobOnDisk("v3"));
        QVERIFY(blobOnDisk("v4"));
        QVERIFY(!blobOnDisk("v1"));
        QVERIFY(!blobOnDisk("v2"));

        // The setting persists.
        QVERIFY(m_fixture->restart());
        QCOMPARE(m_fixture->engine().history().versionsKept(), 3);
        QCOMPARE(versions(id).size(), 3);
    }

    void rollbackServesTheOldBytesExactly()
    {
        QByteArray binary;
        for (int i = 0; i < 4096; ++i)
            binary.append(char(i * 7));
        const QString id = create(u"roll-site"_s,
            {base64File(u"index.html"_s, "<title>First</title>one"), base64File(u"data.bin"_s, binary)});
        QCOMPARE(put(id,
                     {{u"files"_s, QJsonArray {base64File(u"index.html"_s, "<title>Second</title>two")}},
                         {u"description"_s, u"later"_s}})
                     .status,
            200);
        QCOMPARE(client().site(u"roll-site"_s, u"/data.bin"_s).status, 404);

        const TestReply rolled = rollback(id, 1);
        QCOMPARE(rolled.status, 200);
        QCOMPARE(rolled.json()[u"id"_s].toString(), id);
        QCOMPARE(client().site(u"roll-site"_s, u"/data.bin"_s).body, binary);
        QVERIFY(client().site(u"roll-site"_s).body.contains("one"));
        const QJsonObject deployment = client().api("GET", u"/deploy/"_s + id, m_key).json();
        QCOMPARE(deployment[u"title"_s].toString(), u"First"_s);
        QVERIFY(deployment[u"description"_s].isNull());

        const QJsonArray kept = versions(id);
        QCOMPARE(kept.size(), 3); // the rollback is a new version
        QCOMPARE(kept.at(0)[u"version"_s].toInt(), 3);
        QVERIFY(kept.at(0)[u"live"_s].toBool());
        QCOMPARE(kept.at(0)[u"file_count"_s].toInt(), 2);
        QCOMPARE(kept.at(0)[u"title"_s].toString(), u"First"_s);

        // And forward again.
        QCOMPARE(rollback(id, 2).status, 200);
        QVERIFY(client().site(u"roll-site"_s).body.contains("two"));
    }

    void rollbackRefusals()
    {
        const QString id = create(u"mine-only"_s, {base64File(u"index.html"_s, "mine")});
        const QByteArray other = m_fixture->keyFor(u"other@example.com"_s);
        const TestReply foreign = rollback(id, 1, other);
        QCOMPARE(foreign.status, 404);
        QCOMPARE(foreign.error(), u"Deployment not found"_s);
        QCOMPARE(client().api("GET", u"/deploy/%1/versions"_s.arg(id), other).status, 404);
        QCOMPARE(rollback(u"dep_missing"_s, 1).status, 404);

        const TestReply unknown = rollback(id, 7);
        QCOMPARE(unknown.status, 404);
        QCOMPARE(unknown.error(), u"Version not found"_s);
        QCOMPARE(rollback(id, 0).status, 400);
        QCOMPARE(rollback(id, 1.5).status, 400);
        QCOMPARE(rollback(id, u"1"_s).error(), u"\"version\" must be a positive integer"_s);
        QCOMPARE(client().api("POST", u"/deploy/%1/rollback"_s.arg(id), m_key, QJsonObject {}).error(),
            u"version is required"_s);
        QCOMPARE(client().site(u"mine-only"_s).body, QByteArray("mine"));
    }

    void hashOnlyEntriesReuseHeldContent()
    {
        QByteArray big(3 * 1024 * 1024, 'x');
        const QString id
            = create(u"incremental-site"_s, {base64File(u"index.html"_s, "v1"), base64File(u"big.bin"_s, big)});
        const QJsonObject body {
            {u"files"_s, QJsonArray {base64File(u"index.html"_s, "v2"), reference(u"big.bin"_s, big)}}};
        const QByteArray sent = QJsonDocument(body).toJson(QJsonDocument::Compact);
        QVERIFY(sent.size() < 300); // one small file and a hash: none of the 3 MB travel again
        const TestReply reply = client().api("PUT", u"/deploy/"_s + id, m_key, sent);
        QCOMPARE(reply.status, 200);
        QCOMPARE(client().site(u"incremental-site"_s).body, QByteArray("v2"));
        QCOMPARE(client().site(u"incremental-site"_s, u"/big.bin"_s).body, big);
        QCOMPARE(versions(id).at(0)[u"total_size"_s].toInteger(), big.size() + 2);
        // A new site may also name what another of this user's sites holds.
        QVERIFY(!create(u"incremental-two"_s, {reference(u"index.html"_s, "v1")}).isEmpty());
        QCOMPARE(client().site(u"incremental-two"_s).body, QByteArray("v1"));
    }

    void missingContentIsA409AndChangesNothing()
    {
        const QString id = create(u"missing-site"_s, {base64File(u"index.html"_s, "old"), base64File(u"a.css"_s, "a")});
        const QJsonObject body {{u"files"_s,
            QJsonArray {reference(u"index.html"_s, "new"), reference(u"a.css"_s, "a"), reference(u"b/c.js"_s, "c"),
                base64File(u"d.txt"_s, "d")}}};
        const TestReply reply = put(id, body);
        QCOMPARE(reply.status, 409);
        QCOMPARE(reply.json(),
            (QJsonObject {
                {u"error"_s, u"Missing file contents"_s}, {u"missing"_s, QJsonArray {u"index.html"_s, u"b/c.js"_s}}}));
        QCOMPARE(client().site(u"missing-site"_s).body, QByteArray("old"));
        QCOMPARE(client().site(u"missing-site"_s, u"/d.txt"_s).status, 404);
        QCOMPARE(versions(id).size(), 1);
        QVERIFY(!blobOnDisk("d")); // nothing was stored for the refused deploy

        const TestReply created = client().api(
            "POST", u"/deploy"_s, m_key, QJsonObject {{u"files"_s, QJsonArray {reference(u"index.html"_s, "zz")}}});
        QCOMPARE(created.status, 409);
        QCOMPARE(created.json()[u"missing"_s].toArray(), QJsonArray {u"index.html"_s});

        QCOMPARE(
            put(id, {{u"files"_s, QJsonArray {QJsonObject {{u"path"_s, u"x"_s}, {u"sha256"_s, u"abc"_s}}}}}).status,
            400);
        QCOMPARE(put(id,
                     {{u"files"_s,
                         QJsonArray {QJsonObject {{u"path"_s, u"x"_s}, {u"content"_s, u"x"_s},
                             {u"sha256"_s, QString::fromLatin1(sha("x"))}}}}})
                     .status,
            400);
    }

    void anotherUsersBlobIsMissing()
    {
        const QByteArray secret = "the other user's private page";
        const QByteArray other = m_fixture->keyFor(u"other@example.com"_s);
        QVERIFY(!create(u"private-one"_s, {base64File(u"index.html"_s, secret)}, other).isEmpty());
        QVERIFY(blobOnDisk(secret));

        const QString mine = create(u"mine-site"_s, {base64File(u"index.html"_s, "mine")});
        const TestReply stolen = put(mine, {{u"files"_s, QJsonArray {reference(u"index.html"_s, secret)}}});
        QCOMPARE(stolen.status, 409);
        QCOMPARE(stolen.json()[u"missing"_s].toArray(), QJsonArray {u"index.html"_s});
        QCOMPARE(client().site(u"mine-site"_s).body, QByteArray("mine"));
        // Once this user uploads the content, it is theirs to name.
        QCOMPARE(put(mine, {{u"files"_s, QJsonArray {base64File(u"index.html"_s, secret)}}}).status, 200);
        QCOMPARE(
            put(mine, {{u"files"_s, QJsonArray {reference(u"index.html"_s, secret), base64File(u"x"_s, "x")}}}).status,
            200);
    }

    void limitsCountTheFullSize()
    {
        const QByteArray tenMiB(10 * 1024 * 1024, 'q');
        const QString id
            = create(u"limit-site"_s, {base64File(u"index.html"_s, "i"), base64File(u"big.bin"_s, tenMiB)});
        QVERIFY(!id.isEmpty());
        QJsonArray files {base64File(u"index.html"_s, "i")};
        for (int i = 0; i < 6; ++i) // 60 MiB named in a body of a few hundred bytes
            files.append(reference(u"copy%1.bin"_s.arg(i), tenMiB));
        const TestReply reply = put(id, {{u"files"_s, files}});
        QCOMPARE(reply.status, 413);
        QCOMPARE(reply.error(), u"Total deployment size exceeds the 50 MB limit"_s);
        QCOMPARE(versions(id).size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestVersions)
#include "tst_versions.moc"
