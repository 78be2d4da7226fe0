#include "sqlhelpers.h"

#include "timestamps.h"

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

bool exec(QSqlQuery &query, QString *error)
{
    if (query.exec())
        return true;
    const QString message = query.lastError().text();
    qCDebug(lcStorage).noquote() << "query failed:" << message << "in" << query.lastQuery();
    if (error)
        *error = message;
    return false;
}

bool isStorageFull(const QString &errorText)
{
    // SQLite's fixed wording for SQLITE_FULL, whatever the locale. PostgreSQL: QPSQL ends the message with the
    // SQLSTATE in parentheses, and disk_full is 53100 in any language; "could not extend file" is the English
    // message of the same failure, for a server that reports it under another code.
    return errorText.contains(QLatin1String("database or disk is full"), Qt::CaseInsensitive)
        || errorText.contains(QLatin1String("(53100)")) || errorText.contains(QLatin1String("could not extend file"));
}

} // namespace sql
} // namespace berth
