// `berthd deploy` reads and sends only what changed, with the digests of unchanged files kept in the user's cache
// folder (one private file per folder): an unchanged redeploy sends no content; a file replaced with its size and
// modification time kept is sent; a cache written for another folder, or damaged, is never used. Against a real
// berthd server, with request bytes counted by a loopback relay between the two.
#include "berthdprocess.h"
#include "countingrelay.h"
#include "domain/deploy/digestcache.h"
#include "httptestclient.h"
#include "storage/contentdigest.h"

#include <QTemporaryDir>
#include <QTest>
#include <fcntl.h>
#include <sys/stat.h>

using namespace Qt::StringLiterals;
using berth::DigestCache;
using berth::FileStamp;
using berth::test::BerthdProcess;
using berth::test::CountingRelay;
using berth::test::HttpTestClient;

namespace {

bool write(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(bytes) == bytes.size();
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

struct Deployed
{
    int exitCode = -1;
    QByteArray output; // standard output, then standard error
    qint64 sentBytes = 0; // what the client sent to the server, headers included
};

} // namespace

class TestBerthdDigests : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_data;
    QTemporaryDir m_work;
    std::unique_ptr<BerthdProcess> m_server;
    std::unique_ptr<HttpTestClient> m_http;
    std::unique_ptr<CountingRelay> m_relay;
    QByteArray m_key;

