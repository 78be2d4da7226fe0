// BlobStore over the PostgreSQL chunk store: blobs in the database, each node's folder a bounded cache.
#include "common/postgrescluster.h"
#include "common/resultassert.h"
#include "storage/blobbatch.h"
#include "storage/blobstore.h"
#include "storage/database.h"
#include "storage/deploymentrepository.h"
#include "storage/postgresblobbackend.h"
#include "storage/userrepository.h"

#include <QDir>
#include <QFile>
#include <QSemaphore>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>
#include <memory>

using namespace Qt::StringLiterals;
using namespace berth;
using berth::test::PostgresCluster;
using berth::test::PostgresTestDatabase;

namespace {

constexpr qint64 kMiB = 1024 * 1024;

// Distinct content of a given size.
QByteArray content(int seed, qint64 size)
{
    QByteArray data(size, Qt::Uninitialized);
    quint32 state = 2166136261u ^ quint32(seed);
    for (qint64 i = 0; i < size; ++i) {
        state = state * 16777619u + 1013904223u;
        data[i] = char(state >> 24);
    }
    return data;
}

// Passes everything on, counting the loads.
class CountingBackend final : public BlobBackend
{
public:
    explicit CountingBackend(BlobBackend &inner)
        : m_inner(inner)
    {
    }
    Result<bool> store(const QByteArray &hash, const QByteArray &suffix, const QByteArray &data) override
    {
        return m_inner.store(hash, suffix, data);
    }
    Result<bool> retain(const QByteArray &hash) override { return m_inner.retain(hash); }
    Result<bool> has(const QByteArray &hash, const QByteArray &suffix) override { return m_inner.has(hash, suffix); }
    Result<QHash<QByteArray, qint64>> variantSizes(const QList<QByteArray> &hashes, const QByteArray &suffix) override
    {
        return m_inner.variantSizes(hashes, suffix);
    }
    Result<bool> load(const QByteArray &hash, const QByteArray &suffix, const ChunkSink &sink) override
    {
        loads.fetchAndAddRelaxed(1);
        return m_inner.load(hash, suffix, sink);
    }
    Result<bool> remove(const QByteArray &hash) override { return m_inner.remove(hash); }
    Result<int> removeAllExcept(const QSet<QByteArray> &keep) override { return m_inner.removeAllExcept(keep); }

    QAtomicInt loads;

private:
    BlobBackend &m_inner;
};

} // namespace

