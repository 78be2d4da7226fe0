// What a folder publishes, read by the one reader the dashboard, `berthd deploy` and live folders share: hidden files
// and links out of the folder left out, links inside followed for files only, limits refused before reading with a
// reason a front end can word and an English message.
#include "domain/deploy/deploymentlimits.h"
#include "domain/deploy/folderreader.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;

class TestFolderReader : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString path(const QString &relative) const { return m_dir.filePath(relative); }
    bool write(const QString &relative, const QByteArray &content) const
    {
        QDir().mkpath(QFileInfo(path(relative)).absolutePath());
        QFile file(path(relative));
        return file.open(QIODevice::WriteOnly) && file.write(content) == content.size();
    }
    bool link(const QString &target, const QString &relative) const
    {
        QDir().mkpath(QFileInfo(path(relative)).absolutePath());
        return QFile::link(target, path(relative));
    }
    static QStringList paths(const FolderContent &content)
    {
        QStringList paths;
        for (const FileUpload &file : content.content.files.value_or(QList<FileUpload> {}))
            paths.append(file.path);
        return paths;
    }
    static QByteArray contentOf(const FolderContent &content, const QString &path)
    {
        for (const FileUpload &file : content.content.files.value_or(QList<FileUpload> {})) {
            if (file.path == path)
                return file.content;
        }
        return "(not published)";
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void linksOutOfTheFolderAreLeftOut()
    {
        QVERIFY(write(u"outside/secret.txt"_s, "the machine's own file"));
        QVERIFY(write(u"site/index.html"_s, "<h1>Home</h1>"));
        QVERIFY(link(u"/etc/hostname"_s, u"site/host.txt"_s)); // absolute, out of the folder
        QVERIFY(link(u"../outside/secret.txt"_s, u"site/relative.txt"_s)); // relative, out of the folder
        QVERIFY(link(path(u"outside"_s), u"site/assets"_s)); // a folder out of the folder
        QVERIFY(link(u"nowhere.txt"_s, u"site/dangling.txt"_s)); // a link to nothing
        QVERIFY(link(u"../../outside/secret.txt"_s, u"site/deep/er.txt"_s)); // out of the folder from below

        const Result<FolderContent> read = FolderReader::read(path(u"site"_s));
        QVERIFY2(read, qPrintable(read ? QString() : read.error().message));
        QCOMPARE(paths(read.value()), QStringList {u"index.html"_s});
        QCOMPARE(read.value().linksOutside,
            (QStringList {u"assets"_s, u"dangling.txt"_s, u"deep/er.txt"_s, u"host.txt"_s, u"relative.txt"_s}));
        QCOMPARE(read.value().fileCount, 1);
    }

    void linksInsideTheFolderPublishTheirFile()
    {
        QVERIFY(write(u"inner/index.html"_s, "<h1>Inner</h1>"));
        QVERIFY(write(u"inner/css/site.css"_s, "body{}"));
        QVERIFY(link(u"css/site.css"_s, u"inner/style.css"_s)); // a file inside: published with its content
        QVERIFY(link(path(u"inner/css"_s), u"inner/styles"_s)); // a folder inside: not followed (no file twice)
        QVERIFY(link(path(u"inner"_s), u"inner/css/loop"_s)); // a cycle: not followed

        const Result<FolderContent> read = FolderReader::read(path(u"inner"_s));
        QVERIFY(read);
        QCOMPARE(paths(read.value()), (QStringList {u"css/site.css"_s, u"index.html"_s, u"style.css"_s}));
        QCOMPARE(contentOf(read.value(), u"style.css"_s), QByteArray("body{}"));
        QVERIFY(read.value().linksOutside.isEmpty());
        QVERIFY(read.value().hasIndex);
    }

    void aFolderReachedThroughALinkIsReadAsItself()
    {
        QVERIFY(write(u"real/index.html"_s, "<h1>Real</h1>"));
        QVERIFY(write(u"real/page.html"_s, "<h1>Page</h1>"));
        QVERIFY(link(u"index.html"_s, u"real/alias.html"_s));
        QVERIFY(link(path(u"real"_s), u"through-link"_s));

        const Result<FolderContent> read = FolderReader::read(path(u"through-link"_s));
        QVERIFY(read);
        QCOMPARE(paths(read.value()), (QStringList {u"alias.html"_s, u"index.html"_s, u"page.html"_s}));
        QVERIFY(read.value().linksOutside.isEmpty());
    }

    void hiddenFilesAreCountedAndLeftOut()
    {
        QVERIFY(write(u"hidden/index.html"_s, "x"));
        QVERIFY(write(u"hidden/.env"_s, "SECRET=1"));
        QVERIFY(write(u"hidden/.git/config"_s, "[core]"));
        const Result<FolderContent> read = FolderReader::read(path(u"hidden"_s));
        QVERIFY(read);
        QCOMPARE(paths(read.value()), QStringList {u"index.html"_s});
        QCOMPARE(read.value().skippedHidden, 2);
    }

    void onlyLinksOutIsNothingToPublish()
    {
        QVERIFY(link(u"/etc/hostname"_s, u"only-links/host.txt"_s));
        FolderRefusal refusal;
        const Result<FolderContent> read = FolderReader::read(path(u"only-links"_s), {}, &refusal);
        QVERIFY(!read);
        QCOMPARE(read.error().kind, Error::Kind::BadRequest);
        QCOMPARE(refusal.reason, FolderRefusal::Reason::NoFiles);
        QCOMPARE(refusal.name, u"only-links"_s);
        QVERIFY2(read.error().message.contains(u"links out of the folder"_s), qPrintable(read.error().message));
    }

    void limitsAreRefusedWithTheirReason_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<int>("reason");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("message");

        QVERIFY(write(u"big-file/index.html"_s, "x"));
        QFile big(path(u"big-file/video.bin"_s));
        QVERIFY(big.open(QIODevice::WriteOnly) && big.resize(kMaxFileBytes + 1)); // sparse: no disk used
        big.close();
        QTest::newRow("file over the limit")
            << u"big-file"_s << int(FolderRefusal::Reason::FileTooLarge) << int(Error::Kind::TooLarge) << u"video.bin"_s
            << u"File \"video.bin\" is 10.0 MB; each file can be at most 10 MB"_s;
        QVERIFY(write(u"bad-name/a\\b.txt"_s, "x"));
        QTest::newRow("a name no web address holds")
            << u"bad-name"_s << int(FolderRefusal::Reason::UnusableName) << int(Error::Kind::BadRequest)
            << u"a\\b.txt"_s << u"contains a backslash"_s;
        QVERIFY(write(u"page.txt"_s, "x"));
        QTest::newRow("a file that is no page")
            << u"page.txt"_s << int(FolderRefusal::Reason::NotPublishable) << int(Error::Kind::BadRequest)
            << path(u"page.txt"_s) << u"only a folder or an .html file"_s;
        QVERIFY(write(u"empty.html"_s, "  \n"));
        QTest::newRow("an empty page") << u"empty.html"_s << int(FolderRefusal::Reason::EmptyPage)
                                       << int(Error::Kind::BadRequest) << u"empty.html"_s << u"is empty"_s;
        QTest::newRow("missing") << u"no-such"_s << int(FolderRefusal::Reason::Missing) << int(Error::Kind::BadRequest)
                                 << path(u"no-such"_s) << u"does not exist"_s;
    }

    void limitsAreRefusedWithTheirReason()
    {
        QFETCH(QString, folder);
        QFETCH(int, reason);
        QFETCH(int, kind);
        QFETCH(QString, name);
        QFETCH(QString, message);
        FolderRefusal refusal;
        const Result<FolderContent> read = FolderReader::read(path(folder), {}, &refusal);
        QVERIFY(!read);
        QCOMPARE(int(refusal.reason), reason);
        QCOMPARE(int(read.error().kind), kind);
        QCOMPARE(refusal.name, name);
        QVERIFY2(read.error().message.contains(message), qPrintable(read.error().message));
        QCOMPARE(read.error().message, FolderReader::message(refusal));
    }

    void progressCanStopTheReading()
    {
        for (int i = 0; i < 4; ++i)
            QVERIFY(write(u"four/f%1.txt"_s.arg(i), "x"));
        FolderRefusal refusal;
        const Result<FolderContent> read = FolderReader::read(
            path(u"four"_s), [](int done, int) { return done < 2; }, &refusal);
        QVERIFY(!read);
        QCOMPARE(refusal.reason, FolderRefusal::Reason::Cancelled);
        QCOMPARE(read.error().code, Error::Code::PublishCancelled);
    }
};

QTEST_GUILESS_MAIN(TestFolderReader)
#include "tst_folderreader.moc"
