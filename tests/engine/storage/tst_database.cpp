#include "common/resultassert.h"
#include "storage/database.h"

#include <QFile>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;

namespace {

const Migration NotesV1 {1, {u"CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)"_s}};
const Migration NotesV2 {2, {u"ALTER TABLE notes ADD COLUMN tag TEXT NOT NULL DEFAULT 'none'"_s}};

QVariant scalar(const Database &db, const QString &statement)
{
    QSqlQuery query(db.connection());
    if (!query.exec(statement) || !query.next())
        return {};
    return query.value(0);
}

QStringList columnsOf(const Database &db, const QString &table)
{
    QStringList columns;
    QSqlQuery query(db.connection());
    query.prepare(u"SELECT name FROM pragma_table_info(?)"_s);
    query.addBindValue(table);
    if (query.exec()) {
        while (query.next())
            columns.append(query.value(0).toString());
    }
    return columns;
}

bool exec(const Database &db, const QString &statement, const QVariantList &values = {})
{
    QSqlQuery query(db.connection());
    query.prepare(statement);
    for (const QVariant &value : values)
        query.addBindValue(value);
    return query.exec();
}

QByteArray contentsOf(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestDatabase final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init()
    {
        m_dir.reset(new QTemporaryDir);
        QVERIFY(m_dir->isValid());
    }

    void opensInWalModeWithForeignKeys()
    {
        Database db(m_dir->filePath(u"nested/folder/berth.db"_s));
        BERTH_VERIFY_OK(db.open());
        QVERIFY(QFile::exists(m_dir->filePath(u"nested/folder/berth.db"_s)));
        QCOMPARE(scalar(db, u"PRAGMA journal_mode"_s).toString(), u"wal"_s);
        QCOMPARE(scalar(db, u"PRAGMA foreign_keys"_s).toInt(), 1);
        QCOMPARE(scalar(db, u"PRAGMA synchronous"_s).toInt(), 2); // FULL
        QCOMPARE(scalar(db, u"PRAGMA busy_timeout"_s).toInt(), 5000);
    }

    void freshFileMigratesToLatest()
    {
        const QString path = m_dir->filePath(u"berth.db"_s);
        {
            Database db(path);
            QVERIFY(db.open());
            QVERIFY(Database::latestSchemaVersion() >= 1);
            QCOMPARE(db.schemaVersion(), Database::latestSchemaVersion());
            QCOMPARE(scalar(db, u"SELECT MAX(version) FROM schema_version"_s).toInt(), Database::latestSchemaVersion());
            for (const QString &table :
                {u"users"_s, u"api_keys"_s, u"deployments"_s, u"versions"_s, u"files"_s, u"settings"_s})
                QVERIFY2(!columnsOf(db, table).isEmpty(), qPrintable(table));
            QVERIFY(exec(db, u"INSERT INTO settings (key, value) VALUES (?, ?)"_s, {u"k"_s, u"v"_s}));
        }
        // Reopening an up-to-date file changes nothing.
        Database again(path);
        QVERIFY(again.open());
        QCOMPARE(again.schemaVersion(), Database::latestSchemaVersion());
        QCOMPARE(scalar(again, u"SELECT COUNT(*) FROM schema_version"_s).toInt(), Database::latestSchemaVersion());
        QCOMPARE(scalar(again, u"SELECT value FROM settings"_s).toString(), u"v"_s);
    }

    void upgradesAnOlderDatabase()
    {
        const QString path = m_dir->filePath(u"notes.db"_s);
        {
            Database db(path, {NotesV1});
            QVERIFY(db.open());
            QCOMPARE(db.schemaVersion(), 1);
            QVERIFY(exec(db, u"INSERT INTO notes (body) VALUES (?)"_s, {u"kept"_s}));
        }
        Database db(path, {NotesV1, NotesV2});
        BERTH_VERIFY_OK(db.open());
        QCOMPARE(db.schemaVersion(), 2);
        QCOMPARE(scalar(db, u"SELECT body || '/' || tag FROM notes"_s).toString(), u"kept/none"_s);
    }

    void failingMigrationLeavesTheOldVersion()
    {
        const QString path = m_dir->filePath(u"notes.db"_s);
        {
            Database db(path, {NotesV1});
            QVERIFY(db.open());
            QVERIFY(exec(db, u"INSERT INTO notes (body) VALUES (?)"_s, {u"kept"_s}));
        }
        {
            // The first statement succeeds, the second fails: neither may remain.
            const Migration broken {
                2, {u"ALTER TABLE notes ADD COLUMN tag TEXT"_s, u"INSERT INTO missing VALUES (1)"_s}};
            Database db(path, {NotesV1, broken});
            const Result<void> opened = db.open();
            QVERIFY(!opened);
            QVERIFY2(opened.error().message.contains(u"migration 2"_s), qPrintable(opened.error().message));
            QVERIFY(!db.connection().isOpen());
        }
        Database db(path, {NotesV1});
        QVERIFY(db.open());
        QCOMPARE(db.schemaVersion(), 1);
        QCOMPARE(scalar(db, u"SELECT MAX(version) FROM schema_version"_s).toInt(), 1);
        QCOMPARE(columnsOf(db, u"notes"_s), (QStringList {u"id"_s, u"body"_s}));
        QCOMPARE(scalar(db, u"SELECT body FROM notes"_s).toString(), u"kept"_s);
    }

    void newerDatabaseIsRefusedUntouched()
    {
        // Written by a "later Berth" in the default rollback-journal mode, so that switching to WAL would show.
        const QString path = m_dir->filePath(u"future.db"_s);
        {
            // Newer than the built-in migrations too, whatever their number.
            Database writer(
                path, {NotesV1, NotesV2, {Database::latestSchemaVersion() + 1, {u"CREATE TABLE future (x)"_s}}});
            QVERIFY(writer.open());
            QVERIFY(exec(writer, u"PRAGMA journal_mode = DELETE"_s));
        }
        const QByteArray before = contentsOf(path);
        QVERIFY(!before.isEmpty());

        Database db(path, {NotesV1, NotesV2});
        const Result<void> opened = db.open();
        QVERIFY(!opened);
        QVERIFY2(opened.error().message.contains(u"newer"_s), qPrintable(opened.error().message));
        QVERIFY(!db.connection().isOpen());
        QCOMPARE(contentsOf(path), before);
        QVERIFY(!QFile::exists(path + u"-wal"_s));

        Database builtIn(path);
        QVERIFY(!builtIn.open());
        QCOMPARE(contentsOf(path), before);
    }

    void refusesMisorderedMigrations()
    {
        Database db(m_dir->filePath(u"bad.db"_s), {NotesV2, NotesV1});
        const Result<void> opened = db.open();
        QVERIFY(!opened);
        QVERIFY(!opened.error().message.isEmpty());
    }

    void transactionRollsBackUnlessCommitted()
    {
        Database db(m_dir->filePath(u"berth.db"_s));
        QVERIFY(db.open());
        {
            Transaction transaction(db.connection());
            QVERIFY(transaction.isActive());
            QVERIFY(exec(db, u"INSERT INTO settings (key, value) VALUES (?, ?)"_s, {u"dropped"_s, u"1"_s}));
        }
        QCOMPARE(scalar(db, u"SELECT COUNT(*) FROM settings"_s).toInt(), 0);
        {
            Transaction transaction(db.connection());
            QVERIFY(exec(db, u"INSERT INTO settings (key, value) VALUES (?, ?)"_s, {u"kept"_s, u"1"_s}));
            QVERIFY(transaction.commit());
            QVERIFY(!transaction.isActive());
            QVERIFY(!transaction.commit());
        }
        QCOMPARE(scalar(db, u"SELECT key FROM settings"_s).toString(), u"kept"_s);
    }

    void transactionOnAClosedDatabaseIsInactive()
    {
        Database db(m_dir->filePath(u"closed.db"_s));
        Transaction transaction(db.connection());
        QVERIFY(!transaction.isActive());
        QVERIFY(!transaction.commit());
    }

    void instancesHaveTheirOwnConnections()
    {
        Database first(m_dir->filePath(u"a.db"_s));
        Database second(m_dir->filePath(u"a.db"_s));
        QVERIFY(first.open());
        QVERIFY(second.open());
        QVERIFY(first.connection().connectionName() != second.connection().connectionName());
        QVERIFY(exec(first, u"INSERT INTO settings (key, value) VALUES (?, ?)"_s, {u"shared"_s, u"yes"_s}));
        QCOMPARE(scalar(second, u"SELECT value FROM settings"_s).toString(), u"yes"_s);
        QCOMPARE(first.filePath(), m_dir->filePath(u"a.db"_s));
    }

private:
    std::unique_ptr<QTemporaryDir> m_dir;
};

QTEST_GUILESS_MAIN(TestDatabase)
#include "tst_database.moc"
