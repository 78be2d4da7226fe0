// Blob garbage collection by BlobGarbage, as the deploy path tells it, over a real SQLite file and blob folder: after
// updates and deletions exactly the unreferenced blobs go, a blob two deployments share survives deleting one, and when
// the reference query fails nothing is removed.
#include "common/deployfiles.h"
#include "deploymentfixture.h"
#include "domain/common/clock.h"
#include "domain/deploy/blobgarbage.h"
#include "domain/deploy/deploymentservice.h"
#include "domain/deploy/siteloader.h"
#include "domain/deploy/versionhistory.h"
#include "domain/plans/plantable.h"
#include "domain/siterules/sitetable.h"
#include "storage/blobstore.h"
#include "storage/database.h"
#include "storage/deploymentrepository.h"
#include "storage/userrepository.h"

#include <QDirIterator>
#include <QSqlQuery>
#include <QtTest>

using namespace Qt::StringLiterals;
using namespace berth;
using berth::test::textUpload;

namespace {

const QDateTime T0(QDate(2026, 11, 23), QTime(12, 0), Qt::UTC);

QSet<QByteArray> blobsOnDisk(const QString &root)
{
    QSet<QByteArray> blobs;
    QDirIterator it(root, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QFileInfo file(it.next());
        if (!file.fileName().contains(u'.'))
            blobs.insert(file.dir().dirName().toLatin1() + file.fileName().toLatin1());
    }
    return blobs;
}

} // namespace

class TestGarbageCollection : public QObject
{
    Q_OBJECT

    std::unique_ptr<test::DeploymentFixture> m_fixture;

    template<typename T>
    static T wait(QFuture<T> future)
    {
        return test::DeploymentFixture::wait(std::move(future));
    }

