#include "storage/database.h"

#include "storage/sqlhelpers.h"
#include "storage/timestamps.h"

#include <QAtomicInteger>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <utility>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

constexpr int BusyTimeoutMs = 5000;
constexpr qint64 kReconnectIntervalMs = 1000;
// The advisory lock every PostgreSQL migration transaction takes: any fixed number, Berth's own ("BERT").
constexpr qint64 kMigrationLockKey = 0x42455254;

// The database holds the cookie-signing secret, share tokens and password hashes: its folder and files are the
// owner's alone. SQLite gives the -wal and -shm files it creates the database file's mode.
constexpr QFileDevice::Permissions kPrivateFile
    = QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadUser | QFileDevice::WriteUser;
constexpr QFileDevice::Permissions kPrivateFolder = kPrivateFile | QFileDevice::ExeOwner | QFileDevice::ExeUser;
constexpr QFileDevice::Permissions kOthersBits = QFileDevice::ReadGroup | QFileDevice::WriteGroup
    | QFileDevice::ExeGroup | QFileDevice::ReadOther | QFileDevice::WriteOther | QFileDevice::ExeOther;

// Takes group and other access away from a file or folder, fixing what an earlier Berth left readable to all. A
// failure (a folder owned by someone else, say) is logged: the database still opens.
void restrictToOwner(const QString &path, QFileDevice::Permissions permissions)
{
    if (!QFileInfo::exists(path) || !(QFile::permissions(path) & kOthersBits))
        return;
    if (!QFile::setPermissions(path, permissions))
        qCWarning(lcStorage).noquote() << "cannot make" << path << "private to its owner";
}

QString uniqueConnectionName()
{
    // QtSql keys connections by name process-wide; each Database owns exactly one.
    static QAtomicInteger<quint64> counter;
    return u"berth-storage-%1"_s.arg(counter.fetchAndAddRelaxed(1));
}

// Pragmas (and PostgreSQL's SET) take no bound parameters; these are fixed strings, never built from input.
Error failure(const QString &message)
{
    return {Error::Kind::Internal, message};
}

// The first value of the statement's first row (null when it has none).
Result<QVariant> pragma(const QSqlDatabase &db, const QString &statement)
{
    QSqlQuery query(db);
    if (!query.exec(statement))
        return failure(u"%1 failed: %2"_s.arg(statement, query.lastError().text()));
    return query.next() ? query.value(0) : QVariant();
}

Result<void> checkMigrations(const QList<Migration> &migrations)
{
    int previous = 0;
    for (const Migration &migration : migrations) {
        if (migration.version <= previous)
            return failure(u"migration versions must be positive and strictly increasing (got %1 after %2)"_s
                               .arg(migration.version)
                               .arg(previous));
        previous = migration.version;
    }
    return {};
}

} // namespace

Database::Database(const QString &filePath)
    : Database(filePath, builtInMigrations())
{
}

Database::Database(const QString &filePath, QList<Migration> migrations)
    : Database(filePath, QString(), std::move(migrations))
{
}

Database::Database(const QString &filePath, const QString &serverUrl, QList<Migration> migrations)
    : m_filePath(filePath)
    , m_serverUrl(serverUrl)
    , m_dialect(serverUrl.isEmpty() ? SqlDialect::Sqlite : SqlDialect::PostgreSql)
    , m_migrations(std::move(migrations))
    , m_connectionName(uniqueConnectionName())
{
}

Database::~Database()
{
    close();
    // The handle must be released before removeDatabase, or QtSql warns that the connection is still in use.
    m_db = QSqlDatabase();
    if (QSqlDatabase::contains(m_connectionName))
        QSqlDatabase::removeDatabase(m_connectionName);
}

