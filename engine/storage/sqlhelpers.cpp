#include "storage/sqlhelpers.h"

#include "storage/timestamps.h"

#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace berth {

Q_LOGGING_CATEGORY(lcStorage, "berth.storage")

namespace sql {

QVariant textOrNull(const QString &text)
{
    return text.isEmpty() ? QVariant() : QVariant(text);
}

QVariant bytesOrNull(const QByteArray &bytes)
{
    return bytes.isEmpty() ? QVariant() : QVariant(QString::fromUtf8(bytes));
}

QVariant timeOrNull(const QDateTime &time)
{
    return time.isValid() ? QVariant(toStorageTime(time)) : QVariant();
}

QString text(const QByteArray &bytes)
{
    // Never null: the NOT NULL columns these go to take '' for an empty value.
    return bytes.isEmpty() ? u""_s : QString::fromUtf8(bytes);
}

QString text(const QString &text)
{
    return text.isNull() ? u""_s : text;
}

QString nullableString(const QSqlQuery &query, int column)
{
    if (query.isNull(column))
        return {};
    const QString value = query.value(column).toString();
    return value.isNull() ? u""_s : value;
}

QByteArray bytes(const QSqlQuery &query, int column)
{
    return query.value(column).toString().toUtf8();
}

QDateTime time(const QSqlQuery &query, int column)
{
    return query.isNull(column) ? QDateTime() : fromStorageTime(query.value(column).toString());
}

Result<void> exec(QSqlQuery &query)
{
    if (query.exec())
        return {};
    qCDebug(lcStorage).noquote() << "query failed:" << query.lastError().text() << "in" << query.lastQuery();
    return failure(query);
}

Result<void> execAffecting(QSqlQuery &query, Error::Code code, const QString &notFoundMessage)
{
    if (auto done = exec(query); !done)
        return done;
    if (query.numRowsAffected() == 0)
        return notFound(code, notFoundMessage);
    return {};
}

Result<void> drained(const QSqlQuery &query)
{
    if (query.lastError().isValid())
        return failure(query);
    return {};
}

Error failure(const QSqlError &error)
{
    // Not by error.type(): QSQLite reports a failed step (a foreign key, say) as a ConnectionError too.
    return failure(error.text());
}

Error failure(const QSqlQuery &query)
{
    // QPSQL closes a connection the server dropped at the statement that found out: the database is away, which a
    // client is told as such (503), unlike a failed statement.
    const QSqlDriver *driver = query.driver();
    if (driver && driver->dbmsType() == QSqlDriver::PostgreSQL && !driver->isOpen())
        return unavailable(query.lastError().text());
    return failure(query.lastError());
}

Error unavailable(const QString &text)
{
    qCWarning(lcStorage).noquote() << "database unavailable:" << text;
    return {Error::Kind::Unavailable, unavailableMessage()};
}

QString unavailableMessage()
{
    return QStringLiteral("The database is unavailable; try again in a moment");
}

Error failure(const QString &text)
{
    // SQLite's fixed wording for SQLITE_FULL, whatever the locale. PostgreSQL: QPSQL ends the message with the
    // SQLSTATE in parentheses, and disk_full is 53100 in any language; "could not extend file" is the English
    // message of the same failure, for a server that reports it under another code.
    if (text.contains(QLatin1String("database or disk is full"), Qt::CaseInsensitive)
        || text.contains(QLatin1String("(53100)")) || text.contains(QLatin1String("could not extend file")))
        return Error::insufficientStorage();
    return {Error::Kind::Internal, text};
}

Error notFound(Error::Code code, const QString &message)
{
    return {Error::Kind::NotFound, message, code};
}

void warn(const char *what, const Error &error)
{
    qCWarning(lcStorage).noquote() << what << "failed:" << error.message;
}

Error loggedFailure(const QSqlQuery &query, const char *what)
{
    Error error = failure(query);
    warn(what, error);
    return error;
}

} // namespace sql
} // namespace berth
