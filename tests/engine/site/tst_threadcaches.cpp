// What the serving threads keep of their own (ThreadLocalCache): every thread sees a change of the site table at
// once, a hit shares no reference count with another thread, and the bounds and the eviction order hold.
#include "domain/siterules/sitetable.h"
#include "site/hotfilecache.h"

#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace Qt::StringLiterals;
using namespace berth;

namespace {

std::shared_ptr<const Site> loadedSite(const QString &id, const QString &slug, const QString &title = {})
{
    auto site = std::make_shared<Site>();
    site->deployment.id = id;
    site->deployment.slug = slug;
    site->deployment.title = title;
    return site;
}

// Whether two pointers share one reference count (one control block).
template<typename T>
bool shareOwnership(const std::shared_ptr<T> &a, const std::shared_ptr<T> &b)
{
    return !a.owner_before(b) && !b.owner_before(a);
}

// A thread of its own that runs what it is given and hands the result back: its thread-local caches last from
// one call to the next, as a serving thread's do.
class OtherThread final
{
public:
    OtherThread()
    {
        m_thread.start();
        m_context.moveToThread(&m_thread);
    }
    ~OtherThread()
    {
        m_thread.quit();
        m_thread.wait();
    }

    template<typename Function>
    auto run(Function function)
    {
        decltype(function()) result;
        QMetaObject::invokeMethod(
            &m_context, [&] { result = function(); }, Qt::BlockingQueuedConnection);
        return result;
    }

private:
    QThread m_thread;
    QObject m_context;
};

} // namespace

class TestThreadCaches final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aChangeReachesAThreadThatFoundTheOldSite()
    {
        SiteTable table;
        table.put(loadedSite(u"dep_1"_s, u"blog"_s, u"first"_s));
        OtherThread serving;
        const auto find = [&] { return table.find(u"blog"_s); };
        QCOMPARE(serving.run(find)->deployment.title, u"first"_s);
        QCOMPARE(serving.run(find)->deployment.title, u"first"_s); // now from the thread's own copy

        table.put(loadedSite(u"dep_1"_s, u"blog"_s, u"second"_s));
        QCOMPARE(serving.run(find)->deployment.title, u"second"_s);

        table.put(loadedSite(u"dep_1"_s, u"renamed"_s, u"second"_s)); // a rename frees the old slug everywhere
        QVERIFY(!serving.run(find));
        table.remove(u"dep_1"_s);
        QVERIFY(!serving.run([&] { return table.find(u"renamed"_s); }));
    }

    void aSlugFoundAbsentIsFoundOncePut()
    {
        SiteTable table;
        OtherThread serving;
        const auto find = [&] { return table.find(u"later"_s); };
        QVERIFY(!serving.run(find));
        QVERIFY(!serving.run(find)); // the absence is kept too
        table.put(loadedSite(u"dep_2"_s, u"later"_s));
        QVERIFY(serving.run(find));
    }

    void aHitSharesNoCountWithAnotherThread()
    {
        SiteTable table;
        const auto stored = loadedSite(u"dep_3"_s, u"popular"_s);
        table.put(stored);
        OtherThread first;
        OtherThread second;
        const auto find = [&] { return table.find(u"popular"_s); };
        const auto a1 = first.run(find);
        const auto a2 = first.run(find);
        const auto b1 = second.run(find);
        QCOMPARE(a1.get(), stored.get()); // the one site
        QCOMPARE(b1.get(), stored.get());
        QVERIFY(shareOwnership(a1, a2)); // the thread's own count
        QVERIFY(!shareOwnership(a1, b1)); // each thread moves a count of its own
        QVERIFY(!shareOwnership(a1, stored)); // and not the table's
    }

    void aThreadKeepsAtMostItsBound()
    {
        SiteTable table;
        const int count = SiteTable::kThreadCacheEntries * 2 + 7;
        for (int i = 0; i < count; ++i)
            table.put(loadedSite(u"dep_%1"_s.arg(i), u"site-%1"_s.arg(i)));
        OtherThread serving;
        // Past the bound the thread starts again empty: every site is still found, and found right.
        for (int round = 0; round < 2; ++round) {
            for (int i = 0; i < count; ++i) {
                const auto site = serving.run([&] { return table.find(u"site-%1"_s.arg(i)); });
                QVERIFY(site);
                QCOMPARE(site->deployment.id, u"dep_%1"_s.arg(i));
            }
        }
    }

    void aSiteFoundSinceTheLastChangeOutlivesOneThatWasNot()
    {
        SiteTable table;
        table.setLoadedLimit(2);
        table.put(loadedSite(u"dep_a"_s, u"a"_s));
        table.put(loadedSite(u"dep_b"_s, u"b"_s));
        OtherThread serving;
        QVERIFY(serving.run([&] { return table.find(u"a"_s); })); // "a" is now used more recently than "b"
        table.put(loadedSite(u"dep_c"_s, u"c"_s));
        QVERIFY(table.find(u"a"_s)->loaded);
        QVERIFY(!table.find(u"b"_s)->loaded); // a placeholder again
        QVERIFY(table.find(u"c"_s)->loaded);
        QCOMPARE(table.loadedCount(), 2);
    }

    void aHotFileIsReadOnceAndCopiedPerThread()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(u"page"_s);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray(2700, 'x'));
        file.close();

        HotFileCache cache;
        int reads = 0;
        const auto get = [&] {
            return cache.get("blob-1", [&] {
                ++reads;
                return path;
            });
        };
        OtherThread first;
        OtherThread second;
        const QByteArray a1 = first.run(get);
        const QByteArray a2 = first.run(get);
        const QByteArray b1 = second.run(get);
        QCOMPARE(a1, QByteArray(2700, 'x'));
        QCOMPARE(b1, a1);
        QCOMPARE(reads, 1); // the second thread took it from the shared cache, not the disk
        QCOMPARE(a2.constData(), a1.constData()); // the first thread's own copy, kept
        QVERIFY(b1.constData() != a1.constData()); // not shared with the other thread
    }

    void aFileLargerThanAThreadsBudgetIsStillServed()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        HotFileCache cache;
        OtherThread serving;
        // More small files than a thread keeps: each still comes back whole and right.
        const int count = int(HotFileCache::kThreadBudgetBytes / HotFileCache::kMaxCachedFileBytes) + 3;
        for (int i = 0; i < count; ++i) {
            const QString path = dir.filePath(QString::number(i));
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(QByteArray(int(HotFileCache::kMaxCachedFileBytes), char('a' + i % 26)));
            file.close();
            const QByteArray bytes
                = serving.run([&] { return cache.get(QByteArray::number(i), [&] { return path; }); });
            QCOMPARE(bytes.size(), HotFileCache::kMaxCachedFileBytes);
            QCOMPARE(bytes.at(0), char('a' + i % 26));
        }
        // The first one, out of the thread's copies by now, from the shared cache (no path given: no disk read).
        const QByteArray first = serving.run([&] { return cache.get("0", [] { return QString(); }); });
        QCOMPARE(first.size(), HotFileCache::kMaxCachedFileBytes);
        QCOMPARE(first.at(0), 'a');
    }
};

QTEST_GUILESS_MAIN(TestThreadCaches)
#include "tst_threadcaches.moc"