    QString create(const QList<FileUpload> &files)
    {
        DeployRequest request;
        request.files = files;
        const auto result = wait(m_fixture->service().create(m_fixture->owner(), request));
        return result ? result.value().id : QString();
    }
    bool replace(const QString &id, const QList<FileUpload> &files)
    {
        DeployRequest request;
        request.files = files;
        return bool(wait(m_fixture->service().update(m_fixture->owner(), id, request)));
    }

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<test::DeploymentFixture>(
            User {u"usr_gc"_s, u"gc@example.com"_s, u"pro"_s, false, T0}, T0);
        QVERIFY(m_fixture->start());
    }
    void cleanup() { m_fixture.reset(); }

    void updatesAndDeletionsRemoveExactlyTheUnreferenced()
    {
        m_fixture->history().setVersionsKept(
            1); // only the served version: a replaced one goes at once (kept ones: below)
        const QString a = create({textUpload(u"index.html"_s, "shared"), textUpload(u"a.txt"_s, "a1")});
        const QString b = create({textUpload(u"index.html"_s, "shared"), textUpload(u"b.txt"_s, "b1")});
        QVERIFY(!a.isEmpty() && !b.isEmpty());
        QCOMPARE(blobsOnDisk(m_fixture->blobs().rootDir()),
            (QSet<QByteArray> {BlobStore::hashOf("shared"), BlobStore::hashOf("a1"), BlobStore::hashOf("b1")}));

        // a1 is replaced by a2; "shared" is still used by b (and by a's new version).
        QVERIFY(replace(a, {textUpload(u"index.html"_s, "shared"), textUpload(u"a.txt"_s, "a2")}));
        QCOMPARE(blobsOnDisk(m_fixture->blobs().rootDir()),
            (QSet<QByteArray> {BlobStore::hashOf("shared"), BlobStore::hashOf("a2"), BlobStore::hashOf("b1")}));

        // Deleting a keeps the blob b shares with it.
        QVERIFY(m_fixture->service().remove(m_fixture->owner(), a));
        QCOMPARE(blobsOnDisk(m_fixture->blobs().rootDir()),
            (QSet<QByteArray> {BlobStore::hashOf("shared"), BlobStore::hashOf("b1")}));
        QCOMPARE(m_fixture->service().get(m_fixture->owner(), b).value().id, b);
        QVERIFY(m_fixture->service().remove(m_fixture->owner(), b));
        QVERIFY(blobsOnDisk(m_fixture->blobs().rootDir()).isEmpty());
    }

    void keptVersionsHoldTheirBlobsUntilPruned()
    {
        m_fixture->history().setVersionsKept(2);
        const QString a = create({textUpload(u"index.html"_s, "shared"), textUpload(u"a.txt"_s, "a1")});
        QVERIFY(!a.isEmpty());
        QVERIFY(replace(a, {textUpload(u"index.html"_s, "shared"), textUpload(u"a.txt"_s, "a2")}));
        // Version 1 is kept: a1 is live for the collector.
        QCOMPARE(blobsOnDisk(m_fixture->blobs().rootDir()),
            (QSet<QByteArray> {BlobStore::hashOf("shared"), BlobStore::hashOf("a1"), BlobStore::hashOf("a2")}));
        QVERIFY(replace(a, {textUpload(u"index.html"_s, "shared"), textUpload(u"a.txt"_s, "a3")}));
        // Version 1 is pruned with its blob; "shared" stays, versions 2 and 3 name it.
        QCOMPARE(blobsOnDisk(m_fixture->blobs().rootDir()),
            (QSet<QByteArray> {BlobStore::hashOf("shared"), BlobStore::hashOf("a2"), BlobStore::hashOf("a3")}));
        // A rollback to version 2 makes version 4 (2's files) and keeps 3: version 2 goes, but its blobs are 4's.
        QVERIFY(m_fixture->history().rollback(m_fixture->owner(), a, 2));
        QCOMPARE(blobsOnDisk(m_fixture->blobs().rootDir()),
            (QSet<QByteArray> {BlobStore::hashOf("shared"), BlobStore::hashOf("a2"), BlobStore::hashOf("a3")}));
        QVERIFY(replace(a, {textUpload(u"index.html"_s, "shared"), textUpload(u"a.txt"_s, "a5")}));
        QCOMPARE(blobsOnDisk(m_fixture->blobs().rootDir()),
            (QSet<QByteArray> {BlobStore::hashOf("shared"), BlobStore::hashOf("a2"), BlobStore::hashOf("a5")}));
        // Deleting the deployment releases the blobs of every kept version.
        QVERIFY(m_fixture->service().remove(m_fixture->owner(), a));
        QVERIFY(blobsOnDisk(m_fixture->blobs().rootDir()).isEmpty());
    }

    void aRefusedDeployLeavesNothing()
    {
        PlanLimits one = m_fixture->plans().limits(m_fixture->owner().plan);
        one.deployments = 1;
        m_fixture->plans().setLimits(m_fixture->owner().plan, one);
        // Both pass the first check; one is refused at commit, after its blobs were stored.
        DeployRequest first;
        first.files = QList<FileUpload> {textUpload(u"index.html"_s, "first")};
        DeployRequest second;
        second.files = QList<FileUpload> {textUpload(u"index.html"_s, "second")};
        auto a = m_fixture->service().create(m_fixture->owner(), first);
        auto b = m_fixture->service().create(m_fixture->owner(), second);
        const bool firstWon = bool(wait(a));
        QCOMPARE(bool(wait(b)), !firstWon);
        QCOMPARE(blobsOnDisk(m_fixture->blobs().rootDir()),
            QSet<QByteArray> {BlobStore::hashOf(firstWon ? "first" : "second")});
    }

    void aFailedReferenceQueryRemovesNothing()
    {
        const QString a = create({textUpload(u"index.html"_s, "one"), textUpload(u"x.txt"_s, "x")});
        QVERIFY(!a.isEmpty());
        // The reference check meets a broken database: the files table has gone from under it.
        bool broken = false;
        m_fixture->faults().setHook([&](const char *point) {
            if (qstrcmp(point, "before-garbage-check") != 0 || broken)
                return;
            QSqlQuery query(m_fixture->database().connection());
            broken = query.exec(u"ALTER TABLE files RENAME TO files_away"_s);
        });
        QVERIFY(m_fixture->service().remove(m_fixture->owner(), a));
        QVERIFY(broken);
        QCOMPARE(blobsOnDisk(m_fixture->blobs().rootDir()),
            (QSet<QByteArray> {BlobStore::hashOf("one"), BlobStore::hashOf("x")}));

        // Repaired, the next collection removes what was postponed.
        QVERIFY(QSqlQuery(m_fixture->database().connection()).exec(u"ALTER TABLE files_away RENAME TO files"_s));
        const QString b = create({textUpload(u"index.html"_s, "two")});
        QVERIFY(m_fixture->service().remove(m_fixture->owner(), b));
        QVERIFY(blobsOnDisk(m_fixture->blobs().rootDir()).isEmpty());
    }

    void theStartSweepFailsClosed()
    {
        QVERIFY(!create({textUpload(u"index.html"_s, "kept")}).isEmpty());
        QVERIFY(m_fixture->blobs().put("orphan").ok()); // as a crash between storing and committing leaves it
        QVERIFY(QSqlQuery(m_fixture->database().connection()).exec(u"ALTER TABLE files RENAME TO files_away"_s));
        SiteTable sites;
        SiteLoader broken(m_fixture->repository(), m_fixture->blobs(), sites);
        BlobGarbage brokenGarbage(
            m_fixture->repository(), m_fixture->blobs(), sites, m_fixture->workers(), m_fixture->faults());
        broken.loadSites();
        brokenGarbage.sweepStore().waitForFinished();
        QCOMPARE(blobsOnDisk(m_fixture->blobs().rootDir()),
            (QSet<QByteArray> {BlobStore::hashOf("kept"), BlobStore::hashOf("orphan")}));

        QVERIFY(QSqlQuery(m_fixture->database().connection()).exec(u"ALTER TABLE files_away RENAME TO files"_s));
        SiteTable again;
        SiteLoader working(m_fixture->repository(), m_fixture->blobs(), again);
        BlobGarbage workingGarbage(
            m_fixture->repository(), m_fixture->blobs(), again, m_fixture->workers(), m_fixture->faults());
        QVERIFY(working.loadSites());
        workingGarbage.sweepStore().waitForFinished();
        QCOMPARE(blobsOnDisk(m_fixture->blobs().rootDir()), QSet<QByteArray> {BlobStore::hashOf("kept")});
    }
};

QTEST_GUILESS_MAIN(TestGarbageCollection)
#include "tst_garbagecollection.moc"
