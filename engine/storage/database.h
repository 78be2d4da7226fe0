#pragma once

#include "core/error.h"
#include "migrations.h"
#include "transaction.h"

#include <QList>
#include <QSqlDatabase>
#include <QString>

namespace berth {

// The instance's SQLite file: one QtSql connection per Database object, used only on the thread that opened it.
// open() configures durability (WAL, synchronous=FULL) and integrity (foreign keys) and brings the schema forward.
class Database final
{
    Q_DISABLE_COPY_MOVE(Database)
public:
    explicit Database(const QString &filePath); // the built-in migrations
    Database(const QString &filePath, QList<Migration> migrations);
    ~Database();

    // Creates parent folders, opens the file and applies pending migrations, each in its own transaction. A file
    // whose schema is newer than the newest migration (written by a later Berth) is refused without being written.
    Result<void> open();
    bool isOpen() const;
    void close();

    QSqlDatabase connection() const;
    int schemaVersion() const; // 0 until open() read it
    static int latestSchemaVersion();
    QString filePath() const;

private:
    Error fail(const QString &message); // logs it and closes the file
    Result<void> configure();
    Result<int> readSchemaVersion();
    Result<void> apply(const Migration &migration);

    QString m_filePath;
    QList<Migration> m_migrations;
    QString m_connectionName;
    QSqlDatabase m_db;
    int m_schemaVersion = 0;
};

} // namespace berth
