#pragma once

#include "core/error.h"
#include "storage/submission.h"

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

    // In one transaction: refuses when `day` (e.g. "2026-11-21") already counts perDay submissions of the
    // deployment; otherwise deletes the oldest ones so that at most maxStored remain with the new one, inserts it
    // and counts it for the day. The ids deleted, or RateLimited + SubmissionLimitReached, InsufficientStorage for
    // a full disk, Internal (SQLite's words, for the log only).
    Result<QStringList> insert(const Submission &submission, const QString &day, int perDay, int maxStored);

    struct Page
    {
        QList<Submission> submissions; // newest first
        bool hasMore = false; // older submissions follow the last one
    };
    // Up to `limit` submissions, newest first, older than the submission `beforeId` when it is set (a beforeId
    // that names no submission of this deployment gives an empty page).
    Result<Page> page(const QString &deploymentId, int limit, const QString &beforeId = {}) const;
    // Reads that cannot tell a failure from "none" log the failure (lcStorage) and answer as if there were none.
    std::optional<Submission> find(const QString &deploymentId, const QString &id) const;
    int count(const QString &deploymentId) const;
    int countOnDay(const QString &deploymentId, const QString &day) const;
    Result<void> remove(const QString &deploymentId, const QString &id); // NotFound + SubmissionNotFound

private:
    static Error failure(const QSqlQuery &query); // logged

    Database &m_db;
};

} // namespace berth
