// The digests of a folder's files kept between publishes: a digest is used only for the same path and an identical
// stamp (size, modification and change times, inode, device), never for a file touched in or after the tick the
// digests were taken in, never for another folder, never from a damaged file; the cache file is the user's alone
// and their number is bounded. FolderReader::readDigests uses it and reads the files it cannot vouch for, also for
// the pre-publish checks' secret scan.
#include "domain/deploy/digestcache.h"
#include "domain/deploy/folderreader.h"
#include "domain/deploy/publishchecks.h"
#include "storage/contentdigest.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <fcntl.h>
#include <sys/stat.h>

using namespace Qt::StringLiterals;
using namespace berth;

namespace {

constexpr qint64 kSecond = 1'000'000'000;
const QByteArray kDigest = QByteArray(64, 'a');

FileStamp stamp()
{
    return {5000, 100 * kSecond, 100 * kSecond, 4242, 7};
}

// The modification time of path set back to seconds since the epoch, as `touch -d` does.
bool setModified(const QString &path, qint64 seconds)
{
    const timespec times[2] = {{time_t(seconds), 0}, {time_t(seconds), 0}};
    return utimensat(AT_FDCWD, QFile::encodeName(path).constData(), times, 0) == 0;
}

} // namespace

class TestDigestCache : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    int m_folders = 0;

    QString cacheFolder() const { return m_dir.filePath(u"cache"_s); }
    // A new folder of its own for each test.
    QString newFolder()
    {
        const QString folder = m_dir.filePath(u"folder-%1"_s.arg(++m_folders));
        return QDir().mkpath(folder) ? folder : QString();
    }
    static bool write(const QString &path, const QByteArray &content)
    {
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile file(path);
        return file.open(QIODevice::WriteOnly) && file.write(content) == content.size();
    }
    // A cache of folder with one entry, saved; the digests taken at 200 s, after the stamp's times.
    QString savedWithOneEntry(const QString &folder)
    {
        DigestCache cache = DigestCache::load(folder, cacheFolder(), 200 * kSecond);
        cache.remember(u"a.txt"_s, stamp(), kDigest);
        return cache.save() ? cache.file() : QString();
    }
    QByteArray loadedDigest(const QString &folder, const FileStamp &stamp, const QString &path = u"a.txt"_s)
    {
        return DigestCache::load(folder, cacheFolder(), 300 * kSecond).digestOf(path, stamp);
    }
    static const FileUpload *fileNamed(const FolderContent &content, const QString &path)
    {
        for (const FileUpload &file : *content.content.files) {
            if (file.path == path)
                return &file;
        }
        return nullptr;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void aDigestIsUsedOnlyForAnIdenticalStamp()
    {
        const QString folder = newFolder();
        QVERIFY(!savedWithOneEntry(folder).isEmpty());
        QCOMPARE(loadedDigest(folder, stamp()), kDigest);
        QVERIFY(loadedDigest(folder, stamp(), u"b.txt"_s).isEmpty());

        QList<FileStamp> changed(5, stamp());
        changed[0].size += 1;
        changed[1].modifiedNs += 1;
        changed[2].changedNs += 1;
        changed[3].inode += 1; // written to a new file and renamed over, times and size kept
        changed[4].device += 1;
        for (const FileStamp &other : changed)
            QVERIFY(loadedDigest(folder, other).isEmpty());
    }

    void aFileTouchedWhenTheDigestsWereTakenIsReadAgain()
    {
        const QString folder = newFolder();
        DigestCache cache = DigestCache::load(folder, cacheFolder(), 200 * kSecond);
        FileStamp racy = stamp();
        racy.modifiedNs = 200 * kSecond; // the same tick as the reading: a write later in it keeps this stamp
        racy.changedNs = 200 * kSecond;
        FileStamp changedInTheTick = stamp();
        changedInTheTick.changedNs = 200 * kSecond;
        FileStamp older = stamp();
        older.modifiedNs = 200 * kSecond - 1;
        older.changedNs = 200 * kSecond - 1;
        cache.remember(u"racy.txt"_s, racy, kDigest);
        cache.remember(u"changed.txt"_s, changedInTheTick, kDigest);
        cache.remember(u"older.txt"_s, older, kDigest);
        QVERIFY(cache.save());
        QVERIFY(loadedDigest(folder, racy, u"racy.txt"_s).isEmpty());
        QVERIFY(loadedDigest(folder, changedInTheTick, u"changed.txt"_s).isEmpty());
        QCOMPARE(loadedDigest(folder, older, u"older.txt"_s), kDigest);
    }

    void anotherFoldersCacheIsNeverUsed()
    {
        const QString first = newFolder();
        const QString second = newFolder();
        const QString firstCache = savedWithOneEntry(first);
        QVERIFY(!firstCache.isEmpty());
        // The first folder's cache under the second's name: it names its folder, which is not this one.
        const QString secondCache = DigestCache::fileFor(cacheFolder(), QFileInfo(second).canonicalFilePath());
        QVERIFY(QFile::copy(firstCache, secondCache));
        QCOMPARE(loadedDigest(first, stamp()), kDigest);
        QVERIFY(loadedDigest(second, stamp()).isEmpty());
        QVERIFY(QFile::remove(secondCache));
        // The same folder by another path is the same folder.
        QVERIFY(QFile::link(first, m_dir.filePath(u"first-link"_s)));
        QCOMPARE(loadedDigest(m_dir.filePath(u"first-link"_s), stamp()), kDigest);
    }

    void aDamagedCacheIsIgnored_data()
    {
        QTest::addColumn<QString>("damage");
        QTest::newRow("a byte of the folder's name") << u"flip:10"_s;
        QTest::newRow("a byte of a digest") << u"flip:-70"_s;
        QTest::newRow("a byte of the checksum") << u"flip:-1"_s;
        QTest::newRow("cut short") << u"truncate"_s;
        QTest::newRow("garbage") << u"garbage"_s;
        QTest::newRow("empty") << u"empty"_s;
    }

    void aDamagedCacheIsIgnored()
    {
        QFETCH(QString, damage);
        const QString folder = newFolder();
        const QString file = savedWithOneEntry(folder);
        QVERIFY(!file.isEmpty());
        QFile cache(file);
        QVERIFY(cache.open(QIODevice::ReadOnly));
        QByteArray bytes = cache.readAll();
        cache.close();
        if (damage.startsWith(u"flip:"_s)) {
            const int at = damage.mid(5).toInt();
            bytes[at < 0 ? bytes.size() + at : at] ^= 0x01;
        } else if (damage == u"truncate"_s) {
            bytes.chop(20);
        } else if (damage == u"garbage"_s) {
            bytes = QByteArray(bytes.size(), '\x7f');
        } else {
            bytes.clear();
        }
        QVERIFY(write(file, bytes));
        QVERIFY(loadedDigest(folder, stamp()).isEmpty());
    }

    void theCacheFileIsTheUsersAlone()
    {
        const QString file = savedWithOneEntry(newFolder());
        struct stat status = {};
        QCOMPARE(::stat(QFile::encodeName(file).constData(), &status), 0);
        QCOMPARE(status.st_mode & 0777, mode_t(0600));
        QCOMPARE(::stat(QFile::encodeName(cacheFolder()).constData(), &status), 0);
        QCOMPARE(status.st_mode & 0777, mode_t(0700));
    }

    void theNumberOfCacheFilesIsBounded()
    {
        const QString caches = m_dir.filePath(u"bounded"_s);
        QString last;
        for (int i = 0; i < DigestCache::kMaxFolders + 3; ++i) {
            DigestCache cache = DigestCache::load(newFolder(), caches, 200 * kSecond);
            cache.remember(u"a.txt"_s, stamp(), kDigest);
            QVERIFY(cache.save());
            last = cache.file();
        }
        QCOMPARE(QDir(caches).entryList(QDir::Files).size(), DigestCache::kMaxFolders);
        QVERIFY(QFile::exists(last));
    }

    void theReaderReadsOnlyWhatTheCacheCannotVouchFor()
    {
        const QString folder = newFolder();
        QVERIFY(write(folder + u"/index.html"_s, "<h1>Home</h1>"));
        QVERIFY(write(folder + u"/css/site.css"_s, "body{color:red}"));
        QVERIFY(setModified(folder + u"/index.html"_s, 1'000'000'000));
        QVERIFY(setModified(folder + u"/css/site.css"_s, 1'000'000'000));

        // The files' change times are of this very tick: the readings are said to begin a second later, so that
        // they are not taken for files touched as their digests were taken.
        const qint64 later = DigestCache::coarseNow() + kSecond;
        // The first reading hashes every file and names it by digest and size alone.
        DigestCache cache = DigestCache::load(folder, cacheFolder(), later);
        const auto first = FolderReader::readDigests(folder, &cache);
        QVERIFY(first);
        QCOMPARE(first.value().fileCount, 2);
        const FileUpload *css = fileNamed(first.value(), u"css/site.css"_s);
        QVERIFY(css && css->isReference() && css->content.isEmpty());
        QCOMPARE(css->sha256, ContentDigest::hexOf("body{color:red}"));
        QCOMPARE(css->size, qint64(15));
        QCOMPARE(first.value().totalBytes, qint64(28));
        QCOMPARE(cache.size(), 2);

        // A planted digest for the stylesheet's stamp as it is: the reader takes it without reading the file.
        const QByteArray planted(64, 'f');
        cache.remember(u"css/site.css"_s, *FileStamp::of(folder + u"/css/site.css"_s), planted);
        QVERIFY(cache.save());
        DigestCache second = DigestCache::load(folder, cacheFolder(), later);
        const auto read = FolderReader::readDigests(folder, &second);
        QVERIFY(read);
        QCOMPARE(fileNamed(read.value(), u"css/site.css"_s)->sha256, planted);
        QCOMPARE(FolderReader::contentOf(read.value(), read.value().sourceFiles.indexOf(folder + u"/css/site.css"_s))
                     .value(),
            QByteArray("body{color:red}"));

        // The same size and the old modification time, in a new file renamed over the old one: read again.
        QVERIFY(write(folder + u"/css/new.tmp"_s, "body{color:0f0}"));
        QVERIFY(setModified(folder + u"/css/new.tmp"_s, 1'000'000'000));
        QVERIFY(::rename(QFile::encodeName(folder + u"/css/new.tmp"_s).constData(),
                    QFile::encodeName(folder + u"/css/site.css"_s).constData())
            == 0);
        QVERIFY(second.save());
        DigestCache third = DigestCache::load(folder, cacheFolder(), later + kSecond);
        const auto reread = FolderReader::readDigests(folder, &third);
        QVERIFY(reread);
        QCOMPARE(fileNamed(reread.value(), u"css/site.css"_s)->sha256, ContentDigest::hexOf("body{color:0f0}"));
    }

    void anUnchangedFileIsNotScannedForSecretsAgain()
    {
        const QString folder = newFolder();
        const QByteArray key = "const key = 'AKIAABCDEFGHIJKLMNOP';";
        QVERIFY(write(folder + u"/index.html"_s, "<h1>Home</h1>"));
        QVERIFY(write(folder + u"/keys.js"_s, key));
        const auto hasAwsKey = [](const QList<PublishIssue> &issues) {
            return std::any_of(issues.cbegin(), issues.cend(),
                [](const PublishIssue &issue) { return issue.finding == PublishIssue::Finding::AwsAccessKey; });
        };
        const qint64 later = DigestCache::coarseNow() + kSecond; // as above: the files are of this very tick
        DigestCache cache = DigestCache::load(folder, cacheFolder(), later);
        QList<PublishIssue> issues;
        QVERIFY(FolderReader::readDigests(folder, &cache, {}, nullptr, &issues));
        QVERIFY(hasAwsKey(issues));

        // A planted scan that found nothing, for the file as it is: the checks take it without reading the file.
        const QString path = folder + u"/keys.js"_s;
        cache.keep({path, u"keys.js"_s, key.size(), FileStamp::of(path)}, {});
        QVERIFY(cache.save());
        DigestCache planted = DigestCache::load(folder, cacheFolder(), later);
        QVERIFY(FolderReader::readDigests(folder, &planted, {}, nullptr, &issues));
        QVERIFY(!hasAwsKey(issues));

        // The same bytes written again (a new change time): scanned again.
        QVERIFY(write(path, key));
        QVERIFY(planted.save());
        DigestCache rewritten = DigestCache::load(folder, cacheFolder(), later + kSecond);
        QVERIFY(FolderReader::readDigests(folder, &rewritten, {}, nullptr, &issues));
        QVERIFY(hasAwsKey(issues));
    }
};

QTEST_GUILESS_MAIN(TestDigestCache)
#include "tst_digestcache.moc"
