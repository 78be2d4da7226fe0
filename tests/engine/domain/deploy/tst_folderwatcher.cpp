// A live folder's watcher: edits, additions and deletions anywhere in the tree are seen, and a burst of
// changes becomes one signal.
#include "domain/deploy/folderwatcher.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::FolderWatcher;

class TestFolderWatcher : public QObject
{
    Q_OBJECT

    static bool write(const QString &path, const QByteArray &content)
    {
        QFile file(path);
        return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(content) == content.size();
    }

private Q_SLOTS:
    void editsAddsAndDeletesAreSeen()
    {
        QTemporaryDir dir;
        QVERIFY(write(dir.filePath(u"index.html"_s), "one"));
        FolderWatcher watcher(dir.path());
        watcher.setDebounce(100);
        QVERIFY(watcher.isWatching());
        QSignalSpy changed(&watcher, &FolderWatcher::changed);

        QVERIFY(write(dir.filePath(u"index.html"_s), "two")); // an edit
        QTRY_COMPARE_WITH_TIMEOUT(changed.size(), 1, 3000);

        QVERIFY(QDir(dir.path()).mkpath(u"sub/deeper"_s)); // a new folder, then a file inside it
        QTRY_COMPARE_WITH_TIMEOUT(changed.size(), 2, 3000);
        QVERIFY(write(dir.filePath(u"sub/deeper/page.html"_s), "deep"));
        QTRY_COMPARE_WITH_TIMEOUT(changed.size(), 3, 3000);
        QVERIFY(write(dir.filePath(u"sub/deeper/page.html"_s), "deeper")); // and an edit of that file
        QTRY_COMPARE_WITH_TIMEOUT(changed.size(), 4, 3000);

        QVERIFY(QFile::remove(dir.filePath(u"sub/deeper/page.html"_s))); // a deletion
        QTRY_COMPARE_WITH_TIMEOUT(changed.size(), 5, 3000);
    }

    void aBurstGivesOneSignal()
    {
        QTemporaryDir dir;
        QVERIFY(write(dir.filePath(u"index.html"_s), "start"));
        FolderWatcher watcher(dir.path());
        watcher.setDebounce(300);
        QSignalSpy changed(&watcher, &FolderWatcher::changed);
        for (int i = 0; i < 500; ++i) // 500 changes: new files and rewrites, as fast as they come
            QVERIFY(write(dir.filePath(u"f%1.txt"_s.arg(i % 250)), QByteArray::number(i)));
        QTRY_VERIFY_WITH_TIMEOUT(changed.size() >= 1, 5000);
        // Quiet from here on: nothing more comes (waiting on the event loop, twice the debounce).
        QTest::qWait(600);
        QVERIFY2(changed.size() <= 3, qPrintable(u"%1 signals"_s.arg(changed.size())));
    }

    void hiddenEntriesAreIgnored()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(u".git"_s));
        QVERIFY(write(dir.filePath(u"index.html"_s), "x"));
        FolderWatcher watcher(dir.path());
        watcher.setDebounce(50);
        QSignalSpy changed(&watcher, &FolderWatcher::changed);
        QVERIFY(write(dir.filePath(u".git/HEAD"_s), "ref")); // inside a hidden folder: not watched
        QTest::qWait(300);
        QCOMPARE(changed.size(), 0);
    }
};

QTEST_GUILESS_MAIN(TestFolderWatcher)
#include "tst_folderwatcher.moc"
