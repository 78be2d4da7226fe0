#pragma once

#include "core/error.h"
#include "storage/databaseurl.h"
#include "storage/migrations.h"
#include "storage/transaction.h"

#include <QElapsedTimer>
#include <QHash>
#include <QList>
#include <QSqlDatabase>
#include <QString>
#include <functional>

namespace berth {

// The instance's database: its SQLite file, or a PostgreSQL database given by URL. One QtSql connection per Database
// object, used only on the thread that opened it. open() configures durability (SQLite: WAL, synchronous=FULL) and
// integrity (foreign keys) and brings the schema forward.
class Database final
{
    Q_DISABLE_COPY_MOVE(Database)
public:
    explicit Database(const QString &filePath); // the built-in migrations
    Database(const QString &filePath, QList<Migration> migrations);
    // serverUrl: a postgresql:// URL (DatabaseUrl); empty: the SQLite file at filePath.
    Database(const QString &filePath, const QString &serverUrl, QList<Migration> migrations = builtInMigrations());
    ~Database();

    // SQLite: creates parent folders, opens the file. PostgreSQL: connects. Then applies pending migrations, each
    // in its own transaction (on PostgreSQL under an advisory lock, so that nodes starting together migrate once).
    // A schema newer than the newest migration (written by a later Berth) is refused without being written.
    Result<void> open();
    bool isOpen() const;
    void close();

    QSqlDatabase connection() const;
    int schemaVersion() const; // 0 until open() read it
    static int latestSchemaVersion();
    QString filePath() const;
    SqlDialect dialect() const;
    // The SQLite file path or the server URL without its password: what messages may name.
    QString displayName() const;

    // PostgreSQL: LISTEN on `channel` on this connection; `handler` gets the payload of every notification on it that
    // another connection sent (this connection's own are left out: its writes are applied here already), on this
    // thread's event loop. Kept across reconnects: subscribed again whenever connection() reopens the connection,
    // after which `reconnected` (if set) is called from the event loop, since notifications sent meanwhile are lost.
    // SQLite: nothing to listen to, success.
    using NotificationHandler = std::function<void(const QString &payload)>;
    Result<void> listen(const QString &channel, NotificationHandler handler);
    void setReconnectHandler(std::function<void()> reconnected);

private:
    Error fail(const QString &message); // logs it and closes the file
    Result<void> openSqliteFile();
    Result<void> connectToServer();
    Result<void> configure() const;
    Result<int> readSchemaVersion();
    Result<void> apply(const Migration &migration);
    Result<void> subscribe(const QString &channel) const;

    QString m_filePath;
    QString m_serverUrl;
    SqlDialect m_dialect = SqlDialect::Sqlite;
    QList<Migration> m_migrations;
    QString m_connectionName;
    QSqlDatabase m_db;
    int m_schemaVersion = 0;
    // PostgreSQL, between a successful open() and close(): a dropped connection is opened again by connection().
    bool m_reconnects = false;
    mutable QElapsedTimer m_lastReconnect;
    QHash<QString, NotificationHandler> m_listeners; // by channel
    std::function<void()> m_reconnected;
    bool m_notificationsConnected = false;
};

} // namespace berth
