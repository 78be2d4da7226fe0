#pragma once

#include "counter.h"

#include <QList>
#include <QString>
#include <optional>

class QSqlQuery;

namespace berth {

class Database;

// Named integer counters per deployment. Used only on the thread that opened the Database, so each statement
// sees every earlier one: increments are never lost.
class CounterRepository final
{
    Q_DISABLE_COPY_MOVE(CounterRepository)
public:
    explicit CounterRepository(Database &db);

    enum class IncrementResult
    {
        Ok,
        LimitReached,
        Full,
        Failed
    }; // Full: SQLITE_FULL, the disk is full

    // Adds 1 to the counter, creating it at 1 unless the deployment already has maxCounters counters; one
    // transaction. *value receives the new value.
    IncrementResult increment(
        const QString &deploymentId, const QString &name, int maxCounters, const QDateTime &now, qint64 *value);
    // nullopt when the counter does not exist (or on failure: see lastError()).
    std::optional<Counter> find(const QString &deploymentId, const QString &name) const;
    QList<Counter> list(const QString &deploymentId) const; // by name
    bool remove(const QString &deploymentId, const QString &name); // false when there is no such counter

    QString lastError() const;

private:
    IncrementResult failure(const QSqlQuery &query) const;
    void fail(const QSqlQuery &query) const;

    Database &m_db;
    mutable QString m_lastError;
};

} // namespace berth
