#pragma once

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
    bool open(QString *error = nullptr);
    bool isOpen() const;
    void close();

    QSqlDatabase connection() const;
    int schemaVersion() const; // 0 until open() read it
    static int latestSchemaVersion();
    QString filePath() const;

private:
    bool fail(const QString &message, QString *error);
    bool configure(QString *error);
    bool readSchemaVersion(int *version, QString *error);
    bool apply(const Migration &migration, QString *error);

    QString m_filePath;
    QList<Migration> m_migrations;
    QString m_connectionName;
    QSqlDatabase m_db;
    int m_schemaVersion = 0;
};

} // namespace berth
