#pragma once

#include "core/error.h"

#include <QDate>
#include <QList>
#include <QString>

namespace berth {

class Database;

// One site's counts of one day, as a flush adds them: page views, new unique visitors, 404s, bytes, and the views
// of its pages and referrer hosts and the hits of its missing paths.
struct AnalyticsDayDelta
{
    QString deploymentId;
    QDate day;
    qint64 views = 0;
    qint64 visitors = 0;
    qint64 notFound = 0;
    qint64 bytes = 0;
    QList<QPair<QString, qint64>> pages;
    QList<QPair<QString, qint64>> referrers;
    QList<QPair<QString, qint64>> notFoundPaths;
};

// What a site's analytics hold over a span of days: the days that have counts (others are zero), and the lists
// summed over the span, largest first, at most `limit` entries each.
struct AnalyticsSpan
{
    struct Day
    {
        QDate day;
        qint64 views = 0;
        qint64 visitors = 0;
        qint64 notFound = 0;
        qint64 bytes = 0;
    };
    QList<Day> days; // by day
    QList<QPair<QString, qint64>> pages;
    QList<QPair<QString, qint64>> referrers;
    QList<QPair<QString, qint64>> notFoundPaths;
};

// Page-view analytics per deployment and day (tables analytics_days and analytics_entries). Used only on the
// thread that opened the Database.
class AnalyticsRepository final
{
    Q_DISABLE_COPY_MOVE(AnalyticsRepository)
public:
    explicit AnalyticsRepository(Database &db);

    // Adds every delta in one transaction; deltas of deployments deleted meanwhile are dropped.
    Result<void> add(const QList<AnalyticsDayDelta> &deltas);
    // The counts of days from..to (inclusive).
    Result<AnalyticsSpan> span(const QString &deploymentId, const QDate &from, const QDate &to, int limit) const;
    // Removes every day before `first`.
    Result<void> pruneBefore(const QDate &first);

private:
    Database &m_db;
};

} // namespace berth