Result<void> Database::open()
{
    if (isOpen())
        return {};

    if (const Result<void> checked = checkMigrations(m_migrations); !checked)
        return fail(checked.error().message);
    const Result<void> opened = m_dialect == SqlDialect::Sqlite ? openSqliteFile() : connectToServer();
    if (!opened)
        return fail(opened.error().message);

    const Result<int> read = readSchemaVersion();
    if (!read)
        return fail(read.error().message);
    const int version = read.value();
    const int latest = m_migrations.isEmpty() ? 0 : m_migrations.constLast().version;
    if (version > latest) {
        return fail(
            u"%1 has schema version %2, newer than this Berth understands (%3); use a newer Berth"_s.arg(displayName())
                .arg(version)
                .arg(latest));
    }
    m_schemaVersion = version;

    if (const Result<void> configured = configure(); !configured)
        return fail(configured.error().message);
    for (const Migration &migration : std::as_const(m_migrations)) {
        if (migration.version <= m_schemaVersion)
            continue;
        if (const Result<void> applied = apply(migration); !applied)
            return fail(applied.error().message);
        m_schemaVersion = qMax(m_schemaVersion, migration.version);
    }
    m_reconnects = m_dialect == SqlDialect::PostgreSql;
    return {};
}

Result<void> Database::openSqliteFile()
{
    const QFileInfo info(m_filePath);
    if (!QDir().mkpath(info.absolutePath()))
        return failure(u"cannot create the folder %1"_s.arg(info.absolutePath()));
    // Before SQLite creates anything, so that its -wal and -shm files are born private too. An empty file is an
    // empty SQLite database.
    restrictToOwner(info.absolutePath(), kPrivateFolder);
    if (!info.exists()) {
        QFile file(info.absoluteFilePath());
        if (file.open(QIODevice::WriteOnly | QIODevice::NewOnly))
            file.close();
    }
    restrictToOwner(info.absoluteFilePath(), kPrivateFile);
    if (!QSqlDatabase::isDriverAvailable(u"QSQLITE"_s))
        return failure(u"the Qt SQLite driver (QSQLITE) is not available"_s);

    if (!m_db.isValid())
        m_db = QSqlDatabase::addDatabase(u"QSQLITE"_s, m_connectionName);
    m_db.setDatabaseName(info.absoluteFilePath());
    if (!m_db.open())
        return failure(u"cannot open %1: %2"_s.arg(m_filePath, m_db.lastError().text()));
    // Before the version is read: a newer file must not even be switched to WAL, so configure() comes after.
    if (const Result<QVariant> set = pragma(m_db, u"PRAGMA busy_timeout = %1"_s.arg(BusyTimeoutMs)); !set)
        return set.error();
    for (const char *suffix : {"-wal", "-shm"}) // an earlier Berth's, with their own mode
        restrictToOwner(info.absoluteFilePath() + QLatin1String(suffix), kPrivateFile);
    return {};
}

Result<void> Database::connectToServer()
{
    const Result<DatabaseUrl> url = DatabaseUrl::parse(m_serverUrl);
    if (!url)
        return failure(url.error().message);
    if (!QSqlDatabase::isDriverAvailable(u"QPSQL"_s))
        return failure(u"the Qt PostgreSQL driver (QPSQL) is not available (Debian: libqt6sql6-psql)"_s);
    if (!m_db.isValid())
        m_db = QSqlDatabase::addDatabase(u"QPSQL"_s, m_connectionName);
    m_db.setHostName(url.value().host);
    m_db.setPort(url.value().port);
    m_db.setUserName(url.value().user);
    m_db.setPassword(url.value().password);
    m_db.setDatabaseName(url.value().name);
    m_db.setConnectOptions(url.value().connectOptions);
    // libpq's messages name the host, user and database, never the password.
    if (!m_db.open())
        return failure(u"cannot connect to %1: %2"_s.arg(url.value().redacted(), m_db.lastError().text()));
    return {};
}

bool Database::isOpen() const
{
    return m_db.isValid() && m_db.isOpen();
}

void Database::close()
{
    m_reconnects = false;
    if (isOpen())
        m_db.close();
}

