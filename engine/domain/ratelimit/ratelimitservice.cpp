#include "domain/ratelimit/ratelimitservice.h"

#include "domain/common/clock.h"
#include "storage/ratewindowrepository.h"

#include <QCryptographicHash>
#include <QDebug>
#include <QMutexLocker>
#include <QObject>
#include <QThread>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

int secondsUntil(qint64 ms)
{
    return int(std::max<qint64>(1, (ms + 999) / 1000));
}

// What the table stores of a key: its SHA-256, so that client addresses and emails never reach the database and
// every key has the same short length.
QString storedKey(const QString &key)
{
    return QString::fromLatin1(QCryptographicHash::hash(key.toUtf8(), QCryptographicHash::Sha256)
                                   .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

} // namespace

RateLimitService::RateLimitService(RateLimiter &node, const Clock &clock, int maxRefusals)
    : m_node(node)
    , m_clock(clock)
    , m_maxRefusals(std::max(1, maxRefusals))
{
}

void RateLimitService::share(RateWindowRepository &windows, QObject *databaseContext)
{
    m_windows = &windows;
    m_databaseContext = databaseContext;
}

RateDecision RateLimitService::hit(const QString &key, const RateRule &rule)
{
    if (!m_windows)
        return m_node.hit(key, rule);
    Q_ASSERT(QThread::currentThread() == m_databaseContext->thread());
    const qint64 now = m_clock.now().toMSecsSinceEpoch();
    if (const auto refused = knownRefusal(key, now))
        return *refused;
    return sharedHit(key, rule, now);
}

void RateLimitService::hitFromAnyThread(
    const QString &key, const RateRule &rule, std::function<void(RateDecision)> done)
{
    if (!m_windows) {
        done(m_node.hit(key, rule));
        return;
    }
    if (const auto refused = knownRefusal(key, m_clock.now().toMSecsSinceEpoch())) {
        done(*refused);
        return;
    }
    if (QThread::currentThread() == m_databaseContext->thread()) {
        done(hit(key, rule));
        return;
    }
    QMetaObject::invokeMethod(
        m_databaseContext, [this, key, rule, done = std::move(done)] { done(hit(key, rule)); }, Qt::QueuedConnection);
}

RateDecision RateLimitService::sharedHit(const QString &key, const RateRule &rule, qint64 now)
{
    if (now - m_lastPrune >= kPruneIntervalMs)
        pruneNow(now);
    const Result<qint64> wait = m_windows->hit(storedKey(key), now, kBucketMs, rule.windowMs, rule.limit);
    if (!wait) {
        // A write would answer 503 now; a limit need not: the node counts on its own until the database is back.
        if (!m_unreachable)
            qWarning().noquote() << "shared rate limits: the database cannot be asked (" << wait.error().message
                                 << "); this node counts on its own until it can";
        m_unreachable = true;
        return m_node.hit(key, rule);
    }
    if (m_unreachable)
        qInfo("shared rate limits: the database answers again; limits are shared again");
    m_unreachable = false;
    if (wait.value() == 0)
        return {true, 0};
    rememberRefusal(key, now + wait.value(), now);
    return {false, secondsUntil(wait.value())};
}

std::optional<RateDecision> RateLimitService::knownRefusal(const QString &key, qint64 now) const
{
    const QMutexLocker locker(&m_mutex);
    const auto found = m_refusedUntil.constFind(key);
    if (found == m_refusedUntil.constEnd() || *found <= now)
        return std::nullopt;
    return RateDecision {false, secondsUntil(*found - now)};
}

void RateLimitService::rememberRefusal(const QString &key, qint64 until, qint64 now)
{
    const QMutexLocker locker(&m_mutex);
    if (m_refusedUntil.size() >= m_maxRefusals && !m_refusedUntil.contains(key)) {
        m_refusedUntil.removeIf([now](QHash<QString, qint64>::iterator item) { return item.value() <= now; });
        if (m_refusedUntil.size() >= m_maxRefusals)
            m_refusedUntil.clear(); // all still live: forgetting them costs a round trip each, nothing more
    }
    m_refusedUntil.insert(key, until);
}

void RateLimitService::pruneNow(qint64 now)
{
    m_lastPrune = now;
    const Result<int> pruned = m_windows->prune(now);
    {
        const QMutexLocker locker(&m_mutex);
        m_refusedUntil.removeIf([now](QHash<QString, qint64>::iterator item) { return item.value() <= now; });
    }
    if (!pruned)
        qWarning().noquote() << "shared rate limits: cannot remove old buckets:" << pruned.error().message;
}

} // namespace berth
