#include "common/postgrescluster.h"
#include "common/resultassert.h"
#include "storage/database.h"
#include "storage/databaseurl.h"
#include "storage/sqlhelpers.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <memory>

using namespace Qt::StringLiterals;
using namespace berth;
using berth::test::PostgresCluster;
using berth::test::PostgresTestDatabase;

namespace {

QVariant scalar(const Database &db, const QString &statement)
{
    QSqlQuery query(db.connection());
    if (!query.exec(statement) || !query.next())
        return {};
    return query.value(0);
}

QString execError(const Database &db, const QString &statement)
{
    QSqlQuery query(db.connection());
    return query.exec(statement) ? QString() : query.lastError().text();
}

} // namespace

// The PostgreSQL backend of Database on a private cluster: the one CTest's fixture runs (BERTH_TEST_POSTGRES), or one
// of the suite's own.
class TestPostgresDatabase final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QString error;
        m_socketFolder = PostgresCluster::fixtureOrOwn(m_cluster, &error);
        QVERIFY2(!m_socketFolder.isEmpty(), qPrintable(error));
    }

    void init()
    {
        m_database = std::make_unique<PostgresTestDatabase>(m_socketFolder);
        QString error;
        QVERIFY2(m_database->create(&error), qPrintable(error));
    }
    void cleanup() { m_database.reset(); }
    void cleanupTestCase() { m_cluster.reset(); }

    void urlParsing()
    {
        const Result<DatabaseUrl> url
            = DatabaseUrl::parse(u"postgresql://ann:s%40cret@db.example:6543/berth?sslmode=require"_s);
        BERTH_VERIFY_OK(url);
        QCOMPARE(url.value().host, u"db.example"_s);
        QCOMPARE(url.value().port, 6543);
        QCOMPARE(url.value().user, u"ann"_s);
        QCOMPARE(url.value().password, u"s@cret"_s);
        QCOMPARE(url.value().name, u"berth"_s);
        QCOMPARE(url.value().connectOptions, u"sslmode='require';connect_timeout='2'"_s);
        QVERIFY(!url.value().redacted().contains(u"cret"_s));

        const Result<DatabaseUrl> socket = DatabaseUrl::parse(u"postgres://localhost/b?host=%2Frun%2Fpostgresql"_s);
        BERTH_VERIFY_OK(socket);
        QCOMPARE(socket.value().host, u"/run/postgresql"_s);

        // Refusals never repeat the password.
        for (const QString &bad : {u"postgresql://ann:hunter2@host"_s, u"postgresql://ann:hunter2@host/a/b"_s,
                 u"postgresql://ann:hunter2@host/db?service=x"_s, u"postgresql://ann:hunter2@host/db?options=a%3Bb"_s,
                 u"mysql://ann:hunter2@host/db"_s}) {
            const Result<DatabaseUrl> refused = DatabaseUrl::parse(bad);
            QVERIFY2(!refused.ok(), qPrintable(bad));
            QVERIFY2(!refused.error().message.contains(u"hunter2"_s), qPrintable(refused.error().message));
        }
    }

    void migratesToTheLatestSchema()
    {
        Database db(QString(), m_database->url());
        BERTH_VERIFY_OK(db.open());
        QCOMPARE(db.dialect(), SqlDialect::PostgreSql);
        QCOMPARE(db.schemaVersion(), Database::latestSchemaVersion());
        QCOMPARE(scalar(db, u"SELECT COUNT(*) FROM schema_version"_s).toInt(), builtInMigrations().size());
        QCOMPARE(scalar(db, u"SELECT MAX(version) FROM schema_version"_s).toInt(), Database::latestSchemaVersion());
        db.close();

        // Opening again applies nothing.
        Database again(QString(), m_database->url());
        BERTH_VERIFY_OK(again.open());
        QCOMPARE(scalar(again, u"SELECT COUNT(*) FROM schema_version"_s).toInt(), builtInMigrations().size());
    }

    void emailsAreCaseInsensitiveAndIdsIncrease()
    {
        Database db(QString(), m_database->url());
        BERTH_VERIFY_OK(db.open());
        QCOMPARE(execError(db,
                     u"INSERT INTO users (id, email, plan, is_owner, created_at) VALUES "
                     "('u1', 'Ann@Example.org', 'free', 0, '2026-01-01T00:00:00.000Z')"_s),
            QString());
        QVERIFY(!execError(db,
            u"INSERT INTO users (id, email, plan, is_owner, created_at) VALUES "
            "('u2', 'ann@example.ORG', 'free', 0, '2026-01-01T00:00:00.000Z')"_s)
                     .isEmpty());
        QCOMPARE(scalar(db, u"SELECT id FROM users WHERE email = 'ANN@EXAMPLE.ORG'"_s).toString(), u"u1"_s);
        QVERIFY(!execError(
            db, u"INSERT INTO signin_allowlist (email, added_at) VALUES ('b@x.org', 't'), ('B@X.org', 't')"_s)
                     .isEmpty());

        // Row ids from the identity columns, in order of arrival (also in signin_requests, where SQLite's rowid
        // breaks ties).
        QCOMPARE(
            execError(db,
                u"INSERT INTO deployments (id, user_id, slug, storage_type, is_spa, title, favicon, og_image, "
                "protected, created_at, updated_at) VALUES ('d1', 'u1', 's', 'files', 0, '', '', '', 0, 't', 't')"_s),
            QString());
        QCOMPARE(
            execError(db,
                u"INSERT INTO versions (deployment_id, created_at, number) VALUES ('d1', 't', 1), ('d1', 't', 2)"_s),
            QString());
        QCOMPARE(scalar(db, u"SELECT MAX(id) - MIN(id) FROM versions"_s).toInt(), 1);
        QCOMPARE(execError(db,
                     u"INSERT INTO signin_requests (email, allowed, code_hash, code_salt, tries_left, delivery, "
                     "requested_at, expires_at) VALUES ('c@x.org', 1, 'h1', 's', 3, 'mail', 't', 't'), "
                     "('C@x.org', 1, 'h2', 's', 3, 'mail', 't', 't')"_s),
            QString());
        QCOMPARE(scalar(db, u"SELECT code_hash FROM signin_requests WHERE email = 'c@X.ORG' ORDER BY rowid DESC"_s)
                     .toString(),
            u"h2"_s);
    }

    // Nodes that start together on an empty database: every one opens, the schema is applied once.
    void concurrentOpensMigrateOnce()
    {
        constexpr int kNodes = 4;
        const QString url = m_database->url();
        std::vector<std::unique_ptr<QThread>> threads;
        std::vector<QString> errors(kNodes);
        for (int i = 0; i < kNodes; ++i) {
            threads.emplace_back(QThread::create([url, &errors, i] {
                Database db(QString(), url);
                const Result<void> opened = db.open();
                errors[i] = opened ? QString() : opened.error().message;
                if (opened && db.schemaVersion() != Database::latestSchemaVersion())
                    errors[i] = u"schema version %1"_s.arg(db.schemaVersion());
            }));
            threads.back()->start();
        }
        for (auto &thread : threads)
            QVERIFY(thread->wait(60000));
        for (const QString &error : errors)
            QVERIFY2(error.isEmpty(), qPrintable(error));
        Database db(QString(), url);
        BERTH_VERIFY_OK(db.open());
        QCOMPARE(scalar(db, u"SELECT COUNT(*) FROM schema_version"_s).toInt(), builtInMigrations().size());
    }

    void newerSchemaIsRefused()
    {
        {
            Database db(QString(), m_database->url());
            BERTH_VERIFY_OK(db.open());
            QCOMPARE(execError(db, u"INSERT INTO schema_version (version, applied_at) VALUES (999, 't')"_s), QString());
        }
        Database db(QString(), m_database->url());
        const Result<void> opened = db.open();
        QVERIFY(!opened.ok());
        QVERIFY2(opened.error().message.contains(u"newer than this Berth"_s), qPrintable(opened.error().message));
        QVERIFY(!db.isOpen());
    }

    void connectionErrorsHideThePassword()
    {
        const QTemporaryDir nowhere;
        Database db(QString(),
            u"postgresql://berth:hunter2@localhost/none?host=%1"_s.arg(
                QString::fromLatin1(QUrl::toPercentEncoding(nowhere.path()))));
        const Result<void> opened = db.open();
        QVERIFY(!opened.ok());
        QVERIFY2(opened.error().message.contains(u"cannot connect"_s), qPrintable(opened.error().message));
        QVERIFY2(!opened.error().message.contains(u"hunter2"_s), qPrintable(opened.error().message));
    }

    // The server ends the session (as a restart does): the next statement fails, the one after finds the
    // connection open again.
    void reconnectsAfterTheConnectionDrops()
    {
        Database db(QString(), m_database->url());
        BERTH_VERIFY_OK(db.open());
        const int pid = scalar(db, u"SELECT pg_backend_pid()"_s).toInt();
        QVERIFY(pid > 0);
        QString error;
        QVERIFY2(PostgresTestDatabase::run(m_socketFolder, QLatin1String(PostgresCluster::kTestDatabase),
                     u"SELECT pg_terminate_backend(%1)"_s.arg(pid), &error),
            qPrintable(error));
        QVERIFY(!scalar(db, u"SELECT 1"_s).isValid()); // the drop shows
        QVERIFY(!db.isOpen());
        QCOMPARE(scalar(db, u"SELECT COUNT(*) FROM schema_version"_s).toInt(), builtInMigrations().size());
        QVERIFY(scalar(db, u"SELECT pg_backend_pid()"_s).toInt() != pid);
        db.close();
        QVERIFY(!scalar(db, u"SELECT 1"_s).isValid()); // closed on purpose: stays closed
    }

    void storageFullIsRecognised()
    {
        const auto full
            = [](const QString &text) { return sql::failure(text).kind == Error::Kind::InsufficientStorage; };
        QVERIFY(full(u"database or disk is full Unable to fetch row"_s));
        QVERIFY(
            full(u"ERROR:  could not extend file \"base/16384/16385\": No space left on device(53100) QPSQL: Unable to "
                 "create query"_s));
        QVERIFY(full(u"FEHLER:  konnte Datei nicht erweitern(53100)"_s));
        QVERIFY(!full(u"ERROR:  duplicate key value violates unique constraint(23505)"_s));
    }

    // QPSQL puts the SQLSTATE in the error text: what sql::failure and the slug check rely on.
    void errorTextCarriesTheSqlState()
    {
        Database db(QString(), m_database->url());
        BERTH_VERIFY_OK(db.open());
        const QString error = execError(db, u"INSERT INTO settings (key, value) VALUES ('k', 'a'), ('k', 'b')"_s);
        QVERIFY2(error.contains(u"(23505)"_s), qPrintable(error));
    }

private:
    std::unique_ptr<PostgresCluster> m_cluster;
    QString m_socketFolder;
    std::unique_ptr<PostgresTestDatabase> m_database;
};

QTEST_GUILESS_MAIN(TestPostgresDatabase)
#include "tst_postgresdatabase.moc"