QSqlDatabase Database::connection() const
{
    // PostgreSQL: QPSQL closes a connection the server dropped (a restart, an ended session) at its first failed
    // statement. Opening it again here, at most once per kReconnectIntervalMs, lets the instance recover without a
    // restart; the schema is already in place.
    if (m_reconnects && !m_db.isOpen()
        && (!m_lastReconnect.isValid() || m_lastReconnect.hasExpired(kReconnectIntervalMs))) {
        m_lastReconnect.start();
        QSqlDatabase db = m_db; // the same connection
        if (db.open()) {
            configure();
            // A reopened connection listens to nothing: subscribe again, and let the owner catch up on what was
            // sent while it was away (later, from the event loop: the caller is in the middle of a statement).
            for (auto channel = m_listeners.keyBegin(); channel != m_listeners.keyEnd(); ++channel)
                subscribe(*channel);
            if (m_reconnected)
                QMetaObject::invokeMethod(m_db.driver(), m_reconnected, Qt::QueuedConnection);
        } else
            qCWarning(lcStorage).noquote() << "cannot reconnect to" << displayName() << ":" << db.lastError().text();
    }
    return m_db;
}

Result<void> Database::listen(const QString &channel, NotificationHandler handler)
{
    if (m_dialect != SqlDialect::PostgreSql)
        return {};
    if (!isOpen())
        return sql::failure(u"not connected"_s);
    m_listeners.insert(channel, std::move(handler));
    if (!m_notificationsConnected) {
        m_notificationsConnected = true;
        // The driver object outlives reconnects (close() and open() reuse it), so one connection serves them all.
        QObject::connect(m_db.driver(), &QSqlDriver::notification, m_db.driver(),
            [this](const QString &name, QSqlDriver::NotificationSource source, const QVariant &payload) {
                const auto listener = m_listeners.constFind(name);
                if (source != QSqlDriver::SelfSource && listener != m_listeners.constEnd())
                    (*listener)(payload.toString());
            });
    }
    return subscribe(channel);
}

void Database::setReconnectHandler(std::function<void()> reconnected)
{
    m_reconnected = std::move(reconnected);
}

Result<void> Database::subscribe(const QString &channel) const
{
    if (m_db.driver()->subscribedToNotifications().contains(channel))
        return {};
    if (!m_db.driver()->subscribeToNotification(channel)) {
        qCWarning(lcStorage).noquote() << "cannot listen on" << channel << ":" << m_db.driver()->lastError().text();
        return sql::failure(m_db.driver()->lastError());
    }
    return {};
}

int Database::schemaVersion() const
{
    return m_schemaVersion;
}

int Database::latestSchemaVersion()
{
    const QList<Migration> migrations = builtInMigrations();
    return migrations.isEmpty() ? 0 : migrations.constLast().version;
}

QString Database::filePath() const
{
    return m_filePath;
}

SqlDialect Database::dialect() const
{
    return m_dialect;
}

QString Database::displayName() const
{
    if (m_dialect == SqlDialect::Sqlite)
        return m_filePath;
    const Result<DatabaseUrl> url = DatabaseUrl::parse(m_serverUrl);
    return url ? url.value().redacted() : u"the PostgreSQL database"_s;
}

Error Database::fail(const QString &message)
{
    qCWarning(lcStorage).noquote() << message;
    close();
    return {Error::Kind::Internal, message};
}

