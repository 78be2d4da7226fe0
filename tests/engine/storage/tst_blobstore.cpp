#include "common/resultassert.h"
#include "storage/blobbatch.h"
#include "storage/blobstore.h"

#include <QAtomicInt>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>
#include <cerrno>

using namespace Qt::StringLiterals;
using namespace berth;

namespace {

QStringList filesUnder(const QString &root)
{
    QStringList files;
    QDirIterator it(root, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext())
        files.append(QDir(root).relativeFilePath(it.next()));
    files.sort();
    return files;
}

// Distinct payloads of very different sizes, some spanning many write chunks.
QByteArray payload(int i)
{
    QByteArray data = "payload-" + QByteArray::number(i) + '-';
    return data.repeated(1 + (i % 5) * 4000);
}

bool writeFile(const QString &path, const QByteArray &data)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(data) == data.size();
}

} // namespace

class TestBlobStore final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init()
    {
        m_dir.reset(new QTemporaryDir);
        QVERIFY(m_dir->isValid());
        m_store.reset(new BlobStore(m_dir->filePath(u"blobs"_s)));
        BERTH_VERIFY_OK(m_store->init());
        QVERIFY(QFileInfo(m_dir->filePath(u"blobs"_s)).isDir());
    }

    void hashIsLowerCaseHexSha256()
    {
        // FIPS 180-2 test vector, and the empty input.
        QCOMPARE(BlobStore::hashOf("abc"),
            QByteArrayLiteral("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
        QCOMPARE(BlobStore::hashOf({}),
            QByteArrayLiteral("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
    }

    void identicalContentIsStoredOnce()
    {
        const QByteArray data = "<h1>hello</h1>";
        const Result<QByteArray> put = m_store->put(data);
        QVERIFY2(put.ok(), put.ok() ? "" : qPrintable(put.error().message));
        const QByteArray hash = put.value();
        QCOMPARE(hash, BlobStore::hashOf(data));
        QCOMPARE(m_store->put(data).value(), hash);

        const QString expected
            = m_store->rootDir() + u'/' + QLatin1String(hash.left(2)) + u'/' + QLatin1String(hash.mid(2));
        QCOMPARE(m_store->pathOf(hash), expected);
        QCOMPARE(filesUnder(m_store->rootDir()), QStringList {QDir(m_store->rootDir()).relativeFilePath(expected)});
        QVERIFY(m_store->contains(hash));
        QCOMPARE(m_store->read(hash), data);
        QVERIFY(!(QFile::permissions(expected) & (QFile::WriteOwner | QFile::WriteGroup | QFile::WriteOther)));
    }

    void missingBlobIsAbsent()
    {
        const QByteArray hash = BlobStore::hashOf("never stored");
        QVERIFY(!m_store->contains(hash));
        QVERIFY(m_store->read(hash).isEmpty());
        QVERIFY(!m_store->pathOf(hash).isEmpty());
    }

    void pathOfRejectsInvalidHashes_data()
    {
        QTest::addColumn<QByteArray>("hash");
        const QByteArray valid = BlobStore::hashOf("x");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("short") << valid.left(63);
        QTest::newRow("long") << valid + 'a';
        QTest::newRow("upper case") << valid.toUpper();
        QTest::newRow("not hex") << QByteArray(valid).replace(10, 1, "g");
        QTest::newRow("traversal") << QByteArray("../../" + valid.left(58));
        QTest::newRow("slash") << QByteArray(valid).replace(2, 1, "/");
        QTest::newRow("nul") << QByteArray(valid).replace(5, 1, QByteArray(1, '\0'));
    }

    void pathOfRejectsInvalidHashes()
    {
        QFETCH(QByteArray, hash);
        QVERIFY(m_store->pathOf(hash).isEmpty());
        QVERIFY(!m_store->contains(hash));
        QVERIFY(m_store->read(hash).isEmpty());
        QVERIFY(m_store->variantPathOf(hash, "gz").isEmpty());
        QVERIFY(!m_store->putVariant(hash, "gz", "data"));
    }

    void variantsAreStoredBesideTheirBlob()
    {
        const QByteArray hash = m_store->put("body { color: red }").value();
        QVERIFY(m_store->variantPathOf(hash, "gz").isEmpty());
        const Result<void> variant = m_store->putVariant(hash, "gz", "compressed");
        QVERIFY2(variant.ok(), variant.ok() ? "" : qPrintable(variant.error().message));
        QCOMPARE(m_store->variantPathOf(hash, "gz"), m_store->pathOf(hash) + u".gz"_s);
        QFile file(m_store->variantPathOf(hash, "gz"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArrayLiteral("compressed"));

        QVERIFY(!m_store->putVariant(hash, "../x", "data"));
        QVERIFY(!m_store->putVariant(hash, "toolong", "data"));
        const Result<void> orphan = m_store->putVariant(BlobStore::hashOf("no such blob"), "gz", "data");
        QVERIFY(!orphan);
        QVERIFY(!orphan.error().message.isEmpty());
    }

    void concurrentPutsOfOverlappingDataAllSucceed()
    {
        constexpr int Distinct = 12;
        constexpr int Tasks = 8;
        constexpr int PutsPerTask = 36;
        QThreadPool pool;
        pool.setMaxThreadCount(Tasks);
        QAtomicInt failures;
        for (int task = 0; task < Tasks; ++task) {
            pool.start([this, task, &failures] {
                for (int i = 0; i < PutsPerTask; ++i) {
                    const QByteArray data = payload((i + task) % Distinct);
                    const Result<QByteArray> put = m_store->put(data);
                    if (!put || put.value() != BlobStore::hashOf(data))
                        failures.ref();
                }
            });
        }
        pool.waitForDone();
        QCOMPARE(failures.loadRelaxed(), 0);

        QCOMPARE(filesUnder(m_store->rootDir()).size(), Distinct); // no duplicates, no temporary files left
        for (int i = 0; i < Distinct; ++i)
            QCOMPARE(m_store->read(BlobStore::hashOf(payload(i))), payload(i));
    }

    void initRemovesLeftoverTemporaryFiles()
    {
        const QByteArray hash = m_store->put("kept").value();
        QVERIFY(m_store->putVariant(hash, "gz", "kept-gz"));
        const QString blob = m_store->pathOf(hash);
        // What QSaveFile leaves behind when a process dies mid-write: "<final name>.XXXXXX".
        const QString leftoverBlob = blob.left(blob.size() - 62) + QString(62, u'e') + u".AbCdEf"_s;
        const QString leftoverVariant = blob + u".gz.QwErTy"_s;
        const QString unrelated = QFileInfo(blob).absolutePath() + u"/notes.txt"_s;
        QVERIFY(writeFile(leftoverBlob, "partial"));
        QVERIFY(writeFile(leftoverVariant, "partial"));
        QVERIFY(writeFile(unrelated, "someone else's"));

        BlobStore reopened(m_store->rootDir());
        QVERIFY(reopened.init());
        QVERIFY(!QFile::exists(leftoverBlob));
        QVERIFY(!QFile::exists(leftoverVariant));
        QVERIFY(QFile::exists(unrelated));
        QCOMPARE(reopened.read(hash), QByteArrayLiteral("kept"));
        QVERIFY(!reopened.variantPathOf(hash, "gz").isEmpty());
    }

    // A deploy's batch: whole read-only files at their names, no temporary file left, one flush for all of them, and
    // none when nothing new was written.
    void batchWritesWholeFilesAndFlushesThemOnce()
    {
        int flushes = 0;
        m_store->setFlushFault([&] {
            ++flushes;
            return 0;
        });
        QList<QByteArray> hashes;
        {
            BlobBatch batch(*m_store);
            for (int i = 0; i < 100; ++i) {
                const Result<QByteArray> put = batch.put(payload(i));
                BERTH_VERIFY_OK(put);
                QCOMPARE(put.value(), BlobStore::hashOf(payload(i)));
                hashes.append(put.value());
            }
            BERTH_VERIFY_OK(batch.putVariant(hashes.first(), "gz", "zipped"));
            QVERIFY(!batch.putVariant(BlobStore::hashOf("never stored"), "gz", "zipped"));
            QCOMPARE(flushes, 0);
            BERTH_VERIFY_OK(batch.flush());
            QCOMPARE(flushes, 1);
            BERTH_VERIFY_OK(batch.flush()); // nothing written since
            QCOMPARE(flushes, 1);
        }
        for (int i = 0; i < 100; ++i) {
            QCOMPARE(m_store->read(hashes.at(i)), payload(i));
            // The mode's bits (the "User" ones say what this process may do: anything, as root).
            constexpr QFileDevice::Permissions kModeBits = QFileDevice::ReadOwner | QFileDevice::WriteOwner
                | QFileDevice::ExeOwner | QFileDevice::ReadGroup | QFileDevice::WriteGroup | QFileDevice::ExeGroup
                | QFileDevice::ReadOther | QFileDevice::WriteOther | QFileDevice::ExeOther;
            QCOMPARE(QFile::permissions(m_store->pathOf(hashes.at(i))) & kModeBits,
                QFileDevice::Permissions(QFileDevice::ReadOwner));
        }
        QVERIFY(!m_store->variantPathOf(hashes.first(), "gz").isEmpty());
        const QRegularExpression stored(u"^[0-9a-f]{2}/[0-9a-f]{62}(\\.gz)?$"_s);
        const QStringList files = filesUnder(m_store->rootDir());
        QCOMPARE(files.size(), 101);
        for (const QString &file : files)
            QVERIFY2(stored.match(file).hasMatch(), qPrintable(file));

        // Content the store holds already: no write, so nothing to flush.
        BlobBatch again(*m_store);
        BERTH_VERIFY_OK(again.put(payload(7)));
        BERTH_VERIFY_OK(again.flush());
        QCOMPARE(flushes, 1);
    }

    // A blob of the wrong size at its name (damaged) is written again by a batch.
    void batchReplacesADamagedBlob()
    {
        const QByteArray hash = m_store->put("whole content").value();
        const QString path = m_store->pathOf(hash);
        QVERIFY(QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        QVERIFY(writeFile(path, "whole"));
        BlobBatch batch(*m_store);
        BERTH_VERIFY_OK(batch.put("whole content"));
        BERTH_VERIFY_OK(batch.flush());
        QCOMPARE(m_store->read(hash), QByteArray("whole content"));
    }

    // A failed write or flush is the store's error (a full disk: InsufficientStorage), and leaves no temporary file.
    void batchFailuresAreReported()
    {
        m_store->setWriteFault([](const QString &) { return ENOSPC; });
        {
            BlobBatch batch(*m_store);
            const Result<QByteArray> put = batch.put("on a full disk");
            QVERIFY(!put);
            QCOMPARE(put.error().kind, Error::Kind::InsufficientStorage);
        }
        m_store->setWriteFault({});
        QVERIFY(filesUnder(m_store->rootDir()).isEmpty());

        for (const auto &[code, kind] :
            {std::pair {EIO, Error::Kind::Internal}, std::pair {ENOSPC, Error::Kind::InsufficientStorage}}) {
            m_store->setFlushFault([code = code] { return code; });
            BlobBatch batch(*m_store);
            BERTH_VERIFY_OK(batch.put("flushed badly " + QByteArray::number(code)));
            const Result<void> flushed = batch.flush();
            QVERIFY(!flushed);
            QCOMPARE(flushed.error().kind, kind);
            QVERIFY(!flushed.error().message.contains(m_store->rootDir()));
        }
    }

    void initWithManyBlobsIsFast()
    {
        // The goal: a start with 10,000 deployments takes < 300 ms in all; the blob folder's share must be small.
        // The files are laid out as put() leaves them (private folders, read-only files), written directly for speed.
        constexpr int kBlobs = 10000;
        for (int i = 0; i < kBlobs; ++i) {
            const QByteArray hash = BlobStore::hashOf(QByteArray::number(i));
            const QString path = m_store->pathOf(hash);
            QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
            QVERIFY(writeFile(path, QByteArray::number(i)));
            QVERIFY(QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::ReadUser));
        }
        for (const QString &folder : QDir(m_store->rootDir()).entryList(QDir::Dirs | QDir::NoDotAndDotDot))
            QVERIFY(QFile::setPermissions(m_store->rootDir() + u'/' + folder,
                QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner | QFileDevice::ReadUser
                    | QFileDevice::WriteUser | QFileDevice::ExeUser));
        BlobStore reopened(m_store->rootDir());
        QElapsedTimer timer;
        timer.start();
        BERTH_VERIFY_OK(reopened.init());
        const qint64 elapsed = timer.elapsed();
        qInfo() << "init with" << kBlobs << "blobs took" << elapsed << "ms";
        QVERIFY2(elapsed < 150, qPrintable(u"%1 ms"_s.arg(elapsed)));
        QCOMPARE(reopened.read(BlobStore::hashOf("42")), QByteArrayLiteral("42"));
    }

    void garbageCollectionRemovesExactlyTheUnreferenced()
    {
        const QByteArray a = m_store->put("a").value();
        const QByteArray b = m_store->put("b").value();
        const QByteArray c = m_store->put("c").value();
        QVERIFY(m_store->putVariant(a, "gz", "a.gz"));
        QVERIFY(m_store->putVariant(b, "gz", "b.gz"));
        QVERIFY(m_store->putVariant(b, "br", "b.br"));

        QCOMPARE(m_store->collectGarbage({a, c}), 1);
        QVERIFY(m_store->contains(a));
        QVERIFY(!m_store->variantPathOf(a, "gz").isEmpty());
        QVERIFY(!m_store->contains(b));
        QVERIFY(m_store->variantPathOf(b, "gz").isEmpty());
        QVERIFY(m_store->variantPathOf(b, "br").isEmpty());
        QVERIFY(m_store->contains(c));
        QCOMPARE(filesUnder(m_store->rootDir()).size(), 3);

        QCOMPARE(m_store->collectGarbage({a, c}), 0);
        QCOMPARE(m_store->collectGarbage({}), 2);
        QVERIFY(filesUnder(m_store->rootDir()).isEmpty());

        // A removed blob can be stored again.
        QCOMPARE(m_store->put("b").value(), b);
        QCOMPARE(m_store->read(b), QByteArrayLiteral("b"));
    }

    // A removal takes the blob and the variants it names, each by its name; another variant is left to the sweep.
    void removalTakesTheBlobAndTheNamedVariants()
    {
        const QByteArray a = m_store->put("a").value();
        const QByteArray b = m_store->put("b").value();
        BERTH_VERIFY_OK(m_store->putVariant(a, "gz", "a.gz"));
        BERTH_VERIFY_OK(m_store->putVariant(a, "br", "a.br"));
        BERTH_VERIFY_OK(m_store->putVariant(a, "xz", "a.xz"));
        BERTH_VERIFY_OK(m_store->putVariant(b, "gz", "b.gz"));

        QCOMPARE(m_store->remove(a, {"gz", "br", "zst", "../x"}), BlobStore::Removal::Removed);
        QVERIFY(!m_store->contains(a));
        QVERIFY(m_store->variantPathOf(a, "gz").isEmpty());
        QVERIFY(m_store->variantPathOf(a, "br").isEmpty());
        QVERIFY(!m_store->variantPathOf(a, "xz").isEmpty());
        QCOMPARE(m_store->read(b), QByteArrayLiteral("b"));
        QVERIFY(!m_store->variantPathOf(b, "gz").isEmpty());
        QCOMPARE(m_store->remove(a, {"gz"}), BlobStore::Removal::Removed); // absent counts as removed

        QCOMPARE(m_store->collectGarbage({b}), 0);
        QVERIFY(m_store->variantPathOf(a, "xz").isEmpty());
        QCOMPARE(filesUnder(m_store->rootDir()).size(), 2);
    }

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<BlobStore> m_store;
};

QTEST_GUILESS_MAIN(TestBlobStore)
#include "tst_blobstore.moc"