class TestPgBlobStore final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QString error;
        m_socketFolder = PostgresCluster::fixtureOrOwn(m_cluster, &error);
        QVERIFY2(!m_socketFolder.isEmpty(), qPrintable(error));
    }

    void init()
    {
        m_database = std::make_unique<PostgresTestDatabase>(m_socketFolder);
        QString error;
        QVERIFY2(m_database->create(&error), qPrintable(error));
        m_db = std::make_unique<Database>(QString(), m_database->url());
        BERTH_VERIFY_OK(m_db->open());
        m_backend = std::make_unique<PostgresBlobBackend>(m_database->url());
        m_dir = std::make_unique<QTemporaryDir>();
        m_a = makeStore(u"a"_s, 64 * kMiB);
        m_b = makeStore(u"b"_s, 64 * kMiB);
    }
    void cleanup()
    {
        m_a.reset();
        m_b.reset();
        m_backend.reset();
        m_db.reset();
        m_database.reset();
    }
    void cleanupTestCase() { m_cluster.reset(); }

    // A deploy's blobs travel in groups: more than one group's worth, a blob of several chunks, one stored already
    // (renewed, not written), the same piece twice (written once), a variant; every one then there for every node.
    void manyBlobsAreStoredInGroups()
    {
        const QByteArray before = m_a->put(content(60, 100)).value();
        QList<BlobBackend::Piece> pieces;
        for (int i = 0; i < PostgresBlobBackend::kGroupPieces + 50; ++i)
            pieces.append({BlobStore::hashOf(content(100 + i, 150)), {}, content(100 + i, 150)});
        const QByteArray large = content(61, 2 * kMiB + 5);
        pieces.append({BlobStore::hashOf(large), {}, large});
        pieces.append({before, {}, content(60, 100)});
        pieces.append(pieces.first());
        pieces.append({pieces.first().hash, "gz", "zipped"});
        const Result<QList<bool>> stored = m_backend->storeAll(pieces);
        BERTH_VERIFY_OK(stored);
        QCOMPARE(stored.value().size(), pieces.size());
        for (qsizetype i = 0; i < pieces.size(); ++i) {
            const bool renewedOrRepeated = pieces.at(i).hash == before || i == pieces.size() - 2;
            QCOMPARE(stored.value().at(i), !renewedOrRepeated);
            QByteArray loaded;
            const Result<bool> found
                = m_backend->load(pieces.at(i).hash, pieces.at(i).suffix, [&](const QByteArray &piece) {
                      loaded += piece;
                      return true;
                  });
            BERTH_VERIFY_OK(found);
            QVERIFY(found.value());
            QCOMPARE(loaded, pieces.at(i).data);
        }

        // Through a node's batch: another node reads them from the database.
        BlobBatch batch(*m_a);
        QList<QByteArray> hashes;
        for (int i = 0; i < 300; ++i)
            hashes.append(batch.put(content(1000 + i, 200)).value());
        BERTH_VERIFY_OK(batch.putVariant(hashes.first(), "gz", "batched"));
        BERTH_VERIFY_OK(batch.flush());
        for (int i = 0; i < 300; ++i)
            QCOMPARE(m_b->read(hashes.at(i)), content(1000 + i, 200));
        BERTH_VERIFY_OK(m_b->fetch(hashes.first(), "gz"));

        // Renewed together, in groups: those stored, and not one that is not.
        const QByteArray absent = BlobStore::hashOf("never stored");
        QList<QByteArray> reused;
        for (const BlobBackend::Piece &piece : std::as_const(pieces))
            reused.append(piece.hash);
        const Result<QSet<QByteArray>> retained = m_b->retainAll(reused + QList<QByteArray> {absent});
        BERTH_VERIFY_OK(retained);
        QCOMPARE(retained.value(), QSet<QByteArray>(reused.cbegin(), reused.cend()));
    }

    void largeBlobIsStoredInChunks()
    {
        const QByteArray data = content(1, 2 * kMiB + 123);
        const auto hash = m_a->put(data);
        BERTH_VERIFY_OK(hash);
        QCOMPARE(rows(u"SELECT COUNT(*) FROM blob_chunks WHERE hash = '%1' AND variant = ''"_s.arg(
                     QLatin1String(hash.value()))),
            3);
        QCOMPARE(rows(u"SELECT MAX(octet_length(data)) FROM blob_chunks"_s), PostgresBlobBackend::kChunkBytes);
        QCOMPARE(m_a->read(hash.value()), data);
        QVERIFY(QFile::exists(m_a->pathOf(hash.value())));
    }

    void emptyCacheFetchesOnFirstNeed()
    {
        const QByteArray data = content(2, 3 * kMiB);
        const QByteArray hash = m_a->put(data).value();
        BERTH_VERIFY_OK(m_a->putVariant(hash, "gz", "pretend-gzip"));

        QVERIFY(!m_b->isCached(hash));
        QVERIFY(m_b->contains(hash)); // the database has it
        BERTH_VERIFY_OK(m_b->fetch(hash, "gz"));
        QCOMPARE(readFile(m_b->variantPathOf(hash, "gz")), QByteArray("pretend-gzip"));
        QCOMPARE(m_b->read(hash), data);
        QVERIFY(m_b->isCached(hash));
        QCOMPARE(readFile(m_b->pathOf(hash)), data);
        QCOMPARE(QFile::permissions(m_b->pathOf(hash)) & 0x7077,
            QFileDevice::ReadOwner); // the User bits depend on who runs the test

        const Result<void> missing = m_b->fetch(BlobStore::hashOf("never stored"));
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error().kind, Error::Kind::NotFound);
    }

    void concurrentFetchesOfOneBlobLoadItOnce()
    {
        const QByteArray data = content(6, 3 * kMiB);
        const QByteArray hash = m_a->put(data).value();
        CountingBackend counting(*m_backend);
        BlobStore cold(m_dir->filePath(u"cold"_s));
        cold.setBackend(&counting, 64 * kMiB);
        BERTH_VERIFY_OK(cold.init());
        QThreadPool pool;
        pool.setMaxThreadCount(6);
        QAtomicInt failures;
        for (int i = 0; i < 6; ++i) {
            pool.start([&] {
                if (!cold.fetch(hash) || cold.read(hash) != data)
                    failures.fetchAndAddRelaxed(1);
            });
        }
        pool.waitForDone();
        QCOMPARE(failures.loadRelaxed(), 0);
        QCOMPARE(counting.loads.loadRelaxed(), 1);
    }

    void damagedCopyIsRefused()
    {
        const QByteArray hash = m_a->put(content(3, 1000)).value();
        QVERIFY(exec(u"UPDATE blob_chunks SET data = 'x'::bytea WHERE hash = '%1'"_s.arg(QLatin1String(hash))));
        QVERIFY(!m_b->fetch(hash).ok());
        QVERIFY(!QFile::exists(m_b->pathOf(hash)));
    }

    void putIsIdempotent()
    {
        const QByteArray data = content(4, kMiB + 1);
        const QByteArray hash = m_a->put(data).value();
        BERTH_VERIFY_OK(m_a->put(data));
        BERTH_VERIFY_OK(m_b->put(data)); // another node, same content
        QCOMPARE(rows(u"SELECT COUNT(*) FROM blob_chunks"_s), 2);
        QCOMPARE(m_b->read(hash), data);
        const QByteArray empty = m_a->put({}).value();
        QCOMPARE(rows(u"SELECT COUNT(*) FROM blob_chunks WHERE hash = '%1'"_s.arg(QLatin1String(empty))), 1);
        QCOMPARE(m_b->read(empty), QByteArray());
        QVERIFY(m_b->isCached(empty));
    }

    void removalRemovesBoth()
    {
        const QByteArray hash = m_a->put(content(5, 2 * kMiB)).value();
        BERTH_VERIFY_OK(m_a->putVariant(hash, "gz", "z"));
        BERTH_VERIFY_OK(m_b->fetch(hash));
        QVERIFY(age());
        QCOMPARE(m_a->remove(hash), BlobStore::Removal::Removed);
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

        QCOMPARE(m_a->remove(hash), BlobStore::Removal::Kept);
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
        QCOMPARE(m_a->remove(hash), BlobStore::Removal::Kept);
        QCOMPARE(chunksOf(hash), 3);

        // Stored long ago, then again by a deploy reusing the content: that counts as stored now.
        QVERIFY(age());
        BERTH_VERIFY_OK(m_b->put(data));
        QCOMPARE(m_a->remove(hash), BlobStore::Removal::Kept);
        QCOMPARE(chunksOf(hash), 3);

        // Renewed by a deploy that names it by its hash without sending it.
        QVERIFY(age());
        const Result<bool> retained = m_b->retain(hash);
        BERTH_VERIFY_OK(retained);
        QVERIFY(retained.value());
        QCOMPARE(m_a->remove(hash), BlobStore::Removal::Kept);

        // A variant stored just now keeps its blob: they go together.
        QVERIFY(age());
        BERTH_VERIFY_OK(m_a->putVariant(hash, "gz", "z"));
        QCOMPARE(m_a->remove(hash), BlobStore::Removal::Kept);
        QCOMPARE(chunksOf(hash), 4);

        // Unreferenced and old: the blob and its variant go.
        QVERIFY(age());
        QCOMPARE(m_a->remove(hash), BlobStore::Removal::Removed);
        QCOMPARE(chunksOf(hash), 0);
        QVERIFY(!QFile::exists(m_a->pathOf(hash)));
        QVERIFY(m_a->variantPathOf(hash, "gz").isEmpty());
        const Result<bool> gone = m_b->retain(hash);
        BERTH_VERIFY_OK(gone);
        QVERIFY(!gone.value()); // its content must be sent again
        // Absent counts as removed.
        QCOMPARE(m_a->remove(hash), BlobStore::Removal::Removed);
    }

    void storeAfterRemovalStoresAgain()
    {
        const QByteArray data = content(43, 2 * kMiB + 7);
        const QByteArray hash = m_a->put(data).value();
        BERTH_VERIFY_OK(m_a->putVariant(hash, "gz", "zipped"));
        BERTH_VERIFY_OK(m_b->fetch(hash));
        BERTH_VERIFY_OK(m_b->fetch(hash, "gz"));
        QVERIFY(age());
        QCOMPARE(m_a->remove(hash), BlobStore::Removal::Removed);
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

    void variantSizesComeFromTheDatabase()
    {
        const QByteArray small = m_a->put(content(50, 1000)).value();
        BERTH_VERIFY_OK(m_a->putVariant(small, "gz", "pretend-gzip"));
        const QByteArray large = m_a->put(content(51, 3 * kMiB)).value();
        BERTH_VERIFY_OK(m_a->putVariant(large, "gz", content(52, kMiB + 3))); // two chunks
        const QByteArray plain = m_a->put(content(53, 1000)).value();

        // B has cached none of them: the sizes come from the database.
        const QHash<QByteArray, qint64> sizes = m_b->variantSizes({small, large, plain}, "gz");
        QCOMPARE(sizes.size(), 2);
        QCOMPARE(sizes.value(small), 12);
        QCOMPARE(sizes.value(large), kMiB + 3);
        QCOMPARE(m_a->variantSizes({small, large, plain}, "gz"), sizes);
        // Without a backend, the folder's only.
        BlobStore folderOnly(m_dir->filePath(u"a"_s));
        QCOMPARE(folderOnly.variantSizes({small, large, plain}, "gz"), sizes);
        BlobStore empty(m_dir->filePath(u"empty"_s));
        QVERIFY(empty.variantSizes({small, large, plain}, "gz").isEmpty());
    }

    void cacheIsBoundedBySize()
    {
        // 3 MiB of cache, no grace for recent use: after 5 blobs of 1 MiB, the oldest went.
        auto small = makeStore(u"small"_s, 3 * kMiB, 0);
        // A file the database does not hold (from before PostgreSQL) is never evicted.
        const QByteArray local = content(99, kMiB / 2);
        BlobStore plain(m_dir->filePath(u"small"_s));
        BERTH_VERIFY_OK(plain.put(local));
        QList<QByteArray> hashes;
        for (int i = 0; i < 5; ++i)
            hashes.append(small->put(content(10 + i, kMiB)).value());
        QVERIFY2(small->cachedBytes() <= 3 * kMiB, qPrintable(QString::number(small->cachedBytes())));
        QVERIFY(!QFile::exists(small->pathOf(hashes.first())));
        QVERIFY(QFile::exists(small->pathOf(hashes.last())));
        QVERIFY(QFile::exists(small->pathOf(BlobStore::hashOf(local))));
        // An evicted blob comes back from the database when needed.
        QCOMPARE(small->read(hashes.first()), content(10, kMiB));
        QVERIFY(small->cachedBytes() <= 3 * kMiB);
        QVERIFY(QFile::exists(small->pathOf(hashes.first())));

        // Recently used files are spared (one may be on its way to a visitor): with a long grace, nothing goes.
        auto graceful = makeStore(u"graceful"_s, kMiB, 60000);
        for (int i = 0; i < 3; ++i)
            BERTH_VERIFY_OK(graceful->put(content(20 + i, kMiB)));
        QCOMPARE(graceful->cachedBytes(), 3 * kMiB);
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

private:
    std::unique_ptr<BlobStore> makeStore(const QString &name, qint64 limit, int recentUseMs = 10000)
    {
        auto store = std::make_unique<BlobStore>(m_dir->filePath(name));
        store->setBackend(m_backend.get(), limit, recentUseMs);
        if (!store->init())
            qFatal("cannot open a blob store");
        return store;
    }
    int rows(const QString &statement) const
    {
        QSqlQuery query(m_db->connection());
        if (!query.exec(statement) || !query.next())
            return -1;
        return query.value(0).toInt();
    }
    // Everything stored counts as stored two hours ago: past the grace of removals.
    bool age() const { return exec(u"UPDATE blob_chunks SET stored_at = now() - interval '2 hours'"_s); }
    int chunksOf(const QByteArray &hash) const
    {
        return rows(u"SELECT COUNT(*) FROM blob_chunks WHERE hash = '%1'"_s.arg(QLatin1String(hash)));
    }
    bool exec(const QString &statement) const
    {
        QSqlQuery query(m_db->connection());
        return query.exec(statement);
    }
    static QByteArray readFile(const QString &path)
    {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }

    QString m_socketFolder;
    std::unique_ptr<PostgresCluster> m_cluster;
    std::unique_ptr<PostgresTestDatabase> m_database;
    std::unique_ptr<Database> m_db;
    std::unique_ptr<PostgresBlobBackend> m_backend;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<BlobStore> m_a;
    std::unique_ptr<BlobStore> m_b;
};

QTEST_GUILESS_MAIN(TestPgBlobStore)
#include "tst_pgblobstore.moc"
