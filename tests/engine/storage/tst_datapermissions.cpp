// The data directory is its owner's alone: the folder 0700, the database and its -wal and -shm files 0600, blobs
// owner-read-only (0400) in 0700 folders; data an earlier Berth left readable to all is fixed when it opens.
#include "common/resultassert.h"
#include "storage/blobstore.h"
#include "storage/database.h"

#include <QDir>
#include <QFile>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <sys/stat.h>

using namespace Qt::StringLiterals;
using namespace berth;

namespace {

int modeOf(const QString &path)
{
    struct stat info
    {
    };
    if (::stat(QFile::encodeName(path).constData(), &info) != 0)
        return -1;
    return int(info.st_mode & 07777);
}

bool setMode(const QString &path, int mode)
{
    return ::chmod(QFile::encodeName(path).constData(), mode_t(mode)) == 0;
}

} // namespace

class TestDataPermissions final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString data() const { return m_dir.filePath(u"data"_s); }
    QString db() const { return m_dir.filePath(u"data/berth.sqlite"_s); }
    QString blobs() const { return m_dir.filePath(u"data/blobs"_s); }

    // Opens the database and the blob store as an Engine does, stores one blob and returns its path.
    QString openAndStore(Database &database, BlobStore &store)
    {
        Result<void> ready = database.open();
        if (ready)
            ready = store.init();
        if (!ready) {
            qWarning("%s", qPrintable(ready.error().message));
            return {};
        }
        QSqlQuery query(database.connection()); // a write, so the -wal file has content
        if (!query.exec(u"CREATE TABLE IF NOT EXISTS t (x)"_s) || !query.exec(u"INSERT INTO t VALUES (1)"_s))
            return {};
        return store.pathOf(store.put("private content").value());
    }
    void verifyPrivate(const QString &blob)
    {
        QCOMPARE(modeOf(data()), 0700);
        QCOMPARE(modeOf(db()), 0600);
        QCOMPARE(modeOf(db() + u"-wal"_s), 0600);
        QCOMPARE(modeOf(db() + u"-shm"_s), 0600);
        QCOMPARE(modeOf(blobs()), 0700);
        QCOMPARE(modeOf(QFileInfo(blob).absolutePath()), 0700);
        QCOMPARE(modeOf(blob), 0400);
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void newDataIsPrivate()
    {
        const mode_t previous = ::umask(022); // the usual umask: new files 0644, folders 0755
        Database database(db());
        BlobStore store(blobs());
        const QString blob = openAndStore(database, store);
        ::umask(previous);
        QVERIFY(!blob.isEmpty());
        verifyPrivate(blob);
    }

    void existingDataIsFixedOnOpen()
    {
        // An earlier Berth's data, modes and all, with its database open (so the -wal and -shm files exist).
        Database earlier(db());
        BlobStore earlierStore(blobs());
        const QString blob = openAndStore(earlier, earlierStore);
        QVERIFY(!blob.isEmpty());
        for (const QString &folder : {data(), blobs(), QFileInfo(blob).absolutePath()})
            QVERIFY(setMode(folder, 0755));
        for (const QString &file : {db(), db() + u"-wal"_s, db() + u"-shm"_s})
            QVERIFY(setMode(file, 0644));
        QVERIFY(setMode(blob, 0444));

        Database database(db());
        BlobStore store(blobs());
        BERTH_VERIFY_OK(database.open());
        BERTH_VERIFY_OK(store.init());
        verifyPrivate(blob);
        QCOMPARE(store.read(BlobStore::hashOf("private content")), QByteArray("private content"));
    }
};

QTEST_GUILESS_MAIN(TestDataPermissions)
#include "tst_datapermissions.moc"
