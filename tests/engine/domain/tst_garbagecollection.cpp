// Blob garbage collection by DeploymentService over a real SQLite file and blob folder (issue 10): after updates and
// deletions exactly the unreferenced blobs go, a blob two deployments share survives deleting one, and when the
// reference query fails nothing is removed.
#include "domain/clock.h"
#include "domain/deploymentservice.h"
#include "domain/plantable.h"
#include "domain/sitetable.h"
#include "storage/blobstore.h"
#include "storage/database.h"
#include "storage/deploymentrepository.h"
#include "storage/userrepository.h"

#include <QDirIterator>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QtTest>

using namespace Qt::StringLiterals;
using namespace berth;

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

FileUpload upload(const QString &path, const QByteArray &content)
{
    return {path, content, "text/plain; charset=utf-8"};
}

} // namespace

class TestGarbageCollection : public QObject
{
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Database> m_db;
    std::unique_ptr<DeploymentRepository> m_repository;
    std::unique_ptr<BlobStore> m_blobs;
    std::unique_ptr<SiteTable> m_sites;
    std::unique_ptr<PlanTable> m_plans;
    std::unique_ptr<ManualClock> m_clock;
    std::unique_ptr<QThreadPool> m_workers;
    std::unique_ptr<DeploymentService> m_service;
    User m_owner {u"usr_gc"_s, u"gc@example.com"_s, u"pro"_s, false, T0};

    template<typename T>
    static T wait(QFuture<T> future)
    {
        const bool finished = QTest::qWaitFor([&] { return future.isFinished(); }, 30000);
        return finished ? future.result() : T();
    }

