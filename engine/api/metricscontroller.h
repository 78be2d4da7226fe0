#pragma once

#include "api/apirouter.h"
#include "http/requestmetrics.h"
#include "storage/storetotals.h"

#include <QDateTime>
#include <functional>
#include <optional>

namespace berth {

class Clock;

// What the metrics read besides the database, given by the engine once it serves. Each is called on the engine's
// thread when /metrics is asked for; any may be left unset (its figures are 0).
struct MetricsSources
{
    std::function<RequestTotals()> requests; // summed over the serving threads
    std::function<int()> openConnections;
    std::function<int()> servingThreads;
    std::function<qint64()> accessLogDroppedLines;
    std::function<quint64()> deploys; // committed since start
    std::function<QDateTime()> analyticsSavedAt; // the last flush of page-view counts that was written
    std::function<quint64()> analyticsFailedFlushes;
};

// GET /metrics on the API host: the instance's figures for Prometheus (text format 0.0.4), for the owner's key only
// (another key gets 404, as owner-only data does; no key 401). The database's counts are read on the engine's
// thread, at most once in kStoreCacheMs however often the endpoint is scraped.
class MetricsController final
{
public:
    static constexpr qint64 kStoreCacheMs = 5000;

    MetricsController(const StoreTotals &store, const Clock &clock);
    Q_DISABLE_COPY_MOVE(MetricsController)

    void setSources(MetricsSources sources) { m_sources = std::move(sources); }
    void registerRoutes(ApiRouter &router);

private:
    void metrics(ApiCall &call);
    std::optional<StoreTotals::Counts> storeCounts();
    QByteArray exposition();

    const StoreTotals &m_store;
    const Clock &m_clock;
    MetricsSources m_sources;
    std::optional<StoreTotals::Counts> m_cachedCounts;
    QDateTime m_countedAt;
};

} // namespace berth
