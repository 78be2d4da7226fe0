#include "storage/submissionrepository.h"

#include "storage/database.h"
#include "storage/orderedjson.h"
#include "storage/sqlhelpers.h"

#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

Submission submissionFrom(const QSqlQuery &query)
{
    Submission s;
    s.id = query.value(0).toString();
    s.deploymentId = query.value(1).toString();
    const QByteArray data = query.value(2).toString().toUtf8();
    s.data = QJsonDocument::fromJson(data).object();
    s.fieldOrder = OrderedJson::keys(data); // written in the form's order (alphabetical in rows from before)
    s.createdAt = sql::time(query, 3);
    return s;
}

} // namespace

SubmissionRepository::SubmissionRepository(Database &db)
    : m_db(db)
{
}

Result<QStringList> SubmissionRepository::insert(
    const Submission &submission, const QString &day, int perDay, int maxStored)
{
    Transaction transaction(m_db.connection());
    if (auto begun = transaction.begun(); !begun)
        return begun.error();
    QSqlQuery query(m_db.connection());
    // Count the day first: the write below takes SQLite's lock, and the connection is this thread's alone.
    query.prepare(u"INSERT INTO submission_days (deployment_id, day, count) VALUES (?, ?, 0) "
                  "ON CONFLICT (deployment_id) DO UPDATE SET count = CASE WHEN submission_days.day = excluded.day "
                  "THEN submission_days.count ELSE 0 END, day = excluded.day"_s);
    query.addBindValue(submission.deploymentId);
    query.addBindValue(day);
    if (!query.exec())
        return failure(query);
    query.prepare(u"SELECT count FROM submission_days WHERE deployment_id = ?"_s);
    query.addBindValue(submission.deploymentId);
    if (!query.exec() || !query.next())
        return failure(query);
    if (query.value(0).toInt() >= perDay)
        // Rolled back: nothing changes.
        return Error {
            Error::Kind::RateLimited, u"Daily submission limit reached"_s, Error::Code::SubmissionLimitReached};
    query.finish();

    // Make room: keep the newest maxStored - 1, so the new one makes maxStored.
    query.prepare(u"SELECT id FROM submissions WHERE deployment_id = ? ORDER BY seq DESC "
                  "LIMIT 9223372036854775807 OFFSET ?"_s); // no limit, as both SQLite and PostgreSQL read it
    query.addBindValue(submission.deploymentId);
    query.addBindValue(qMax(0, maxStored - 1));
    if (!query.exec())
        return failure(query);
    QStringList doomed;
    while (query.next())
        doomed.append(query.value(0).toString());
    query.finish();
    for (const QString &id : std::as_const(doomed)) {
        query.prepare(u"DELETE FROM submissions WHERE id = ?"_s);
        query.addBindValue(id);
        if (!query.exec())
            return failure(query);
    }

    query.prepare(u"INSERT INTO submissions (id, deployment_id, data, created_at) VALUES (?, ?, ?, ?)"_s);
    query.addBindValue(submission.id);
    query.addBindValue(submission.deploymentId);
    query.addBindValue(QString::fromUtf8(OrderedJson::write(submission.data, submission.fieldOrder)));
    query.addBindValue(sql::timeOrNull(submission.createdAt));
    if (!query.exec())
        return failure(query);
    query.prepare(u"UPDATE submission_days SET count = count + 1 WHERE deployment_id = ?"_s);
    query.addBindValue(submission.deploymentId);
    if (!query.exec())
        return failure(query);
    query.finish();
    if (auto committed = transaction.commit(); !committed)
        return committed.error();
    return doomed;
}

Result<SubmissionRepository::Page> SubmissionRepository::page(
    const QString &deploymentId, int limit, const QString &beforeId) const
{
    QSqlQuery query(m_db.connection());
    query.setForwardOnly(true);
    // One more than asked tells whether older ones follow.
    if (beforeId.isEmpty()) {
        query.prepare(u"SELECT id, deployment_id, data, created_at FROM submissions WHERE deployment_id = ? "
                      "ORDER BY seq DESC LIMIT ?"_s);
        query.addBindValue(deploymentId);
    } else {
        query.prepare(u"SELECT id, deployment_id, data, created_at FROM submissions WHERE deployment_id = ? "
                      "AND seq < (SELECT seq FROM submissions WHERE id = ? AND deployment_id = ?) "
                      "ORDER BY seq DESC LIMIT ?"_s);
        query.addBindValue(deploymentId);
        query.addBindValue(beforeId);
        query.addBindValue(deploymentId);
    }
    query.addBindValue(limit + 1);
    if (!query.exec())
        return failure(query);
    Page result;
    while (query.next()) {
        if (result.submissions.size() == limit) {
            result.hasMore = true;
            break;
        }
        result.submissions.append(submissionFrom(query));
    }
    return result;
}

std::optional<Submission> SubmissionRepository::find(const QString &deploymentId, const QString &id) const
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"SELECT id, deployment_id, data, created_at FROM submissions WHERE id = ? AND deployment_id = ?"_s);
    query.addBindValue(id);
    query.addBindValue(deploymentId);
    if (!query.exec()) {
        failure(query);
        return std::nullopt;
    }
    if (!query.next())
        return std::nullopt;
    return submissionFrom(query);
}

int SubmissionRepository::count(const QString &deploymentId) const
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"SELECT COUNT(*) FROM submissions WHERE deployment_id = ?"_s);
    query.addBindValue(deploymentId);
    if (!query.exec() || !query.next()) {
        failure(query);
        return 0;
    }
    return query.value(0).toInt();
}

int SubmissionRepository::countOnDay(const QString &deploymentId, const QString &day) const
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"SELECT count FROM submission_days WHERE deployment_id = ? AND day = ?"_s);
    query.addBindValue(deploymentId);
    query.addBindValue(day);
    if (!query.exec()) {
        failure(query);
        return 0;
    }
    return query.next() ? query.value(0).toInt() : 0;
}

Result<void> SubmissionRepository::remove(const QString &deploymentId, const QString &id)
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"DELETE FROM submissions WHERE id = ? AND deployment_id = ?"_s);
    query.addBindValue(id);
    query.addBindValue(deploymentId);
    if (!query.exec())
        return failure(query);
    if (query.numRowsAffected() == 0)
        return sql::notFound(Error::Code::SubmissionNotFound, u"Submission not found"_s);
    return {};
}

Error SubmissionRepository::failure(const QSqlQuery &query)
{
    return sql::loggedFailure(query, "a submission statement");
}

} // namespace berth
