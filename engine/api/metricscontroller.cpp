#include "api/metricscontroller.h"

#include "api/prometheustext.h"
#include "domain/common/clock.h"

#include <QDebug>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

// Label values, in the order of RequestKind and of the status classes.
constexpr const char *kKindNames[RequestTotals::kKinds] = {"site", "api", "builtin", "other"};
constexpr const char *kClassNames[RequestTotals::kStatusClasses] = {"1xx", "2xx", "3xx", "4xx", "5xx"};

template<typename Value>
Value valueOf(const std::function<Value()> &source)
{
    return source ? source() : Value {};
}

void writeRequests(PrometheusText &out, const RequestTotals &totals)
{
    out.family("berth_http_requests_total", "counter",
        "HTTP requests answered, by kind (site files, the management API, a site's built-in endpoints, other hosts) "
        "and status class.");
    for (int k = 0; k < RequestTotals::kKinds; ++k) {
        for (int c = 0; c < RequestTotals::kStatusClasses; ++c)
            out.sample("berth_http_requests_total", {{"kind", kKindNames[k]}, {"code", kClassNames[c]}},
                totals.requests[k][c]);
    }

    out.family("berth_http_request_duration_seconds", "histogram",
        "Time from a request's complete head to the start of its answer, by kind.");
    for (int k = 0; k < RequestTotals::kKinds; ++k) {
        quint64 cumulative = 0;
        for (int b = 0; b < RequestTotals::kBuckets; ++b) {
            cumulative += totals.durations[k][b];
            const QByteArray bound = b < int(RequestTotals::kBucketSeconds.size())
                ? PrometheusText::number(RequestTotals::kBucketSeconds[b])
                : QByteArray("+Inf");
            out.sample(
                "berth_http_request_duration_seconds_bucket", {{"kind", kKindNames[k]}, {"le", bound}}, cumulative);
        }
        out.sample("berth_http_request_duration_seconds_sum", {{"kind", kKindNames[k]}},
            double(totals.durationNanos[k]) / 1e9);
        out.sample("berth_http_request_duration_seconds_count", {{"kind", kKindNames[k]}}, cumulative);
    }

    out.family("berth_http_sent_bytes_total", "counter", "Bytes of answers sent (head and body), by kind.");
    for (int k = 0; k < RequestTotals::kKinds; ++k)
        out.sample("berth_http_sent_bytes_total", {{"kind", kKindNames[k]}}, totals.bytesSent[k]);
}

} // namespace

MetricsController::MetricsController(const StoreTotals &store, const Clock &clock)
    : m_store(store)
    , m_clock(clock)
{
}

void MetricsController::registerRoutes(ApiRouter &router)
{
    static const ControllerRoute<MetricsController> kRoutes[] = {
        {"GET", "/metrics", &MetricsController::metrics},
    };
    router.addRoutes(this, kRoutes);
}

void MetricsController::metrics(ApiCall &call)
{
    // The instance's figures are the owner's: anyone else's key learns nothing, not even that they exist.
    if (!call.user.isOwner) {
        call.sink.send(HttpResponse::jsonError(404, u"Not found"_s));
        return;
    }
    HttpResponse response = HttpResponse::bytes(200, PrometheusText::kContentType, exposition());
    response.setHeader("Cache-Control", "no-store");
    call.sink.send(std::move(response));
}

std::optional<StoreTotals::Counts> MetricsController::storeCounts()
{
    const QDateTime now = m_clock.now();
    if (m_cachedCounts && m_countedAt.isValid() && m_countedAt.msecsTo(now) >= 0
        && m_countedAt.msecsTo(now) < kStoreCacheMs)
        return m_cachedCounts;
    const Result<StoreTotals::Counts> counts = m_store.read();
    if (!counts) {
        qWarning().noquote() << "metrics: cannot count the database's contents:" << counts.error().message;
        return std::nullopt; // the figures of the serving threads are still worth answering
    }
    m_cachedCounts = counts.value();
    m_countedAt = now;
    return m_cachedCounts;
}

QByteArray MetricsController::exposition()
{
    PrometheusText out;
    writeRequests(out, valueOf(m_sources.requests));
    out.single("berth_http_open_connections", "gauge", "Client connections open now.",
        quint64(qMax(0, valueOf(m_sources.openConnections))));
    out.single("berth_http_serving_threads", "gauge", "Threads serving HTTP.",
        quint64(qMax(0, valueOf(m_sources.servingThreads))));
    out.single("berth_access_log_dropped_lines_total", "counter",
        "Access log lines dropped because the disk was full, failing or too slow.",
        quint64(qMax<qint64>(0, valueOf(m_sources.accessLogDroppedLines))));
    out.single("berth_deploys_total", "counter", "Deploys (new deployments and updates) committed.",
        valueOf(m_sources.deploys));
    // Counted page views wait in memory until a flush writes them (about once a second): a lag that grows means the
    // database is not taking them, and what is counted meanwhile is lost with the process.
    const QDateTime savedAt = valueOf(m_sources.analyticsSavedAt);
    const qint64 lagMs = savedAt.isValid() ? qMax<qint64>(0, savedAt.msecsTo(m_clock.now())) : 0;
    out.family(
        "berth_analytics_flush_lag_seconds", "gauge", "Time since page-view counts were last written to the database.");
    out.sample("berth_analytics_flush_lag_seconds", {}, double(lagMs) / 1000.0);
    out.single("berth_analytics_flush_failures_total", "counter",
        "Flushes of page-view counts the database refused (their counts are lost).",
        valueOf(m_sources.analyticsFailedFlushes));
    if (const auto counts = storeCounts()) {
        out.single("berth_deployments", "gauge", "Deployments stored.", quint64(counts->deployments));
        out.single(
            "berth_blobs", "gauge", "Distinct file contents the kept versions refer to.", quint64(counts->blobs));
        out.single("berth_blob_bytes", "gauge", "Size of those contents, uncompressed, each counted once.",
            quint64(counts->blobBytes));
        out.single("berth_submissions", "gauge", "Form submissions stored.", quint64(counts->submissions));
    }
    return out.text();
}

} // namespace berth
