#include "domain/analytics/analyticsservice.h"

#include "domain/common/clock.h"
#include "domain/deploy/deploymentservice.h"
#include "storage/deploymentrepository.h"
#include "storage/user.h"

#include <QDebug>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

// The counts of names not seen yet this site-day join them while there is room, and "(other)" after that.
QList<QPair<QString, qint64>> admitted(const QHash<QString, qint64> &counts, QSet<QString> &seen)
{
    QHash<QString, qint64> kept;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
        QString name = it.key();
        if (!seen.contains(name)) {
            if (seen.size() < AnalyticsService::kMaxNamesPerSiteDay && name != TrafficCounter::kOther)
                seen.insert(name);
            else
                name = TrafficCounter::kOther;
        }
        kept[name] += it.value();
    }
    QList<QPair<QString, qint64>> list;
    for (auto it = kept.cbegin(); it != kept.cend(); ++it)
        list.append({it.key(), it.value()});
    return list;
}

// Only the strict form: QDate::fromString would take "2026-1-5" too.
QDate dateOf(const QString &text)
{
    static const QRegularExpression kForm(u"^\\d{4}-\\d{2}-\\d{2}$"_s);
    return kForm.match(text).hasMatch() ? QDate::fromString(text, Qt::ISODate) : QDate();
}

} // namespace

AnalyticsService::AnalyticsService(TrafficCounter &counter, AnalyticsRepository &analytics,
    const DeploymentRepository &deployments, const Clock &clock)
    : m_counter(counter)
    , m_analytics(analytics)
    , m_deployments(deployments)
    , m_clock(clock)
    , m_lastSavedAt(clock.now())
{
}

AnalyticsDayDelta AnalyticsService::deltaOf(const SiteDayKey &key, SiteDayCounts &counts)
{
    SeenToday &seen = m_seen[key];
    AnalyticsDayDelta delta;
    delta.deploymentId = key.deploymentId;
    delta.day = key.day;
    delta.views = counts.views;
    delta.notFound = counts.notFound;
    delta.bytes = counts.bytes;
    for (quint64 visitor : std::as_const(counts.visitors)) {
        if (seen.visitors.size() >= kMaxVisitorsPerSiteDay)
            break;
        if (!seen.visitors.contains(visitor)) {
            seen.visitors.insert(visitor);
            ++delta.visitors;
        }
    }
    delta.pages = admitted(counts.pages, seen.pages);
    delta.referrers = admitted(counts.referrers, seen.referrers);
    delta.notFoundPaths = admitted(counts.notFoundPaths, seen.notFoundPaths);
    return delta;
}

void AnalyticsService::flush()
{
    const QDate today = m_clock.now().date();
    TrafficBatch batch = m_counter.collect();
    // Only today's and yesterday's visitors may still arrive (a request counted just before midnight): older sets
    // go, and with them the last trace of those days' hashes.
    m_seen.removeIf([&](const auto &entry) { return entry.key().day < today.addDays(-1); });
    QList<AnalyticsDayDelta> deltas;
    for (auto it = batch.begin(); it != batch.end(); ++it)
        deltas.append(deltaOf(it.key(), it.value()));
    if (auto added = m_analytics.add(deltas); !added) {
        ++m_failedFlushes;
        qWarning().noquote() << "berth: analytics not saved:" << added.error().message;
    } else {
        m_lastSavedAt = m_clock.now();
    }
    if (m_prunedOn != today) {
        m_prunedOn = today;
        if (auto pruned = m_analytics.pruneBefore(today.addDays(1 - kKeepDays)); !pruned)
            qWarning().noquote() << "berth: old analytics not removed:" << pruned.error().message;
    }
}

Result<AnalyticsReport> AnalyticsService::report(
    const User &owner, const QString &deploymentId, const QString &fromText, const QString &toText) const
{
    const auto deployment = m_deployments.find(deploymentId);
    if (!deployment || deployment->userId != owner.id)
        return Error {Error::Kind::NotFound, DeploymentService::notFoundMessage(), Error::Code::DeploymentNotFound};
    const QDate to = toText.isNull() ? m_clock.now().date() : dateOf(toText);
    const QDate from = fromText.isNull() ? to.addDays(1 - kDefaultSpanDays) : dateOf(fromText);
    if (!from.isValid() || !to.isValid())
        return Error {Error::Kind::BadRequest, u"from and to must be dates as YYYY-MM-DD"_s};
    if (from > to)
        return Error {Error::Kind::BadRequest, u"from must not be after to"_s};
    if (from.daysTo(to) + 1 > kMaxSpanDays)
        return Error {Error::Kind::BadRequest, u"At most %1 days at a time"_s.arg(kMaxSpanDays)};
    auto span = m_analytics.span(deploymentId, from, to, kListLength);
    if (!span)
        return span.error();
    // Every day of the span, the missing ones as zeros.
    QList<AnalyticsSpan::Day> days;
    auto stored = span.value().days.cbegin();
    for (QDate day = from; day <= to; day = day.addDays(1)) {
        if (stored != span.value().days.cend() && stored->day == day)
            days.append(*stored++);
        else
            days.append({day});
    }
    span.value().days = std::move(days);
    return AnalyticsReport {deploymentId, deployment->slug, from, to, std::move(span.value())};
}

} // namespace berth
