#include "storage/counterrepository.h"

#include "storage/database.h"
#include "storage/sqlhelpers.h"

#include <QSqlError>
#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

Counter counterFrom(const QSqlQuery &query)
{
    Counter c;
    c.name = query.value(0).toString();
    c.value = query.value(1).toLongLong();
    c.createdAt = sql::time(query, 2);
    c.updatedAt = sql::time(query, 3);
    return c;
}

} // namespace

CounterRepository::CounterRepository(Database &db)
    : m_db(db)
{
}

Result<qint64> CounterRepository::increment(
    const QString &deploymentId, const QString &name, int maxCounters, const QDateTime &now)
{
    Transaction transaction(m_db.connection());
    if (auto begun = transaction.begun(); !begun)
        return begun.error();
    const QVariant time = sql::timeOrNull(now);
    // value + 1 in SQL, not read-add-write in C++: the database does the arithmetic under its lock.
    QSqlQuery query(m_db.connection());
    query.prepare(u"UPDATE counters SET value = value + 1, updated_at = ? WHERE deployment_id = ? AND name = ?"_s);
    query.addBindValue(time);
    query.addBindValue(deploymentId);
    query.addBindValue(name);
    if (!query.exec())
        return failure(query);
    if (query.numRowsAffected() == 0 && m_db.dialect() == SqlDialect::PostgreSql) {
        // A new counter, on a database other servers may write too: the site's row lock makes creators take turns,
        // so that two first increments do not both insert and the counter limit is counted exactly. Then the
        // UPDATE again: the counter may have been created by the one this waited for.
        QSqlQuery lock(m_db.connection());
        lock.prepare(u"SELECT id FROM deployments WHERE id = ? FOR UPDATE"_s);
        lock.addBindValue(deploymentId);
        if (!lock.exec())
            return failure(lock);
        lock.finish();
        if (!query.exec())
            return failure(query);
    }
    if (query.numRowsAffected() == 0) {
        query.prepare(u"SELECT COUNT(*) FROM counters WHERE deployment_id = ?"_s);
        query.addBindValue(deploymentId);
        if (!query.exec() || !query.next())
            return failure(query);
        if (query.value(0).toInt() >= maxCounters)
            return Error {Error::Kind::Forbidden, u"Counter limit reached"_s, Error::Code::CounterLimitReached};
        query.finish();
        query.prepare(u"INSERT INTO counters (deployment_id, name, value, created_at, updated_at) "
                      "VALUES (?, ?, 1, ?, ?)"_s);
        query.addBindValue(deploymentId);
        query.addBindValue(name);
        query.addBindValue(time);
        query.addBindValue(time);
        if (!query.exec())
            return failure(query);
    }
    query.prepare(u"SELECT value FROM counters WHERE deployment_id = ? AND name = ?"_s);
    query.addBindValue(deploymentId);
    query.addBindValue(name);
    if (!query.exec() || !query.next())
        return failure(query);
    const qint64 newValue = query.value(0).toLongLong();
    query.finish();
    if (auto committed = transaction.commit(); !committed)
        return committed.error();
    return newValue;
}

std::optional<Counter> CounterRepository::find(const QString &deploymentId, const QString &name) const
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"SELECT name, value, created_at, updated_at FROM counters WHERE deployment_id = ? AND name = ?"_s);
    query.addBindValue(deploymentId);
    query.addBindValue(name);
    if (!query.exec()) {
        failure(query);
        return std::nullopt;
    }
    if (!query.next())
        return std::nullopt;
    return counterFrom(query);
}

QList<Counter> CounterRepository::list(const QString &deploymentId) const
{
    QList<Counter> result;
    QSqlQuery query(m_db.connection());
    query.setForwardOnly(true);
    query.prepare(u"SELECT name, value, created_at, updated_at FROM counters WHERE deployment_id = ? ORDER BY name"_s);
    query.addBindValue(deploymentId);
    if (!query.exec()) {
        failure(query);
        return result;
    }
    while (query.next())
        result.append(counterFrom(query));
    return result;
}

Result<void> CounterRepository::remove(const QString &deploymentId, const QString &name)
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"DELETE FROM counters WHERE deployment_id = ? AND name = ?"_s);
    query.addBindValue(deploymentId);
    query.addBindValue(name);
    if (!query.exec())
        return failure(query);
    if (query.numRowsAffected() == 0)
        return sql::notFound(Error::Code::CounterNotFound, u"Counter not found"_s);
    return {};
}

Error CounterRepository::failure(const QSqlQuery &query)
{
    return sql::loggedFailure(query, "a counter statement");
}

} // namespace berth
