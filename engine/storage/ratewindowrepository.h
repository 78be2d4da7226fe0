#pragma once

#include "core/error.h"

#include <QString>

namespace berth {

class Database;

// The shared rate limits' table (rate_windows, migration 9): the accepted hits of each limit's key, counted in fixed
// buckets of time, for every server on one PostgreSQL database. Times are ms since the epoch, from the caller's clock.
// Used only on the thread that opened the Database. PostgreSQL only: on SQLite every call fails (one server keeps its
// limits in memory).
class RateWindowRepository final
{
    Q_DISABLE_COPY_MOVE(RateWindowRepository)
public:
    explicit RateWindowRepository(Database &db);

    // One round trip: counts a hit of `key` at nowMs into its bucket (bucketMs long, aligned to multiples of it),
    // unless the key's hits in the buckets that still overlap the window (nowMs - windowMs, nowMs] already number
    // `limit`. 0 when counted; otherwise the ms until the oldest of those buckets leaves the window (at least 1). A
    // bucket counts until window_start + bucketMs + windowMs, so a hit counts for windowMs to windowMs + bucketMs.
    // Exact across servers: the key's hits take turns, so two servers never both take the last one.
    Result<qint64> hit(const QString &key, qint64 nowMs, qint64 bucketMs, qint64 windowMs, int limit);
    // Removes every bucket that has left its window by nowMs; how many.
    Result<int> prune(qint64 nowMs);

private:
    Database &m_db;
};

} // namespace berth
