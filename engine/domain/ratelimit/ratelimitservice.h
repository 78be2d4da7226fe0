#pragma once

#include "domain/ratelimit/ratelimiter.h"

#include <QHash>
#include <QMutex>
#include <QString>
#include <functional>
#include <limits>
#include <optional>

QT_BEGIN_NAMESPACE
class QObject;
QT_END_NAMESPACE

namespace berth {

class Clock;
class RateWindowRepository;

// Where every rate limit is decided: in the node's own RateLimiter, or, with shared limits
// on (several servers on one PostgreSQL database), in the database's table that all of them count in.
//
// Shared, each decision is one round trip to the database on the thread that owns its connection (the engine's),
// never on a serving thread. A hit counts in a bucket of kBucketMs, and a bucket counts until it has wholly left the
// window: a hit counts for between the window and the window plus kBucketMs, so all servers together let at most
// `limit` through in any window, never more. A refusal is remembered until the moment its Retry-After names (the
// database would refuse until then too): a client that keeps knocking costs a round trip per Retry-After and node, not
// one per request. While the database cannot be asked, the node's own limiter decides, as without shared limits.
class RateLimitService final
{
public:
    static constexpr qint64 kBucketMs = 5'000;
    static constexpr qint64 kPruneIntervalMs = 60'000; // by the clock: how often buckets past their window are removed

    // maxRefusals bounds the remembered refusals (forgetting one only costs a round trip).
    RateLimitService(RateLimiter &node, const Clock &clock, int maxRefusals = 100000);
    Q_DISABLE_COPY_MOVE(RateLimitService)

    // Turns shared limits on, before serving: counted in `windows`, whose connection is used on databaseContext's
    // thread only.
    void share(RateWindowRepository &windows, QObject *databaseContext);
    bool isShared() const { return m_windows != nullptr; }

    // Counts this request against `rule` for `key` and says whether it may proceed. Shared: on databaseContext's
    // thread only (it may ask the database). Otherwise from any thread.
    RateDecision hit(const QString &key, const RateRule &rule);
    // The same from any thread, a serving one included: `done` gets the decision at once (the node's limiter, or a
    // refusal known already) or, shared, later on databaseContext's thread once the database has answered.
    void hitFromAnyThread(const QString &key, const RateRule &rule, std::function<void(RateDecision)> done);

private:
    RateDecision sharedHit(const QString &key, const RateRule &rule, qint64 now);
    std::optional<RateDecision> knownRefusal(const QString &key, qint64 now) const;
    void rememberRefusal(const QString &key, qint64 until, qint64 now);
    void pruneNow(qint64 now);

    RateLimiter &m_node;
    const Clock &m_clock;
    const int m_maxRefusals;
    RateWindowRepository *m_windows = nullptr;
    QObject *m_databaseContext = nullptr;

    mutable QMutex m_mutex; // guards m_refusedUntil, which serving threads read too
    QHash<QString, qint64> m_refusedUntil; // key -> ms since the epoch before which the database refuses it

    // databaseContext's thread only:
    qint64 m_lastPrune = std::numeric_limits<qint64>::min() / 2;
    bool m_unreachable = false; // the last round trip failed: the node's limiter decides meanwhile
};

} // namespace berth
