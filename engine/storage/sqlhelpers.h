#pragma once

// Private to berth_storage: the small conversions every repository shares. Not installed for other folders.

#include <QByteArray>
#include <QDateTime>
#include <QLoggingCategory>
#include <QString>
#include <QVariant>

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

// Executes a prepared query; on failure describes it in *error when given. Callers decide whether a failure is
// worth a warning: a taken slug, for one, is an ordinary answer.
bool exec(QSqlQuery &query, QString *error = nullptr);
// Whether a failed statement's error text is SQLITE_FULL (the disk, or the database's page limit, is full) or
// PostgreSQL's disk_full (SQLSTATE 53100).
bool isStorageFull(const QString &errorText);

} // namespace sql
} // namespace berth
