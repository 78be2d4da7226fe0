// BlobStore over the PostgreSQL chunk store: blobs in the database, each node's folder a bounded cache; storing
// in groups and chunks, fetching into the cache and its bound.
#include "common/resultassert.h"
#include "pgblobfixture.h"
#include "storage/blobbatch.h"
#include "storage/deploymentrepository.h"
#include "storage/userrepository.h"

#include <QSemaphore>
#include <QTest>
#include <QThreadPool>

using namespace Qt::StringLiterals;
using namespace berth;
using namespace berth::test;

class TestPgBlobStore final : public QObject, private PgBlobStoreFixture
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { startCluster(); }
    void init() { setUpDatabase(); }
    void cleanup() { tearDownDatabase(); }
    void cleanupTestCase() { stopCluster(); }

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
};

QTEST_GUILESS_MAIN(TestPgBlobStore)
#include "tst_pgblobstore.moc"
