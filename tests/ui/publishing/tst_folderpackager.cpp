// Reading folders and .html files into deploy requests: what is skipped, what is refused and how
// the refusal names the file, and progress and cancel on the worker.
#include "ui/publishing/folderpackager.h"

#include <QDir>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;

class TestFolderPackager : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString write(const QString &relative, const QByteArray &content)
    {
        const QString path = m_dir.filePath(relative);
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(content) != content.size())
            return {};
        return path;
    }
    QString sparse(const QString &relative, qint64 bytes)
    {
        const QString path = m_dir.filePath(relative);
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile file(path);
        return file.open(QIODevice::WriteOnly) && file.resize(bytes) ? path : QString();
    }
    static Result<FolderContent> package(const QString &path)
    {
        return FolderPackager::package(path, [](int, int) { return true; });
    }

private Q_SLOTS:
    void init() { QVERIFY(m_dir.isValid()); }
    void cleanup() { QVERIFY(QDir(m_dir.path()).removeRecursively() && QDir().mkpath(m_dir.path())); }

    void folderSkipsHiddenFilesAndGit()
    {
        write(u"site/index.html"_s, "<h1>x</h1>");
        write(u"site/css/site.css"_s, "a{}");
        write(u"site/img/logo.svg"_s, "<svg/>");
        write(u"site/.git/HEAD"_s, "ref");
        write(u"site/.DS_Store"_s, "junk");
        write(u"site/img/.hidden.png"_s, "p");
        const auto result = package(m_dir.filePath(u"site"_s));
        QVERIFY2(result, qPrintable(result.error().message));
        const FolderContent &site = result.value();
        QVERIFY(site.content.files && !site.content.html);
        QStringList paths;
        for (const FileUpload &file : *site.content.files)
            paths.append(file.path);
        paths.sort();
        QCOMPARE(paths, (QStringList {u"css/site.css"_s, u"img/logo.svg"_s, u"index.html"_s}));
        QCOMPARE(site.skippedHidden, 3);
        QVERIFY(site.hasIndex);
        QCOMPARE(site.totalBytes, qint64(10 + 3 + 6));
        for (const FileUpload &file : *site.content.files) {
            if (file.path == u"css/site.css")
                QCOMPARE(file.contentType, QByteArray("text/css; charset=utf-8"));
        }
    }

    void htmlFileIsASinglePage()
    {
        const auto result = package(write(u"page.HTML"_s, "<title>T</title>héllo"));
        QVERIFY(result);
        QVERIFY(result.value().singleHtml);
        QCOMPARE(*result.value().content.html, u"<title>T</title>héllo"_s);
    }

    void refusalsNameTheProblem_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("expected");
        QTest::newRow("file over 10 MB") << u"big"_s << u"“deep/movie.mp4” is 10.0 MB"_s;
        QTest::newRow("page over 5 MB") << u"huge.html"_s << u"a single HTML page can be at most 5 MB"_s;
        QTest::newRow("not html") << u"notes.txt"_s << u"Only a folder or an .html file"_s;
        QTest::newRow("only hidden") << u"empty"_s << u"has no files to publish"_s;
        QTest::newRow("over 50 MB in total") << u"many"_s << u"a site can be at most 50 MB in total"_s;
        QTest::newRow("not a web path") << u"odd"_s << u"“a\\b.txt” cannot be published"_s;
    }
    void refusalsNameTheProblem()
    {
        QFETCH(QString, path);
        QFETCH(QString, expected);
        write(u"big/index.html"_s, "x");
        sparse(u"big/deep/movie.mp4"_s, 10 * 1024 * 1024 + 1);
        sparse(u"huge.html"_s, 5 * 1024 * 1024 + 1);
        write(u"notes.txt"_s, "x");
        write(u"empty/.only-hidden"_s, "x");
        for (int i = 0; i < 6; ++i)
            sparse(u"many/part%1.bin"_s.arg(i), 9 * 1024 * 1024);
        write(u"odd/a\\b.txt"_s, "x");
        const auto result = package(m_dir.filePath(path));
        QVERIFY(!result);
        QVERIFY2(result.error().message.contains(expected), qPrintable(result.error().message));
    }

    void progressCountsFilesAndCanStop()
    {
        for (int i = 0; i < 5; ++i)
            write(u"five/f%1.txt"_s.arg(i), "x");
        QList<std::pair<int, int>> steps;
        QVERIFY(FolderPackager::package(m_dir.filePath(u"five"_s), [&](int done, int total) {
            steps.append({done, total});
            return true;
        }));
        QCOMPARE(steps.last(), std::make_pair(5, 5));
        const auto stopped = FolderPackager::package(m_dir.filePath(u"five"_s), [](int done, int) { return done < 2; });
        QVERIFY(!stopped);
    }

    void runsOnAWorkerAndReports()
    {
        for (int i = 0; i < 20; ++i)
            write(u"async/f%1.txt"_s.arg(i), QByteArray(100, 'x'));
        FolderPackager packager;
        QSignalSpy finished(&packager, &FolderPackager::finished);
        QSignalSpy progress(&packager, &FolderPackager::progressChanged);
        packager.start(m_dir.filePath(u"async"_s));
        QVERIFY(finished.wait(5000));
        QVERIFY(packager.result().has_value());
        QCOMPARE(packager.result()->value().fileCount, 20);
        QVERIFY(!progress.isEmpty());
    }

    void cancelLeavesNoResult()
    {
        write(u"c/index.html"_s, "x");
        FolderPackager packager;
        QSignalSpy finished(&packager, &FolderPackager::finished);
        packager.start(m_dir.filePath(u"c"_s));
        packager.cancel();
        QVERIFY(finished.wait(5000));
        QVERIFY(!packager.result().has_value());
    }
};

QTEST_MAIN(TestFolderPackager)
#include "tst_folderpackager.moc"
