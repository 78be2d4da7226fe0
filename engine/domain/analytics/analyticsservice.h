#pragma once

#include "core/error.h"
#include "domain/analytics/trafficcounter.h"
#include "storage/analyticsrepository.h"

#include <QDateTime>

namespace berth {

class Clock;
class DeploymentRepository;
struct User;

// A site's analytics over a span of days, as the owner reads them: every day of the span (zeros included).
struct AnalyticsReport
{
    QString deploymentId;
    QString slug;
    QDate from;
    QDate to;
    AnalyticsSpan span; // days: every day from..to
};

// Moves what the TrafficCounter gathered into the database (flush, on the engine's thread, about once a second),
// keeps kKeepDays days, and answers the owner. Unique visitors are the distinct visitor hashes of a site-day: the
// hashes seen so far today and yesterday are kept here, in memory only, up to kMaxVisitorsPerSiteDay per site-day
// (beyond that no new visitor is counted that day); the names of pages, referrers and 404 paths, up to
// kMaxNamesPerSiteDay each (later ones count as "(other)").
class AnalyticsService final
{
public:
    static constexpr int kKeepDays = 400;
    static constexpr int kMaxSpanDays = 400;
    static constexpr int kDefaultSpanDays = 30;
    static constexpr int kListLength = 50;
    static constexpr int kMaxVisitorsPerSiteDay = 100000;
    static constexpr int kMaxNamesPerSiteDay = TrafficCounter::kMaxNamesPerSiteDay;

    AnalyticsService(TrafficCounter &counter, AnalyticsRepository &analytics, const DeploymentRepository &deployments,
        const Clock &clock);
    Q_DISABLE_COPY_MOVE(AnalyticsService)

    // Writes what was counted since the last flush, in one transaction; once a day also removes the days beyond
    // kKeepDays. A failed write is logged and its counts are lost (the next flush goes on).
    void flush();
    // When a flush last wrote its counts (the service's start before the first), and how many failed: what an
    // operator watches to see that counts are not piling up or being lost.
    QDateTime lastSavedAt() const { return m_lastSavedAt; }
    quint64 failedFlushes() const { return m_failedFlushes; }

    // from/to: YYYY-MM-DD, or null for the default (the last kDefaultSpanDays days up to today). NotFound unless
    // owner owns the deployment; then BadRequest for another form, from after to or a span over kMaxSpanDays.
    Result<AnalyticsReport> report(
        const User &owner, const QString &deploymentId, const QString &from, const QString &to) const;

private:
    struct SeenToday
    {
        QSet<quint64> visitors;
        QSet<QString> pages;
        QSet<QString> referrers;
        QSet<QString> notFoundPaths;
    };
    AnalyticsDayDelta deltaOf(const SiteDayKey &key, SiteDayCounts &counts);

    TrafficCounter &m_counter;
    AnalyticsRepository &m_analytics;
    const DeploymentRepository &m_deployments;
    const Clock &m_clock;
    QHash<SiteDayKey, SeenToday> m_seen; // today's and yesterday's site-days
    QDate m_prunedOn;
    QDateTime m_lastSavedAt;
    quint64 m_failedFlushes = 0;
};

} // namespace berth
