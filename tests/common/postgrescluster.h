#pragma once

#include <QString>
#include <QTemporaryDir>
#include <memory>

namespace berth::test {

// A private PostgreSQL cluster for tests: initdb and pg_ctl from binDir() in a folder of its own,
// listening only on a Unix socket in that folder (no TCP port), with trust authentication for its one role, "berth".
// Run as root, the cluster runs as the unprivileged user nobody (PostgreSQL refuses to run as root). Durability is off
// (fsync, synchronous_commit): it holds throw-away test data. start() also creates the database the tests share,
// kTestDatabase, with the citext extension that Berth's schema uses.
class PostgresCluster final
{
    Q_DISABLE_COPY_MOVE(PostgresCluster)
public:
    // In a temporary folder of its own, removed with it.
    PostgresCluster();
    // Named by `link`: the cluster lives in a fresh folder under /tmp and `link` becomes a symbolic link to it (a
    // cluster left there by an earlier run is stopped and removed). Kept afterwards, until stopFolder(link).
    // Why not in `link`'s own folder: the server runs as nobody, who may not be allowed into the build tree's parents
    // (a clone under `mktemp -d` is 0700); /tmp lets everyone in.
    explicit PostgresCluster(const QString &link);
    ~PostgresCluster(); // stops the cluster if this object started it

    bool start(QString *error);
    // Stops the server whose process id postmaster.pid names (fast shutdown: open sessions are ended) and waits for
    // it to exit. Works for a cluster started by another process in the same folder.
    void stop();
    // Starts a cluster that start() made and stop() stopped again, with its data (a database coming back).
    bool restart(QString *error);

    QString folder() const { return m_folder; }
    QString socketFolder() const { return m_folder; }
    static constexpr int kPort = 5432; // names the socket file; nothing listens on TCP
    static constexpr const char *kRole = "berth";
    static constexpr const char *kTestDatabase = "berth_tests";

    // The folder of PostgreSQL's initdb and pg_ctl that the build found (BERTH_POSTGRESQL_BINDIR,
    // tests/CMakeLists.txt), empty when it found none; and whether initdb is there, without which start() fails and a
    // suite that starts a cluster of its own skips.
    static QString binDir();
    static bool binariesAvailable();

    // The environment variable that tells tests where a running cluster's socket folder is (set by CTest's fixture).
    static constexpr const char *kEnvironmentVariable = "BERTH_TEST_POSTGRES";
    // Stops a cluster by folder, or by the link the constructor above made (then its folder and the link go too). An
    // error text, or empty.
    static QString stopFolder(const QString &folder);
    // The socket folder of a cluster for a suite: the one CTest's fixture runs (kEnvironmentVariable), or else one of
    // the suite's own, started into `own` (which stops it when it goes). Empty, with error set, when that fails.
    static QString fixtureOrOwn(std::unique_ptr<PostgresCluster> &own, QString *error);
    void release() { m_started = false; } // leaves the server running when this object goes

private:
    bool launch(QString *error);
    static QString stopServer(const QString &folder);

    std::unique_ptr<QTemporaryDir> m_temporary;
    QString m_link; // empty for a temporary cluster
    QString m_folder;
    bool m_started = false;
};

// A fresh, empty Berth database in a running cluster: a schema of its own in the cluster's kTestDatabase (creating a
// whole database takes a second or more on a busy machine; a schema, milliseconds), which url() puts first in the
// search path. Dropped with everything in it on destruction.
class PostgresTestDatabase final
{
    Q_DISABLE_COPY_MOVE(PostgresTestDatabase)
public:
    explicit PostgresTestDatabase(const QString &socketFolder);
    ~PostgresTestDatabase();

    bool create(QString *error);
    // A fresh database in the cluster the CTest fixture runs (PostgresCluster::kEnvironmentVariable), for a fixture or
    // a test to hold. Null when no cluster runs (then *skipReason says so: a test skips) or when the database cannot be
    // made (then *error says why: a test fails).
    static std::unique_ptr<PostgresTestDatabase> createInFixtureCluster(QString *skipReason, QString *error);
    QString name() const { return m_name; }
    QString url() const; // postgresql://berth@localhost/berth_tests?host=<socket folder>&options=-c search_path=...

    // Runs one statement as the cluster's role in `database`.
    static bool run(const QString &socketFolder, const QString &database, const QString &statement, QString *error);

private:
    QString m_socketFolder;
    QString m_name;
    bool m_created = false;
};

} // namespace berth::test

// In a test function or in init()/initTestCase(): `pointer` (a std::unique_ptr<PostgresTestDatabase>, a member or a
// local) gets a fresh database in the cluster the CTest fixture started. The test is skipped where there is none
// (BERTH_TEST_POSTGRES unset), and fails when the database cannot be made.
#define BERTH_CREATE_FRESH_POSTGRES_DATABASE(pointer)                                                                  \
    do {                                                                                                               \
        QString freshDatabaseSkip;                                                                                     \
        QString freshDatabaseError;                                                                                    \
        pointer                                                                                                        \
            = ::berth::test::PostgresTestDatabase::createInFixtureCluster(&freshDatabaseSkip, &freshDatabaseError);    \
        if (!freshDatabaseSkip.isEmpty())                                                                              \
            QSKIP(qPrintable(freshDatabaseSkip));                                                                      \
        QVERIFY2(pointer, qPrintable(freshDatabaseError));                                                             \
    } while (false)

// The same for a local of a test function: `database` is a PostgresTestDatabase (a reference to it), dropped when the
// function returns.
#define BERTH_FRESH_POSTGRES_DATABASE(database)                                                                        \
    std::unique_ptr<::berth::test::PostgresTestDatabase> database##Owned;                                              \
    BERTH_CREATE_FRESH_POSTGRES_DATABASE(database##Owned);                                                             \
    ::berth::test::PostgresTestDatabase &database = *database##Owned
