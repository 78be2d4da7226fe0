// Removing blobs from the PostgreSQL chunk store: referenced and recently stored blobs are spared, a removal racing
// a store never loses it, and the sweep of what no deployment references.
#include "common/resultassert.h"
#include "pgblobfixture.h"
#include "storage/deploymentrepository.h"
#include "storage/userrepository.h"

#include <QSemaphore>
#include <QTest>
#include <QThreadPool>

using namespace Qt::StringLiterals;
using namespace berth;
using namespace berth::test;

class TestPgBlobRemoval final : public QObject, private PgBlobStoreFixture
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { startCluster(); }
    void init() { setUpDatabase(); }
    void cleanup() { tearDownDatabase(); }
    void cleanupTestCase() { stopCluster(); }

    void removalRemovesBoth()
    {
        const QByteArray hash = m_a->put(content(5, 2 * kMiB)).value();
        BERTH_VERIFY_OK(m_a->putVariant(hash, "gz", "z"));
        BERTH_VERIFY_OK(m_b->fetch(hash));
        QVERIFY(age());
        QCOMPARE(m_a->remove(hash, {"gz"}), BlobStore::Removal::Removed);
        QVERIFY(!QFile::exists(m_a->pathOf(hash)));
        QVERIFY(m_a->variantPathOf(hash, "gz").isEmpty());
        QCOMPARE(rows(u"SELECT COUNT(*) FROM blob_chunks"_s), 0);
        QVERIFY(!m_a->contains(hash));
        // A third node can no longer get it; B's copy stays until B's own collection.
        auto c = makeStore(u"c"_s, 64 * kMiB);
        QVERIFY(!c->fetch(hash).ok());
        QVERIFY(c->read(hash).isEmpty());
    }

    void removalSparesAReferencedBlob()
    {
        const QByteArray data = content(40, 100);
        const QByteArray hash = m_a->put(data).value();
        BERTH_VERIFY_OK(m_a->putVariant(hash, "gz", "z"));
        const QByteArray other = m_a->put(content(41, 100)).value();
        // A deploy of another node committed a file list with it.
        BERTH_VERIFY_OK(
            UserRepository(*m_db).insert({u"usr_a"_s, {}, u"free"_s, false, QDateTime::currentDateTimeUtc()}));
        Deployment deployment;
        deployment.id = u"dep_a"_s;
        deployment.userId = u"usr_a"_s;
        deployment.slug = u"site"_s;
        deployment.storageType = u"files"_s;
        deployment.createdAt = deployment.updatedAt = QDateTime::currentDateTimeUtc();
        BERTH_VERIFY_OK(DeploymentRepository(*m_db).insert(
            deployment, {{u"index.html"_s, hash, data.size(), "text/html; charset=utf-8"}}));
        QVERIFY(age());

        QCOMPARE(m_a->remove(hash, {"gz"}), BlobStore::Removal::Kept);
        QCOMPARE(chunksOf(hash), 2); // the blob and its variant
        QCOMPARE(m_b->read(hash), data);
        QVERIFY(!QFile::exists(m_a->pathOf(hash))); // the folder is a cache: the copy comes back when needed
        QCOMPARE(m_a->read(hash), data);
        // The same check in the start-up sweep, whatever this node's list says.
        m_b->collectGarbage({});
        QCOMPARE(chunksOf(hash), 2);
        QCOMPARE(chunksOf(other), 0);
    }

    void removalSparesARecentlyStoredBlob()
    {
        const QByteArray data = content(42, 2 * kMiB + 5);
        const QByteArray hash = m_a->put(data).value();
        // Another node stored it moments ago for a deploy it has not committed yet.
        QCOMPARE(m_a->remove(hash, {"gz"}), BlobStore::Removal::Kept);
        QCOMPARE(chunksOf(hash), 3);

        // Stored long ago, then again by a deploy reusing the content: that counts as stored now.
        QVERIFY(age());
        BERTH_VERIFY_OK(m_b->put(data));
        QCOMPARE(m_a->remove(hash, {"gz"}), BlobStore::Removal::Kept);
        QCOMPARE(chunksOf(hash), 3);

        // Renewed by a deploy that names it by its hash without sending it.
        QVERIFY(age());
        const Result<bool> retained = m_b->retain(hash);
        BERTH_VERIFY_OK(retained);
        QVERIFY(retained.value());
        QCOMPARE(m_a->remove(hash, {"gz"}), BlobStore::Removal::Kept);

        // A variant stored just now keeps its blob: they go together.
        QVERIFY(age());
        BERTH_VERIFY_OK(m_a->putVariant(hash, "gz", "z"));
        QCOMPARE(m_a->remove(hash, {"gz"}), BlobStore::Removal::Kept);
        QCOMPARE(chunksOf(hash), 4);

        // Unreferenced and old: the blob and its variant go.
        QVERIFY(age());
        QCOMPARE(m_a->remove(hash, {"gz"}), BlobStore::Removal::Removed);
        QCOMPARE(chunksOf(hash), 0);
        QVERIFY(!QFile::exists(m_a->pathOf(hash)));
        QVERIFY(m_a->variantPathOf(hash, "gz").isEmpty());
        const Result<bool> gone = m_b->retain(hash);
        BERTH_VERIFY_OK(gone);
        QVERIFY(!gone.value()); // its content must be sent again
        // Absent counts as removed.
        QCOMPARE(m_a->remove(hash, {"gz"}), BlobStore::Removal::Removed);
    }

    void storeAfterRemovalStoresAgain()
    {
        const QByteArray data = content(43, 2 * kMiB + 7);
        const QByteArray hash = m_a->put(data).value();
        BERTH_VERIFY_OK(m_a->putVariant(hash, "gz", "zipped"));
        BERTH_VERIFY_OK(m_b->fetch(hash));
        BERTH_VERIFY_OK(m_b->fetch(hash, "gz"));
        QVERIFY(age());
        QCOMPARE(m_a->remove(hash, {"gz"}), BlobStore::Removal::Removed);
        QCOMPARE(chunksOf(hash), 0);

        // B deploys the same content: its folder still holds the blob, but the database gets it again, with the
        // variant that went with it.
        BERTH_VERIFY_OK(m_b->put(data));
        QCOMPARE(chunksOf(hash), 4);
        auto c = makeStore(u"c"_s, 64 * kMiB);
        QCOMPARE(c->read(hash), data);
        BERTH_VERIFY_OK(c->fetch(hash, "gz"));
        QCOMPARE(readFile(c->variantPathOf(hash, "gz")), QByteArray("zipped"));
    }

    void removalRacingAStoreNeverLosesIt()
    {
        // One node removes what it stopped using while another stores the same content for its deploy: whatever
        // the order, a store that succeeded leaves the whole blob in the database.
        const QByteArray data = content(44, 2 * kMiB + 11);
        const QByteArray hash = BlobStore::hashOf(data);
        BERTH_VERIFY_OK(m_backend->store(hash, {}, data));
        QThreadPool pool;
        pool.setMaxThreadCount(2);
        int removals = 0;
        for (int round = 0; round < 40; ++round) {
            QVERIFY(age());
            QAtomicInt stored;
            QAtomicInt removed;
            QSemaphore ready;
            pool.start([&] {
                ready.release();
                ready.acquire(2); // both threads run before either goes on
                ready.release(2);
                const Result<bool> gone = m_backend->remove(hash);
                removed.storeRelaxed(gone && gone.value() ? 1 : 0);
            });
            pool.start([&] {
                ready.release();
                ready.acquire(2);
                ready.release(2);
                stored.storeRelaxed(m_backend->store(hash, {}, data) ? 1 : 0);
            });
            pool.waitForDone();
            QCOMPARE(stored.loadRelaxed(), 1);
            removals += removed.loadRelaxed();
            QCOMPARE(chunksOf(hash), 3);
            QByteArray loaded;
            const Result<bool> found = m_backend->load(hash, {}, [&loaded](const QByteArray &piece) {
                loaded += piece;
                return true;
            });
            BERTH_VERIFY_OK(found);
            QVERIFY(found.value());
            QVERIFY(loaded == data);
        }
        qInfo("the removal went first in %d of 40 rounds", removals);
    }

    void sweepSparesRecentlyStoredBlobs()
    {
        const QByteArray kept = m_a->put(content(30, 100)).value();
        const QByteArray recent = m_a->put(content(31, 100)).value();
        const QByteArray old = m_a->put(content(32, 100)).value();
        QVERIFY(exec(u"UPDATE blob_chunks SET stored_at = now() - interval '2 hours' WHERE hash <> '%1'"_s.arg(
            QLatin1String(recent))));
        m_b->collectGarbage({kept});
        QCOMPARE(rows(u"SELECT COUNT(*) FROM blob_chunks WHERE hash = '%1'"_s.arg(QLatin1String(kept))), 1);
        QCOMPARE(rows(u"SELECT COUNT(*) FROM blob_chunks WHERE hash = '%1'"_s.arg(QLatin1String(recent))), 1);
        QCOMPARE(rows(u"SELECT COUNT(*) FROM blob_chunks WHERE hash = '%1'"_s.arg(QLatin1String(old))), 0);
        // Storing content again renews it, so that a deploy reusing an old blob keeps it.
        QVERIFY(exec(u"UPDATE blob_chunks SET stored_at = now() - interval '2 hours'"_s));
        BERTH_VERIFY_OK(m_b->put(content(31, 100)));
        m_b->collectGarbage({kept});
        QCOMPARE(rows(u"SELECT COUNT(*) FROM blob_chunks WHERE hash = '%1'"_s.arg(QLatin1String(recent))), 1);
    }
};

QTEST_GUILESS_MAIN(TestPgBlobRemoval)
#include "tst_pgblobremoval.moc"
