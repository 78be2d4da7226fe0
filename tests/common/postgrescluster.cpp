#include "postgrescluster.h"

#include <QAtomicInteger>
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QThread>
#include <QUrl>
#include <cerrno>
#include <csignal>
#include <pwd.h>
#include <sys/types.h>
#include <unistd.h>

// PostgreSQL's bin folder, or empty: found by tests/CMakeLists.txt, passed by tests/common/CMakeLists.txt.
#ifndef BERTH_POSTGRESQL_BINDIR
#error "BERTH_POSTGRESQL_BINDIR (the folder of PostgreSQL's initdb) is not defined"
#endif

using namespace Qt::StringLiterals;

namespace berth::test {

namespace {

constexpr int kStartTimeoutSeconds = 60;
constexpr int kStopTimeoutMs = 30000;
constexpr int kStopPollMs = 20;

// PostgreSQL refuses to run as root: then initdb and pg_ctl run as nobody, and the folder becomes nobody's.
bool runningAsRoot()
{
    return ::geteuid() == 0;
}

bool runTool(const QString &tool, const QStringList &arguments, QString *error)
{
    const QString program = PostgresCluster::binDir() + u'/' + tool;
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    if (runningAsRoot())
        process.start(u"runuser"_s, QStringList {u"-u"_s, u"nobody"_s, u"--"_s, program} + arguments);
    else
        process.start(program, arguments);
    if (!process.waitForFinished(kStartTimeoutSeconds * 1000) || process.exitStatus() != QProcess::NormalExit
        || process.exitCode() != 0) {
        *error = u"%1 failed: %2"_s.arg(tool, QString::fromLocal8Bit(process.readAll()).trimmed());
        if (process.state() != QProcess::NotRunning)
            process.kill();
        return false;
    }
    return true;
}

bool giveToNobody(const QString &folder, QString *error)
{
    if (!runningAsRoot())
        return true;
    const passwd *nobody = ::getpwnam("nobody");
    if (!nobody || ::chown(QFile::encodeName(folder).constData(), nobody->pw_uid, nobody->pw_gid) != 0) {
        *error = u"cannot give %1 to the user nobody"_s.arg(folder);
        return false;
    }
    return true;
}

qint64 postmasterPid(const QString &folder)
{
    QFile file(folder + u"/data/postmaster.pid"_s);
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    return file.readLine().trimmed().toLongLong();
}

} // namespace

QString PostgresCluster::binDir()
{
    return QString::fromUtf8(BERTH_POSTGRESQL_BINDIR);
}

bool PostgresCluster::binariesAvailable()
{
    return !binDir().isEmpty() && QFile::exists(binDir() + u"/initdb"_s);
}

PostgresCluster::PostgresCluster()
    : m_temporary(std::make_unique<QTemporaryDir>(QDir::tempPath() + u"/berth-pg-XXXXXX"_s))
    , m_folder(m_temporary->path())
{
}

PostgresCluster::PostgresCluster(const QString &link)
    : m_link(QDir(link).absolutePath())
{
}

PostgresCluster::~PostgresCluster()
{
    if (m_started)
        stop();
}

bool PostgresCluster::start(QString *error)
{
    if (!binariesAvailable()) {
        *error = u"PostgreSQL's initdb was not found (BERTH_POSTGRESQL_BINDIR is \"%1\")"_s.arg(binDir());
        return false;
    }
    if (m_temporary && !m_temporary->isValid()) {
        *error = u"cannot create a temporary folder"_s;
        return false;
    }
    if (!m_link.isEmpty()) { // whatever an earlier run left behind the link goes
        if (const QString stopped = stopFolder(m_link); !stopped.isEmpty()) {
            *error = stopped;
            return false;
        }
        if (QFileInfo(m_link).isDir()) // a cluster from before the link (its server is stopped above)
            QDir(m_link).removeRecursively();
        QTemporaryDir folder(u"/tmp/berth-pg-XXXXXX"_s);
        QDir().mkpath(QFileInfo(m_link).path());
        if (!folder.isValid() || !QFile::link(folder.path(), m_link)) {
            *error = u"cannot create a folder for the cluster under /tmp linked from %1"_s.arg(m_link);
            return false;
        }
        folder.setAutoRemove(false);
        m_folder = folder.path();
    }
    if (!giveToNobody(m_folder, error))
        return false;
    const QString data = m_folder + u"/data"_s;
    // C collation: text sorts by code point, as in SQLite.
    if (!runTool(u"initdb"_s,
            {u"-D"_s, data, u"-U"_s, QLatin1String(kRole), u"--auth=trust"_s, u"--encoding=UTF8"_s, u"--locale=C"_s,
                u"--no-sync"_s},
            error))
        return false;
    if (!launch(error))
        return false;
    return PostgresTestDatabase::run(
               m_folder, u"postgres"_s, u"CREATE DATABASE %1"_s.arg(QLatin1String(kTestDatabase)), error)
        && PostgresTestDatabase::run(m_folder, QLatin1String(kTestDatabase), u"CREATE EXTENSION citext"_s, error);
}

bool PostgresCluster::launch(QString *error)
{
    const QString options = u"-c listen_addresses='' -c unix_socket_directories='%1' -c fsync=off "
                            "-c synchronous_commit=off -c full_page_writes=off -p %2"_s.arg(m_folder)
                                .arg(kPort);
    if (!runTool(u"pg_ctl"_s,
            {u"-D"_s, m_folder + u"/data"_s, u"-l"_s, m_folder + u"/server.log"_s, u"-w"_s, u"-t"_s,
                QString::number(kStartTimeoutSeconds), u"-o"_s, options, u"start"_s},
            error))
        return false;
    m_started = true;
    return true;
}

bool PostgresCluster::restart(QString *error)
{
    return launch(error);
}

void PostgresCluster::stop()
{
    if (const QString error = stopFolder(m_link.isEmpty() ? m_folder : m_link); !error.isEmpty())
        qWarning("%s", qPrintable(error));
    m_started = false;
}

QString PostgresCluster::fixtureOrOwn(std::unique_ptr<PostgresCluster> &own, QString *error)
{
    const QString fixture = qEnvironmentVariable(kEnvironmentVariable);
    if (!fixture.isEmpty())
        return fixture;
    auto cluster = std::make_unique<PostgresCluster>();
    if (!cluster->start(error))
        return {};
    own = std::move(cluster);
    return own->socketFolder();
}

QString PostgresCluster::stopFolder(const QString &folderOrLink)
{
    const QFileInfo info(folderOrLink);
    const QString folder = info.isSymLink() ? info.symLinkTarget() : folderOrLink;
    QString error = stopServer(folder);
    if (error.isEmpty() && info.isSymLink()) {
        QDir(folder).removeRecursively();
        QFile::remove(folderOrLink);
    }
    return error;
}

QString PostgresCluster::stopServer(const QString &folder)
{
    const qint64 pid = postmasterPid(folder);
    if (pid <= 0)
        return {};
    // SIGINT: PostgreSQL's fast shutdown. The server removes postmaster.pid as it exits; a process that is gone (or
    // a zombie no one reaps) counts as stopped too.
    if (::kill(static_cast<pid_t>(pid), SIGINT) != 0)
        return errno == ESRCH ? QString() : u"cannot signal the PostgreSQL server %1"_s.arg(pid);
    QDeadlineTimer deadline(kStopTimeoutMs);
    while (!deadline.hasExpired()) {
        if (postmasterPid(folder) != pid || (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH))
            return {};
        QThread::msleep(kStopPollMs);
    }
    return u"the PostgreSQL server %1 did not stop within %2 ms"_s.arg(pid).arg(kStopTimeoutMs);
}

PostgresTestDatabase::PostgresTestDatabase(const QString &socketFolder)
    // Resolved: the link's path may be too long for a socket address, and the server knows the folder's own.
    : m_socketFolder(QFileInfo(socketFolder).canonicalFilePath())
{
    static QAtomicInteger<int> counter;
    m_name = u"berth_test_%1_%2"_s.arg(QCoreApplication::applicationPid()).arg(counter.fetchAndAddRelaxed(1));
}

PostgresTestDatabase::~PostgresTestDatabase()
{
    QString error;
    if (m_created
        && !run(m_socketFolder, QLatin1String(PostgresCluster::kTestDatabase), u"DROP SCHEMA %1 CASCADE"_s.arg(m_name),
            &error))
        qWarning("%s", qPrintable(error));
}

bool PostgresTestDatabase::create(QString *error)
{
    // A name from a fixed pattern, never from input: safe to paste into the statement.
    m_created
        = run(m_socketFolder, QLatin1String(PostgresCluster::kTestDatabase), u"CREATE SCHEMA %1"_s.arg(m_name), error);
    return m_created;
}

std::unique_ptr<PostgresTestDatabase> PostgresTestDatabase::createInFixtureCluster(QString *skipReason, QString *error)
{
    const QString cluster = qEnvironmentVariable(PostgresCluster::kEnvironmentVariable);
    if (cluster.isEmpty()) {
        *skipReason = u"no PostgreSQL test cluster (%1)"_s.arg(QLatin1String(PostgresCluster::kEnvironmentVariable));
        return nullptr;
    }
    auto database = std::make_unique<PostgresTestDatabase>(cluster);
    if (!database->create(error))
        return nullptr;
    return database;
}

QString PostgresTestDatabase::url() const
{
    // public holds citext.
    return u"postgresql://%1@localhost/%2?host=%3&options=%4"_s.arg(QLatin1String(PostgresCluster::kRole),
        QLatin1String(PostgresCluster::kTestDatabase), QString::fromLatin1(QUrl::toPercentEncoding(m_socketFolder)),
        QString::fromLatin1(QUrl::toPercentEncoding(u"-c search_path=%1,public"_s.arg(m_name))));
}

bool PostgresTestDatabase::run(
    const QString &socketFolder, const QString &database, const QString &statement, QString *error)
{
    static QAtomicInteger<int> counter;
    const QString connectionName = u"berth-test-admin-%1"_s.arg(counter.fetchAndAddRelaxed(1));
    bool ok = false;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QPSQL"_s, connectionName);
        db.setHostName(socketFolder);
        db.setPort(PostgresCluster::kPort);
        db.setUserName(QLatin1String(PostgresCluster::kRole));
        db.setDatabaseName(database);
        if (!db.open()) {
            *error = u"cannot connect to the test cluster in %1: %2"_s.arg(socketFolder, db.lastError().text());
        } else {
            QSqlQuery query(db);
            query.exec(u"SET client_min_messages = warning"_s); // no "drop cascades to ..." notices on stderr
            ok = query.exec(statement);
            if (!ok)
                *error = u"%1 failed: %2"_s.arg(statement, query.lastError().text());
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(connectionName);
    return ok;
}

} // namespace berth::test
