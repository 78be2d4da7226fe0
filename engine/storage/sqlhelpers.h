#pragma once

// Private to berth_storage: the small conversions every repository shares. Not installed for other folders.

#include "core/error.h"

#include <QByteArray>
#include <QDateTime>
#include <QLoggingCategory>
#include <QString>
#include <QVariant>

class QSqlError;
class QSqlQuery;

namespace berth {

Q_DECLARE_LOGGING_CATEGORY(lcStorage)

namespace sql {

// Values to bind: an empty/null input becomes SQL NULL, never '' (NULL-able UNIQUE columns depend on it).
QVariant textOrNull(const QString &text);
QVariant bytesOrNull(const QByteArray &bytes);
QVariant timeOrNull(const QDateTime &time);
// Bytes are ASCII identifiers (hashes, tokens, types) stored as TEXT: binding a QByteArray would store a BLOB,
// which never compares equal to a TEXT parameter.
QString text(const QByteArray &bytes);
// For NOT NULL text columns: Qt 6 binds a null QString as SQL NULL, so a default-constructed field must become ''.
QString text(const QString &text);

// Column readers that keep the distinction between SQL NULL (null QString) and '' (empty, non-null QString).
QString nullableString(const QSqlQuery &query, int column);
QByteArray bytes(const QSqlQuery &query, int column);
QDateTime time(const QSqlQuery &query, int column);

// Executes a prepared query: nothing, or why it failed (see failure()). Callers decide whether a failure is worth a
// warning: a taken slug, for one, is an ordinary answer.
Result<void> exec(QSqlQuery &query);
// Executes a prepared write that must touch a row: NotFound (with code and message) when it touched none.
Result<void> execAffecting(QSqlQuery &query, Error::Code code, const QString &notFoundMessage);
// After the rows were read: a step that failed part-way ends next() as the last row would, so only the query's
// error tells a complete list from a cut one.
Result<void> drained(const QSqlQuery &query);

// A failed statement (or commit) as an Error: InsufficientStorage for SQLITE_FULL (the disk, or the database's
// page limit, is full) and PostgreSQL's disk_full (SQLSTATE 53100), the one cause a client is told about; otherwise
// Internal with SQLite's words, which are for the log only (the domain answers with its own message, and
// web/apierror.cpp sends an Internal message as is).
Error failure(const QSqlError &error);
Error failure(const QSqlQuery &query);
Error failure(const QString &text);
// The database cannot be reached (a dropped connection, a failed connect): Unavailable with unavailableMessage(),
// which is all a client is told; `text` goes to the log.
Error unavailable(const QString &text);
QString unavailableMessage();
// A write that matched no row.
Error notFound(Error::Code code, const QString &message);
// A read that failed where the caller cannot tell it from "none": logged, so that the cause is not lost.
void warn(const char *what, const Error &error);
// failure(query), logged as what failed.
Error loggedFailure(const QSqlQuery &query, const char *what);

} // namespace sql
} // namespace berth
