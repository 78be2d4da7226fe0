#pragma once

#include <QByteArray>
#include <QDate>
#include <QHash>
#include <QMutex>
#include <QSet>
#include <QString>
#include <atomic>
#include <list>
#include <memory>
#include <thread>

namespace berth {

class Clock;

// What one answer to a site adds to its analytics. A view carries a visitor: a hash of the day's salt, the
// site, the address and the user agent, made on the serving thread so that no address is ever kept.
struct SiteHit
{
    enum class Kind : quint8
    {
        Other, // only its bytes count (assets, bots, HEAD, 304, prefetches)
        View, // a page view
        NotFound, // a 404 a visitor got
    };
    Kind kind = Kind::Other;
    QString deploymentId;
    QString path; // View and NotFound
    QString referrerHost; // View, when another host referred
    qint64 bytes = 0;
};

// One site's counts of one day, as gathered between two flushes.
struct SiteDayCounts
{
    qint64 views = 0;
    qint64 notFound = 0;
    qint64 bytes = 0;
    QHash<QString, qint64> pages;
    QHash<QString, qint64> referrers;
    QHash<QString, qint64> notFoundPaths;
    QSet<quint64> visitors;
};

struct SiteDayKey
{
    QString deploymentId;
    QDate day;
    friend bool operator==(const SiteDayKey &a, const SiteDayKey &b)
    {
        return a.day == b.day && a.deploymentId == b.deploymentId;
    }
};
inline size_t qHash(const SiteDayKey &key, size_t seed = 0)
{
    return qHashMulti(seed, key.deploymentId, key.day.toJulianDay());
}
using TrafficBatch = QHash<SiteDayKey, SiteDayCounts>;

// Counts page views on the serving threads without a lock they would wait on. Each thread writes a batch of its
// own; the collector (the engine's thread) swaps in an empty one and takes the full one. The hand-over is two
// flags: a thread marks its batch in use while it writes, the collector swaps the pointer and then waits for the
// mark to clear (nanoseconds), so only the collector ever waits. The day's salt is swapped the same way.
class TrafficCounter final
{
public:
    // Per thread and batch (one flush interval): distinct paths, referrers and 404 paths per site-day beyond this
    // fold into "(other)"; visitors beyond kMaxVisitorsPerBatch per site-day and site-days beyond
    // kMaxSiteDaysPerBatch are not counted.
    static constexpr int kMaxNamesPerSiteDay = 1000;
    static constexpr int kMaxVisitorsPerBatch = 100000;
    static constexpr int kMaxSiteDaysPerBatch = 10000;
    static inline const QString kOther = QStringLiteral("(other)");

    explicit TrafficCounter(const Clock &clock);
    ~TrafficCounter();
    Q_DISABLE_COPY_MOVE(TrafficCounter)

    // On a serving thread. address and userAgent are hashed into the visitor of a view, never kept.
    void record(const SiteHit &hit, const QByteArray &address, const QByteArray &userAgent);

    // On the collector's thread: every thread's counts since the last call. A new salt first when the day changed,
    // so that nothing counted from then on can be linked to earlier visitors.
    TrafficBatch collect();

private:
    struct Salt
    {
        QDate day;
        QByteArray bytes;
    };
    struct Shard
    {
        std::thread::id owner;
        std::atomic<bool> inUse {false};
        std::atomic<TrafficBatch *> batch {new TrafficBatch};
    };

    Shard &shardOfThisThread();
    static Salt *newSalt(const QDate &day);
    static void add(SiteDayCounts &counts, const SiteHit &hit, quint64 visitor);

    const Clock &m_clock;
    const quint64 m_id; // tells this counter from an earlier one at the same address, for the threads' caches
    std::atomic<Salt *> m_salt;
    QMutex m_shardsMutex; // guards the list: taken when a thread first counts and by the collector
    std::list<Shard> m_shards; // stable addresses; only ever added to
};

} // namespace berth