    QString cacheFolder() const { return m_work.filePath(u"cache/berth/digests"_s); }
    QString cacheFileOf(const QString &folder) const
    {
        return DigestCache::fileFor(cacheFolder(), QFileInfo(folder).canonicalFilePath());
    }
    // `berthd deploy` through the relay, in the background so that the relay, on this thread, keeps relaying.
    Deployed deploy(const QStringList &arguments)
    {
        const QProcessEnvironment env = BerthdProcess::clientEnvironment(m_key, m_work.path());
        m_relay->takeSent();
        const auto [exitCode, output] = berth::test::runWhileRelaying(QStringLiteral(BERTHD_PATH),
            QStringList {u"deploy"_s} + arguments
                + QStringList {u"--url"_s, u"http://localhost:%1"_s.arg(m_relay->port())},
            env);
        return {exitCode, output, m_relay->takeSent()};
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_data.isValid() && m_work.isValid());
        m_server = BerthdProcess::startWithOwnerKey(m_data.path(), &m_key);
        QVERIFY(m_server);
        m_http = std::make_unique<HttpTestClient>(m_server->port());
        m_relay = std::make_unique<CountingRelay>(m_server->port());
    }

    void anUnchangedRedeploySendsNoContent()
    {
        const QString site = m_work.filePath(u"unchanged"_s);
        QVERIFY(write(site + u"/index.html"_s, "<h1>Unchanged</h1>"));
        for (int i = 0; i < 20; ++i) // 20 files of 32 KiB
            QVERIFY(write(site + u"/assets/f%1.bin"_s.arg(i), QByteArray::number(i) + QByteArray(32 * 1024, 'u')));
        const Deployed first = deploy({site, u"--slug"_s, u"unchanged-site"_s});
        QVERIFY2(first.exitCode == 0, first.output.constData());
        QVERIFY2(first.sentBytes > 20 * 32 * 1024, qPrintable(QString::number(first.sentBytes)));

        const Deployed again = deploy({site, u"--update"_s, u"unchanged-site"_s});
        QVERIFY2(again.exitCode == 0, again.output.constData());
        QVERIFY2(again.output.contains("Sent 0 of 21 files; the server held the rest"), again.output.constData());
        // 21 digests and the look-up of the site: less than one file's content.
        QVERIFY2(again.sentBytes < 16 * 1024, qPrintable(QString::number(again.sentBytes)));
        QCOMPARE(
            m_http->site(u"unchanged-site"_s, u"/assets/f7.bin"_s).body, QByteArray("7") + QByteArray(32 * 1024, 'u'));
    }

    void aFirstPublishSharingAPageWithAnotherSiteGoesAsAnArchive()
    {
        // The server holds the page already (another site has it); the rest, nearly all the bytes, is new.
        const QString other = m_work.filePath(u"other"_s);
        QVERIFY(write(other + u"/index.html"_s, "<h1>Shared page</h1>"));
        QVERIFY2(deploy({other, u"--slug"_s, u"other-site"_s}).exitCode == 0, "the other site");
        const QString site = m_work.filePath(u"mostly-new"_s);
        QVERIFY(write(site + u"/index.html"_s, "<h1>Shared page</h1>"));
        QByteArray content;
        for (int i = 0; i < 20; ++i) { // 20 files of 32 KiB that do not compress, so base64 would show
            QByteArray bytes(32 * 1024, Qt::Uninitialized);
            for (qsizetype b = 0; b < bytes.size(); ++b)
                bytes[b] = char((b * 7919 + i * 104729 + (b >> 5) * 31) % 251);
            QVERIFY(write(site + u"/assets/f%1.bin"_s.arg(i), bytes));
            content += bytes;
        }
        const Deployed first = deploy({site, u"--slug"_s, u"mostly-new"_s});
        QVERIFY2(first.exitCode == 0, first.output.constData());
        // As an archive: the content, a 512-byte header per file and the digests' look-up. As base64 in JSON it
        // would be a third more than the content.
        QVERIFY2(first.sentBytes < content.size() * 115 / 100, qPrintable(QString::number(first.sentBytes)));
        QCOMPARE(m_http->site(u"mostly-new"_s, u"/assets/f7.bin"_s).body, content.mid(7 * 32 * 1024, 32 * 1024));
        QCOMPARE(m_http->site(u"mostly-new"_s, u"/"_s).body, QByteArray("<h1>Shared page</h1>"));
    }

    void aFileReplacedWithItsSizeAndTimeKeptIsSent()
    {
        const QString site = m_work.filePath(u"replaced"_s);
        QVERIFY(write(site + u"/index.html"_s, "<h1>Replaced</h1>"));
        QVERIFY(write(site + u"/site.css"_s, "body{color:red}"));
        QVERIFY(write(site + u"/app.js"_s, "console.log(1)"));
        const Deployed first = deploy({site, u"--slug"_s, u"replaced-site"_s});
        QVERIFY2(first.exitCode == 0, first.output.constData());

        // Written to a new file with the same size, given the old modification time (touch -d), renamed over.
        const QString css = site + u"/site.css"_s;
        struct stat before = {};
        QCOMPARE(::stat(QFile::encodeName(css).constData(), &before), 0);
        QVERIFY(write(site + u"/site.css.new"_s, "body{color:0f0}"));
        const timespec times[2] = {before.st_atim, before.st_mtim};
        QCOMPARE(utimensat(AT_FDCWD, QFile::encodeName(site + u"/site.css.new"_s).constData(), times, 0), 0);
        QCOMPARE(
            ::rename(QFile::encodeName(site + u"/site.css.new"_s).constData(), QFile::encodeName(css).constData()), 0);
        struct stat after = {};
        QCOMPARE(::stat(QFile::encodeName(css).constData(), &after), 0);
        QCOMPARE(after.st_size, before.st_size);
        QCOMPARE(after.st_mtim.tv_sec, before.st_mtim.tv_sec);
        QCOMPARE(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
        QVERIFY(after.st_ino != before.st_ino);

        const Deployed again = deploy({site, u"--update"_s, u"replaced-site"_s});
        QVERIFY2(again.exitCode == 0, again.output.constData());
        QVERIFY2(again.output.contains("Sent 1 of 3 files"), again.output.constData());
        QCOMPARE(m_http->site(u"replaced-site"_s, u"/site.css"_s).body, QByteArray("body{color:0f0}"));
    }

    void anotherFoldersCacheIsNeverUsed()
    {
        const QString first = m_work.filePath(u"first"_s);
        QVERIFY(write(first + u"/index.html"_s, "<p>first</p>"));
        QVERIFY(write(first + u"/other.html"_s, "<p>other</p>"));
        Deployed deployed = deploy({first, u"--slug"_s, u"first-folder"_s});
        QVERIFY2(deployed.exitCode == 0, deployed.output.constData());
        QVERIFY(QFile::exists(cacheFileOf(first)));

        // A cache written for the first folder that says the second folder's index.html, as it is, holds the
        // content of other.html (which the server holds): put under the second folder's name, it is not used.
        const QString second = m_work.filePath(u"second"_s);
        QVERIFY(write(second + u"/index.html"_s, "<p>second</p>"));
        const QByteArray otherDigest = berth::ContentDigest::hexOf("<p>other</p>");
        const qint64 later = DigestCache::coarseNow() + 1'000'000'000; // not racy: the digests "taken" after it all
        DigestCache planted = DigestCache::load(first, cacheFolder(), later);
        planted.remember(u"index.html"_s, *FileStamp::of(second + u"/index.html"_s), otherDigest);
        QVERIFY(planted.save());
        QVERIFY(QFile::rename(cacheFileOf(first), cacheFileOf(second)));
        deployed = deploy({second, u"--slug"_s, u"second-folder"_s});
        QVERIFY2(deployed.exitCode == 0, deployed.output.constData());
        QCOMPARE(m_http->site(u"second-folder"_s).body, QByteArray("<p>second</p>"));

        // The same planted digest in the first folder's own cache is trusted: that folder's unchanged files are
        // not read at all.
        DigestCache own = DigestCache::load(first, cacheFolder(), later);
        own.remember(u"index.html"_s, *FileStamp::of(first + u"/index.html"_s), otherDigest);
        QVERIFY(own.save());
        deployed = deploy({first, u"--update"_s, u"first-folder"_s});
        QVERIFY2(deployed.exitCode == 0, deployed.output.constData());
        QCOMPARE(m_http->site(u"first-folder"_s).body, QByteArray("<p>other</p>"));
    }

    void theCacheFileIsTheUsersAlone()
    {
        const QString site = m_work.filePath(u"private"_s);
        QVERIFY(write(site + u"/index.html"_s, "<p>private</p>"));
        const Deployed deployed = deploy({site, u"--slug"_s, u"private-cache"_s});
        QVERIFY2(deployed.exitCode == 0, deployed.output.constData());
        struct stat status = {};
        QCOMPARE(::stat(QFile::encodeName(cacheFileOf(site)).constData(), &status), 0);
        QCOMPARE(status.st_mode & 0777, mode_t(0600));
        QCOMPARE(::stat(QFile::encodeName(cacheFolder()).constData(), &status), 0);
        QCOMPARE(status.st_mode & 0777, mode_t(0700));
    }

    void aDamagedCacheIsIgnored()
    {
        const QString site = m_work.filePath(u"damaged"_s);
        QVERIFY(write(site + u"/index.html"_s, "<p>damaged</p>"));
        QVERIFY(write(site + u"/notes.txt"_s, "some notes"));
        Deployed deployed = deploy({site, u"--slug"_s, u"damaged-cache"_s});
        QVERIFY2(deployed.exitCode == 0, deployed.output.constData());
        // Once more, so that the digests are taken well after the files were written (none of them racy).
        deployed = deploy({site, u"--update"_s, u"damaged-cache"_s});
        QVERIFY2(deployed.exitCode == 0, deployed.output.constData());

        // One hex digit of notes.txt's digest changed: were it trusted, that digest would name content the server
        // lacks, and the file would be sent.
        const QString file = cacheFileOf(site);
        QByteArray bytes = readAll(file);
        const qsizetype at = bytes.indexOf(berth::ContentDigest::hexOf("some notes"));
        QVERIFY(at >= 0);
        bytes[at] = bytes.at(at) == 'a' ? 'b' : 'a';
        QVERIFY(write(file, bytes));
        deployed = deploy({site, u"--update"_s, u"damaged-cache"_s});
        QVERIFY2(deployed.exitCode == 0, deployed.output.constData());
        QVERIFY2(deployed.output.contains("Sent 0 of 2 files"), deployed.output.constData());

        QVERIFY(write(file, "not a cache at all"));
        deployed = deploy({site, u"--update"_s, u"damaged-cache"_s});
        QVERIFY2(deployed.exitCode == 0, deployed.output.constData());
        QVERIFY2(deployed.output.contains("Sent 0 of 2 files"), deployed.output.constData());
        QCOMPARE(m_http->site(u"damaged-cache"_s, u"/notes.txt"_s).body, QByteArray("some notes"));
        QVERIFY(readAll(file).contains(berth::ContentDigest::hexOf("some notes"))); // written anew
    }
};

QTEST_GUILESS_MAIN(TestBerthdDigests)
#include "tst_berthddigests.moc"
