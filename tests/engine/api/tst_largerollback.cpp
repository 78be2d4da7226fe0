// Rollback of a site of thousands of files, over real HTTP: every file served again; on PostgreSQL the version's
// blobs are renewed in a few statements, not one for each; a version whose blob is gone from the store is refused and
// the live version stays.
#include "blobstatements.h"
#include "common/deployfiles.h"
#include "enginefixture.h"
#include "storage/postgresblobbackend.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QSqlQuery>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::base64File;
using berth::test::BlobStatementCount;
using berth::test::EngineFixture;
using berth::test::TestReply;
using berth::test::usesPostgres;

class TestLargeRollback : public QObject
{
    Q_OBJECT

    EngineFixture m_fixture;

    berth::test::HttpTestClient &client() { return m_fixture.client(); }
    static QByteArray page(int number) { return "<p>page " + QByteArray::number(number) + "</p>\n"; }
    static QString pathOf(int number) { return u"docs/%1/index.html"_s.arg(number); }
    static QByteArray sha(const QByteArray &content)
    {
        return QCryptographicHash::hash(content, QCryptographicHash::Sha256).toHex();
    }

    // A site of `count` pages, then an update to one page: the id, or empty when either failed.
    QString deployThenReplace(const QString &slug, int count)
    {
        QJsonArray files;
        for (int i = 0; i < count; ++i)
            files.append(base64File(pathOf(i), page(i)));
        const TestReply created = m_fixture.deployAsOwner({{u"slug"_s, slug}, {u"files"_s, files}});
        const QString id = created.json().value(u"id"_s).toString();
        if (created.status != 200 || id.isEmpty())
            return {};
        const TestReply updated = client().api("PUT", u"/deploy/"_s + id, m_fixture.ownerKey(),
            QJsonObject {{u"files"_s, QJsonArray {base64File(u"index.html"_s, "replaced")}}});
        if (updated.status != 200) {
            qWarning("update failed: %d %s", updated.status, updated.body.constData());
            return {};
        }
        return id;
    }
    TestReply rollback(const QString &id, int version)
    {
        return client().api(
            "POST", u"/deploy/%1/rollback"_s.arg(id), m_fixture.ownerKey(), QJsonObject {{u"version"_s, version}});
    }
    // Takes a blob out of the store as a damaged disk or database would: the file, and on PostgreSQL its rows.
    bool removeBlob(const QByteArray &hash)
    {
        const QString file = m_fixture.dataDir()
            + u"/blobs/%1/%2"_s.arg(QString::fromLatin1(hash.left(2)), QString::fromLatin1(hash.mid(2)));
        if (!QFile::remove(file))
            return false;
        if (!usesPostgres(m_fixture))
            return true;
        const auto database = m_fixture.database();
        if (!database->open())
            return false;
        QSqlQuery query(database->connection());
        query.prepare(u"DELETE FROM blob_chunks WHERE hash = ?"_s);
        query.addBindValue(QString::fromLatin1(hash));
        return query.exec() && query.numRowsAffected() > 0;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_fixture.start()); }

    void rollbackOfThousandsOfFilesServesEachAgain()
    {
        constexpr int kFiles = 2000;
        const QString id = deployThenReplace(u"many-pages"_s, kFiles);
        QVERIFY(!id.isEmpty());
        QCOMPARE(client().site(u"many-pages"_s, u'/' + pathOf(7)).status, 404);
        BlobStatementCount renewals(m_fixture, u"UPDATE"_s);
        const bool counted = usesPostgres(m_fixture);
        if (counted)
            QVERIFY(renewals.start());

        const TestReply rolled = rollback(id, 1);
        QCOMPARE(rolled.status, 200);
        if (counted) {
            // Renewed in groups (a statement for each PostgresBlobBackend::kGroupPieces blobs), not one by one.
            const int statements = renewals.count();
            qInfo() << "blob renewals on PostgreSQL:" << statements << "statements for" << kFiles << "blobs";
            QVERIFY2(statements >= 1 && statements <= kFiles / berth::PostgresBlobBackend::kGroupPieces + 1,
                qPrintable(QString::number(statements)));
        }
        for (int i = 0; i < kFiles; ++i) {
            const TestReply served = client().site(u"many-pages"_s, u'/' + pathOf(i));
            QCOMPARE(served.status, 200);
            QCOMPARE(served.body, page(i));
        }
        QCOMPARE(client().site(u"many-pages"_s, u"/index.html"_s).status, 404);
    }

    void rollbackToAVersionWithAMissingBlobIsRefused()
    {
        const QString id = deployThenReplace(u"damaged-version"_s, 300);
        QVERIFY(!id.isEmpty());
        QVERIFY(removeBlob(sha(page(123))));

        const TestReply refused = rollback(id, 1);
        QCOMPARE(refused.status, 500);
        QCOMPARE(refused.error(), u"Could not read the version"_s);
        QCOMPARE(client().site(u"damaged-version"_s).body, QByteArray("replaced"));
        QCOMPARE(client().site(u"damaged-version"_s, u'/' + pathOf(0)).status, 404);
        const TestReply versions = client().api("GET", u"/deploy/%1/versions"_s.arg(id), m_fixture.ownerKey());
        QCOMPARE(versions.json().value(u"versions"_s).toArray().size(), 2); // no version was added
    }
};

QTEST_GUILESS_MAIN(TestLargeRollback)
#include "tst_largerollback.moc"
