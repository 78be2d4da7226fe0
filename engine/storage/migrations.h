#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace berth {

// The SQL engines a Database can run on.
enum class SqlDialect
{
    Sqlite,
    PostgreSql,
};

// One statement of a migration: the same SQL for every dialect, or a PostgreSQL variant where the two differ (row ids,
// case-insensitive text).
struct MigrationStatement
{
    // Implicit on purpose: most statements are dialect-neutral and are written as plain strings in the list.
    MigrationStatement(const QString &both) // NOLINT(google-explicit-constructor)
        : sqlite(both)
    {
    }
    MigrationStatement(const QString &sqliteText, const QString &postgresqlText)
        : sqlite(sqliteText)
        , postgresql(postgresqlText)
    {
    }
    QString text(SqlDialect dialect) const
    {
        return dialect == SqlDialect::PostgreSql && !postgresql.isNull() ? postgresql : sqlite;
    }

    QString sqlite;
    QString postgresql; // null: the same as sqlite
};

// One forward step of the schema. Statements run in order inside one transaction together with the
// schema_version bookkeeping, so a step is applied entirely or not at all.
struct Migration
{
    int version = 0;
    QList<MigrationStatement> statements;
};

// The schema of a Berth instance, oldest step first. Append new steps; never edit a released one (a PostgreSQL
// variant of a released statement must create the same tables, columns and constraints).
QList<Migration> builtInMigrations();

} // namespace berth