    QString create(const QList<FileUpload> &files)
    {
        DeployRequest request;
        request.files = files;
        const auto result = wait(m_service->create(m_owner, request));
        return result ? result.value().id : QString();
    }
    bool replace(const QString &id, const QList<FileUpload> &files)
    {
        DeployRequest request;
        request.files = files;
        return bool(wait(m_service->update(m_owner, id, request)));
    }

private Q_SLOTS:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        m_db = std::make_unique<Database>(m_dir->filePath(u"berth.sqlite"_s));
        QVERIFY(m_db->open());
        QVERIFY(UserRepository(*m_db).insert(m_owner));
        m_repository = std::make_unique<DeploymentRepository>(*m_db);
        m_blobs = std::make_unique<BlobStore>(m_dir->filePath(u"blobs"_s));
        QVERIFY(m_blobs->init());
        m_sites = std::make_unique<SiteTable>();
        m_plans = std::make_unique<PlanTable>();
        m_clock = std::make_unique<ManualClock>(T0);
        m_workers = std::make_unique<QThreadPool>();
        m_service
            = std::make_unique<DeploymentService>(*m_repository, *m_blobs, *m_sites, *m_plans, *m_clock, *m_workers);
        QVERIFY(m_service->loadSites());
    }
    void cleanup()
    {
        m_service.reset();
        m_workers.reset();
        m_repository.reset();
        m_db.reset();
        m_dir.reset();
    }

    void updatesAndDeletionsRemoveExactlyTheUnreferenced()
    {
        m_service->setVersionsKept(1); // only the served version: a replaced one goes at once (kept ones: below)
        const QString a = create({upload(u"index.html"_s, "shared"), upload(u"a.txt"_s, "a1")});
        const QString b = create({upload(u"index.html"_s, "shared"), upload(u"b.txt"_s, "b1")});
        QVERIFY(!a.isEmpty() && !b.isEmpty());
        QCOMPARE(blobsOnDisk(m_blobs->rootDir()),
            (QSet<QByteArray> {BlobStore::hashOf("shared"), BlobStore::hashOf("a1"), BlobStore::hashOf("b1")}));

        // a1 is replaced by a2; "shared" is still used by b (and by a's new version).
        QVERIFY(replace(a, {upload(u"index.html"_s, "shared"), upload(u"a.txt"_s, "a2")}));
        QCOMPARE(blobsOnDisk(m_blobs->rootDir()),
            (QSet<QByteArray> {BlobStore::hashOf("shared"), BlobStore::hashOf("a2"), BlobStore::hashOf("b1")}));

        // Deleting a keeps the blob b shares with it.
        QVERIFY(m_service->remove(m_owner, a));
        QCOMPARE(
            blobsOnDisk(m_blobs->rootDir()), (QSet<QByteArray> {BlobStore::hashOf("shared"), BlobStore::hashOf("b1")}));
        QCOMPARE(m_service->get(m_owner, b).value().id, b);
        QVERIFY(m_service->remove(m_owner, b));
        QVERIFY(blobsOnDisk(m_blobs->rootDir()).isEmpty());
    }

    void keptVersionsHoldTheirBlobsUntilPruned()
    {
        m_service->setVersionsKept(2);
        const QString a = create({upload(u"index.html"_s, "shared"), upload(u"a.txt"_s, "a1")});
        QVERIFY(!a.isEmpty());
        QVERIFY(replace(a, {upload(u"index.html"_s, "shared"), upload(u"a.txt"_s, "a2")}));
        // Version 1 is kept: a1 is live for the collector.
        QCOMPARE(blobsOnDisk(m_blobs->rootDir()),
            (QSet<QByteArray> {BlobStore::hashOf("shared"), BlobStore::hashOf("a1"), BlobStore::hashOf("a2")}));
        QVERIFY(replace(a, {upload(u"index.html"_s, "shared"), upload(u"a.txt"_s, "a3")}));
        // Version 1 is pruned with its blob; "shared" stays, versions 2 and 3 name it.
        QCOMPARE(blobsOnDisk(m_blobs->rootDir()),
            (QSet<QByteArray> {BlobStore::hashOf("shared"), BlobStore::hashOf("a2"), BlobStore::hashOf("a3")}));
        // A rollback to version 2 makes version 4 (2's files) and keeps 3: version 2 goes, but its blobs are 4's.
        QVERIFY(m_service->rollback(m_owner, a, 2));
        QCOMPARE(blobsOnDisk(m_blobs->rootDir()),
            (QSet<QByteArray> {BlobStore::hashOf("shared"), BlobStore::hashOf("a2"), BlobStore::hashOf("a3")}));
        QVERIFY(replace(a, {upload(u"index.html"_s, "shared"), upload(u"a.txt"_s, "a5")}));
        QCOMPARE(blobsOnDisk(m_blobs->rootDir()),
            (QSet<QByteArray> {BlobStore::hashOf("shared"), BlobStore::hashOf("a2"), BlobStore::hashOf("a5")}));
        // Deleting the deployment releases the blobs of every kept version.
        QVERIFY(m_service->remove(m_owner, a));
        QVERIFY(blobsOnDisk(m_blobs->rootDir()).isEmpty());
    }

    void aRefusedDeployLeavesNothing()
    {
        PlanLimits one = m_plans->limits(m_owner.plan);
        one.deployments = 1;
        m_plans->setLimits(m_owner.plan, one);
        // Both pass the first check; one is refused at commit, after its blobs were stored.
        DeployRequest first;
        first.files = QList<FileUpload> {upload(u"index.html"_s, "first")};
        DeployRequest second;
        second.files = QList<FileUpload> {upload(u"index.html"_s, "second")};
        auto a = m_service->create(m_owner, first);
        auto b = m_service->create(m_owner, second);
        const bool firstWon = bool(wait(a));
        QCOMPARE(bool(wait(b)), !firstWon);
        QCOMPARE(blobsOnDisk(m_blobs->rootDir()), QSet<QByteArray> {BlobStore::hashOf(firstWon ? "first" : "second")});
    }

    void aFailedReferenceQueryRemovesNothing()
    {
        const QString a = create({upload(u"index.html"_s, "one"), upload(u"x.txt"_s, "x")});
        QVERIFY(!a.isEmpty());
        // The reference check meets a broken database: the files table has gone from under it.
        bool broken = false;
        m_service->setFaultHook([&](const char *point) {
            if (qstrcmp(point, "before-garbage-check") != 0 || broken)
                return;
            QSqlQuery query(m_db->connection());
            broken = query.exec(u"ALTER TABLE files RENAME TO files_away"_s);
        });
        QVERIFY(m_service->remove(m_owner, a));
        QVERIFY(broken);
        QCOMPARE(
            blobsOnDisk(m_blobs->rootDir()), (QSet<QByteArray> {BlobStore::hashOf("one"), BlobStore::hashOf("x")}));

        // Repaired, the next collection removes what was postponed.
        QVERIFY(QSqlQuery(m_db->connection()).exec(u"ALTER TABLE files_away RENAME TO files"_s));
        const QString b = create({upload(u"index.html"_s, "two")});
        QVERIFY(m_service->remove(m_owner, b));
        QVERIFY(blobsOnDisk(m_blobs->rootDir()).isEmpty());
    }

    void theStartSweepFailsClosed()
    {
        QVERIFY(!create({upload(u"index.html"_s, "kept")}).isEmpty());
        QVERIFY(m_blobs->put("orphan").ok()); // as a crash between storing and committing leaves it
        QVERIFY(QSqlQuery(m_db->connection()).exec(u"ALTER TABLE files RENAME TO files_away"_s));
        SiteTable sites;
        DeploymentService broken(*m_repository, *m_blobs, sites, *m_plans, *m_clock, *m_workers);
        broken.loadSites();
        broken.sweepStore().waitForFinished();
        QCOMPARE(blobsOnDisk(m_blobs->rootDir()),
            (QSet<QByteArray> {BlobStore::hashOf("kept"), BlobStore::hashOf("orphan")}));

        QVERIFY(QSqlQuery(m_db->connection()).exec(u"ALTER TABLE files_away RENAME TO files"_s));
        SiteTable again;
        DeploymentService working(*m_repository, *m_blobs, again, *m_plans, *m_clock, *m_workers);
        QVERIFY(working.loadSites());
        working.sweepStore().waitForFinished();
        QCOMPARE(blobsOnDisk(m_blobs->rootDir()), QSet<QByteArray> {BlobStore::hashOf("kept")});
    }
};

QTEST_GUILESS_MAIN(TestGarbageCollection)
#include "tst_garbagecollection.moc"
