#pragma once

#include "core/error.h"
#include "storage/counter.h"

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

    // Adds 1 to the counter, creating it at 1 unless the deployment already has maxCounters counters; one
    // transaction. The new value, or Forbidden + CounterLimitReached, InsufficientStorage for a full disk, Internal
    // (SQLite's words, for the log only).
    Result<qint64> increment(const QString &deploymentId, const QString &name, int maxCounters, const QDateTime &now);
    // nullopt when the counter does not exist (or on failure, which is logged).
    std::optional<Counter> find(const QString &deploymentId, const QString &name) const;
    QList<Counter> list(const QString &deploymentId) const; // by name
    Result<void> remove(const QString &deploymentId, const QString &name); // NotFound + CounterNotFound

private:
    static Error failure(const QSqlQuery &query); // logged

    Database &m_db;
};

} // namespace berth
