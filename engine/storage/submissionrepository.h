#pragma once

#include "submission.h"

#include <QList>
#include <QString>
#include <optional>

class QSqlQuery;

namespace berth {

class Database;

// Form submissions per deployment, in order of arrival, with each deployment's count of the current day.
// Used only on the thread that opened the Database.
class SubmissionRepository final
{
    Q_DISABLE_COPY_MOVE(SubmissionRepository)
public:
    explicit SubmissionRepository(Database &db);

    enum class InsertResult
    {
        Ok,
        DailyLimitReached,
        Full,
        Failed
    }; // Full: SQLITE_FULL, the disk is full

    // In one transaction: refuses when `day` (e.g. "2026-11-21") already counts perDay submissions of the
    // deployment; otherwise deletes the oldest ones so that at most maxStored remain with the new one, inserts it
    // and counts it for the day. *pruned (optional) receives the ids deleted.
    InsertResult insert(
        const Submission &submission, const QString &day, int perDay, int maxStored, QStringList *pruned = nullptr);

    struct Page
    {
        QList<Submission> submissions; // newest first
        bool hasMore = false; // older submissions follow the last one
    };
    // Up to `limit` submissions, newest first, older than the submission `beforeId` when it is set (a beforeId
    // that names no submission of this deployment gives an empty page). nullopt on failure (see lastError()).
    std::optional<Page> page(const QString &deploymentId, int limit, const QString &beforeId = {}) const;
    std::optional<Submission> find(const QString &deploymentId, const QString &id) const;
    int count(const QString &deploymentId) const;
    int countOnDay(const QString &deploymentId, const QString &day) const;
    bool remove(const QString &deploymentId, const QString &id); // false when there is no such submission

    QString lastError() const;

private:
    void fail(const QSqlQuery &query) const;
    InsertResult failure(const QSqlQuery &query) const;

    Database &m_db;
    mutable QString m_lastError;
};

} // namespace berth
