#include "storage/analyticsrepository.h"

#include "storage/database.h"
#include "storage/sqlhelpers.h"
#include "storage/transaction.h"

#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

// Kinds of analytics_entries rows.
const QString kPage = u"page"_s;
const QString kReferrer = u"referrer"_s;
const QString kNotFound = u"not_found"_s;

QString dayText(const QDate &day)
{
    return day.toString(Qt::ISODate);
}

// Both SQLite and PostgreSQL take these upserts.
const QString kAddDay = uR"(INSERT INTO analytics_days (deployment_id, day, views, visitors, not_found, bytes)
    VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (deployment_id, day) DO UPDATE SET views = analytics_days.views + excluded.views,
        visitors = analytics_days.visitors + excluded.visitors,
        not_found = analytics_days.not_found + excluded.not_found, bytes = analytics_days.bytes + excluded.bytes)"_s;
const QString kAddEntry = uR"(INSERT INTO analytics_entries (deployment_id, day, kind, name, hits)
    VALUES (?, ?, ?, ?, ?) ON CONFLICT (deployment_id, day, kind, name) DO UPDATE SET hits = analytics_entries.hits + excluded.hits)"_s;

Result<void> addEntries(
    QSqlQuery &query, const AnalyticsDayDelta &delta, const QString &kind, const QList<QPair<QString, qint64>> &entries)
{
    for (const auto &[name, hits] : entries) {
        query.addBindValue(delta.deploymentId);
        query.addBindValue(dayText(delta.day));
        query.addBindValue(kind);
        query.addBindValue(name);
        query.addBindValue(hits);
        if (!query.exec())
            return sql::failure(query);
    }
    return {};
}

Result<QList<QPair<QString, qint64>>> topEntries(QSqlDatabase db, const QString &deploymentId, const QString &kind,
    const QString &from, const QString &to, int limit)
{
    QSqlQuery query(db);
    query.prepare(u"SELECT name, SUM(hits) AS total FROM analytics_entries WHERE deployment_id = ? AND kind = ? "
                  "AND day >= ? AND day <= ? GROUP BY name ORDER BY total DESC, name LIMIT ?"_s);
    query.addBindValue(deploymentId);
    query.addBindValue(kind);
    query.addBindValue(from);
    query.addBindValue(to);
    query.addBindValue(limit);
    if (!query.exec())
        return sql::loggedFailure(query, "analytics entries");
    QList<QPair<QString, qint64>> entries;
    while (query.next())
        entries.append({query.value(0).toString(), query.value(1).toLongLong()});
    return entries;
}

} // namespace

AnalyticsRepository::AnalyticsRepository(Database &db)
    : m_db(db)
{
}

Result<void> AnalyticsRepository::add(const QList<AnalyticsDayDelta> &deltas)
{
    if (deltas.isEmpty())
        return {};
    Transaction transaction(m_db.connection());
    if (auto begun = transaction.begun(); !begun)
        return begun.error();
    QSqlQuery exists(m_db.connection());
    exists.prepare(u"SELECT 1 FROM deployments WHERE id = ?"_s);
    QSqlQuery days(m_db.connection());
    days.prepare(kAddDay);
    QSqlQuery entries(m_db.connection());
    entries.prepare(kAddEntry);
    for (const AnalyticsDayDelta &delta : deltas) {
        // A deployment deleted since the counts were taken: its foreign key would fail the whole batch.
        exists.addBindValue(delta.deploymentId);
        if (!exists.exec())
            return sql::failure(exists);
        const bool live = exists.next();
        exists.finish();
        if (!live)
            continue;
        for (const QVariant &value : {QVariant(delta.deploymentId), QVariant(dayText(delta.day)), QVariant(delta.views),
                 QVariant(delta.visitors), QVariant(delta.notFound), QVariant(delta.bytes)})
            days.addBindValue(value);
        if (!days.exec())
            return sql::failure(days);
        for (const auto &[kind, list] : {std::pair {&kPage, &delta.pages}, std::pair {&kReferrer, &delta.referrers},
                 std::pair {&kNotFound, &delta.notFoundPaths}}) {
            if (auto added = addEntries(entries, delta, *kind, *list); !added)
                return added;
        }
    }
    return transaction.commit();
}

Result<AnalyticsSpan> AnalyticsRepository::span(
    const QString &deploymentId, const QDate &from, const QDate &to, int limit) const
{
    const QString first = dayText(from);
    const QString last = dayText(to);
    QSqlQuery query(m_db.connection());
    query.prepare(u"SELECT day, views, visitors, not_found, bytes FROM analytics_days WHERE deployment_id = ? "
                  "AND day >= ? AND day <= ? ORDER BY day"_s);
    query.addBindValue(deploymentId);
    query.addBindValue(first);
    query.addBindValue(last);
    if (!query.exec())
        return sql::loggedFailure(query, "analytics days");
    AnalyticsSpan span;
    while (query.next())
        span.days.append({QDate::fromString(query.value(0).toString(), Qt::ISODate), query.value(1).toLongLong(),
            query.value(2).toLongLong(), query.value(3).toLongLong(), query.value(4).toLongLong()});
    for (const auto &[kind, list] : {std::pair {&kPage, &span.pages}, std::pair {&kReferrer, &span.referrers},
             std::pair {&kNotFound, &span.notFoundPaths}}) {
        auto entries = topEntries(m_db.connection(), deploymentId, *kind, first, last, limit);
        if (!entries)
            return entries.error();
        *list = std::move(entries.value());
    }
    return span;
}

Result<void> AnalyticsRepository::pruneBefore(const QDate &first)
{
    Transaction transaction(m_db.connection());
    if (auto begun = transaction.begun(); !begun)
        return begun.error();
    for (const QString &table : {u"analytics_days"_s, u"analytics_entries"_s}) {
        QSqlQuery query(m_db.connection());
        query.prepare(u"DELETE FROM %1 WHERE day < ?"_s.arg(table));
        query.addBindValue(dayText(first));
        if (!query.exec())
            return sql::failure(query);
    }
    return transaction.commit();
}

} // namespace berth
