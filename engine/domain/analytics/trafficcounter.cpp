#include "domain/analytics/trafficcounter.h"

#include "domain/common/clock.h"

#include <QCryptographicHash>
#include <QRandomGenerator>
#include <QThread>
#include <QtEndian>

namespace berth {

namespace {

std::atomic<quint64> nextCounterId {1};

// The shard a thread last used, and of which counter: a lookup without the mutex on every later hit.
struct CachedShard
{
    quint64 counterId = 0;
    void *shard = nullptr;
};
thread_local CachedShard cachedShard;

void count(QHash<QString, qint64> &names, const QString &name)
{
    if (name.isEmpty())
        return;
    auto it = names.find(name);
    if (it == names.end())
        it = names.size() < TrafficCounter::kMaxNamesPerSiteDay ? names.insert(name, 0)
                                                                : names.insert(TrafficCounter::kOther, 0);
    ++it.value();
}

} // namespace

TrafficCounter::TrafficCounter(const Clock &clock)
    : m_clock(clock)
    , m_id(nextCounterId.fetch_add(1))
    , m_salt(newSalt(clock.now().date()))
{
}

TrafficCounter::~TrafficCounter()
{
    for (Shard &shard : m_shards)
        delete shard.batch.load();
    delete m_salt.load();
}

TrafficCounter::Salt *TrafficCounter::newSalt(const QDate &day)
{
    QByteArray bytes(32, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(bytes.data()), bytes.size() / 4);
    return new Salt {day, bytes};
}

TrafficCounter::Shard &TrafficCounter::shardOfThisThread()
{
    if (cachedShard.counterId == m_id)
        return *static_cast<Shard *>(cachedShard.shard);
    QMutexLocker locker(&m_shardsMutex); // once per thread
    const auto self = std::this_thread::get_id();
    auto it = std::find_if(m_shards.begin(), m_shards.end(), [&](const Shard &s) { return s.owner == self; });
    if (it == m_shards.end()) {
        m_shards.emplace_back();
        it = std::prev(m_shards.end());
        it->owner = self;
    }
    cachedShard = {m_id, &*it};
    return *it;
}

void TrafficCounter::record(const SiteHit &hit, const QByteArray &address, const QByteArray &userAgent)
{
    Shard &shard = shardOfThisThread();
    const QDate day = m_clock.now().date();
    // seq_cst, with the collector's exchange and load: either it sees this mark, or this sees its new pointers.
    shard.inUse.store(true);
    TrafficBatch &batch = *shard.batch.load();
    quint64 visitor = 0;
    if (hit.kind == SiteHit::Kind::View) {
        QCryptographicHash hash(QCryptographicHash::Sha256);
        hash.addData(m_salt.load()->bytes);
        for (const QByteArray &part : {hit.deploymentId.toUtf8(), address, userAgent}) {
            hash.addData(part);
            hash.addData(QByteArrayView("\0", 1));
        }
        visitor = qFromUnaligned<quint64>(hash.resultView().data());
    }
    const SiteDayKey key {hit.deploymentId, day};
    auto it = batch.find(key);
    if (it == batch.end() && batch.size() < kMaxSiteDaysPerBatch)
        it = batch.insert(key, {});
    if (it != batch.end())
        add(it.value(), hit, visitor);
    shard.inUse.store(false, std::memory_order_release);
}

void TrafficCounter::add(SiteDayCounts &counts, const SiteHit &hit, quint64 visitor)
{
    counts.bytes += hit.bytes;
    switch (hit.kind) {
    case SiteHit::Kind::Other:
        return;
    case SiteHit::Kind::View:
        ++counts.views;
        count(counts.pages, hit.path);
        count(counts.referrers, hit.referrerHost);
        if (counts.visitors.size() < kMaxVisitorsPerBatch)
            counts.visitors.insert(visitor);
        return;
    case SiteHit::Kind::NotFound:
        ++counts.notFound;
        count(counts.notFoundPaths, hit.path);
        return;
    }
}

TrafficBatch TrafficCounter::collect()
{
    Salt *retired = nullptr;
    const QDate today = m_clock.now().date();
    if (m_salt.load()->day != today)
        retired = m_salt.exchange(newSalt(today));

    std::list<std::unique_ptr<TrafficBatch>> taken;
    {
        QMutexLocker locker(&m_shardsMutex);
        for (Shard &shard : m_shards) {
            taken.emplace_back(shard.batch.exchange(new TrafficBatch));
            while (shard.inUse.load()) // a hit being written: nanoseconds
                QThread::yieldCurrentThread();
        }
    }
    // Every thread has let go of the old salt too (each was waited for after the swap): it is forgotten here.
    if (retired) {
        retired->bytes.fill('\0');
        delete retired;
    }

    TrafficBatch merged;
    for (const auto &batch : taken) {
        for (auto it = batch->cbegin(); it != batch->cend(); ++it) {
            SiteDayCounts &into = merged[it.key()];
            const SiteDayCounts &from = it.value();
            into.views += from.views;
            into.notFound += from.notFound;
            into.bytes += from.bytes;
            for (auto [names, other] :
                {std::pair {&into.pages, &from.pages}, std::pair {&into.referrers, &from.referrers},
                    std::pair {&into.notFoundPaths, &from.notFoundPaths}}) {
                for (auto name = other->cbegin(); name != other->cend(); ++name)
                    (*names)[name.key()] += name.value();
            }
            into.visitors.unite(from.visitors);
        }
    }
    return merged;
}

} // namespace berth