Result<void> Database::configure() const
{
    // PostgreSQL is durable and enforces foreign keys as it is. Its notices ("already exists, skipping") would go to
    // stderr through libpq.
    if (m_dialect == SqlDialect::PostgreSql) {
        if (const Result<QVariant> set = pragma(m_db, u"SET client_min_messages = warning"_s); !set)
            return set.error();
        return {};
    }
    // WAL: readers never block the writer; synchronous=FULL: a committed deploy survives power loss.
    const Result<QVariant> mode = pragma(m_db, u"PRAGMA journal_mode = WAL"_s);
    if (!mode)
        return mode.error();
    if (mode.value().toString().compare(u"wal"_s, Qt::CaseInsensitive) != 0)
        return failure(u"cannot switch %1 to WAL (journal mode is %2)"_s.arg(m_filePath, mode.value().toString()));
    for (const QString &statement : {u"PRAGMA synchronous = FULL"_s, u"PRAGMA foreign_keys = ON"_s}) {
        if (const Result<QVariant> set = pragma(m_db, statement); !set)
            return set.error();
    }
    const Result<QVariant> foreignKeys = pragma(m_db, u"PRAGMA foreign_keys"_s);
    if (!foreignKeys)
        return foreignKeys.error();
    if (foreignKeys.value().toInt() != 1)
        return failure(u"this SQLite build cannot enforce foreign keys"_s);
    return {};
}

Result<int> Database::readSchemaVersion()
{
    QSqlQuery query(m_db);
    query.prepare(m_dialect == SqlDialect::Sqlite
            ? u"SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?"_s
            : u"SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema() "
              "AND table_name = ?"_s);
    query.addBindValue(u"schema_version"_s);
    if (const Result<void> done = sql::exec(query); !done)
        return done.error();
    if (!query.next())
        return failure(u"cannot read the schema of %1"_s.arg(displayName()));
    if (query.value(0).toInt() == 0)
        return 0;
    if (!query.exec(u"SELECT MAX(version) FROM schema_version"_s) || !query.next())
        return failure(u"cannot read the schema version of %1: %2"_s.arg(displayName(), query.lastError().text()));
    return query.value(0).toInt();
}

Result<void> Database::apply(const Migration &migration)
{
    Transaction transaction(m_db);
    if (!transaction.isActive())
        return failure(u"cannot begin migration %1: %2"_s.arg(migration.version).arg(m_db.lastError().text()));
    QSqlQuery query(m_db);
    if (m_dialect == SqlDialect::PostgreSql) {
        // Another node may be migrating the same database: wait for it (the lock ends with the transaction), then
        // look again whether this step is still to do.
        if (!query.exec(u"SELECT pg_advisory_xact_lock(%1)"_s.arg(kMigrationLockKey)))
            return failure(u"cannot lock for migration %1: %2"_s.arg(migration.version).arg(query.lastError().text()));
        query.finish();
        const Result<int> current = readSchemaVersion();
        if (!current)
            return failure(current.error().message);
        if (current.value() >= migration.version) {
            query.finish();
            if (!transaction.commit())
                return failure(u"cannot end migration %1: %2"_s.arg(migration.version).arg(m_db.lastError().text()));
            return {};
        }
    }
    if (!query.exec(u"CREATE TABLE IF NOT EXISTS schema_version ("
                    "version INTEGER PRIMARY KEY NOT NULL, applied_at TEXT NOT NULL)"_s))
        return failure(u"cannot create schema_version: %1"_s.arg(query.lastError().text()));
    // QSQLITE runs only the first statement of a string, hence one statement per list entry.
    for (const MigrationStatement &statement : migration.statements) {
        const QString text = statement.text(m_dialect);
        if (text.isEmpty()) // for the other dialect only
            continue;
        if (!query.exec(text)) {
            return failure(u"migration %1 failed: %2 (in: %3)"_s.arg(migration.version)
                               .arg(query.lastError().text(), text.simplified()));
        }
    }
    query.prepare(u"INSERT INTO schema_version (version, applied_at) VALUES (?, ?)"_s);
    query.addBindValue(migration.version);
    query.addBindValue(toStorageTime(QDateTime::currentDateTimeUtc()));
    if (const Result<void> done = sql::exec(query); !done)
        return done.error();
    query.finish();
    if (!transaction.commit())
        return failure(u"cannot commit migration %1: %2"_s.arg(migration.version).arg(m_db.lastError().text()));
    return {};
}

} // namespace berth
