#include "blobstatements.h"

#include "enginefixture.h"

#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace berth::test {

bool usesPostgres(const EngineFixture &fixture)
{
    return fixture.database()->dialect() == SqlDialect::PostgreSql;
}

BlobStatementCount::BlobStatementCount(const EngineFixture &fixture, const QString &kind)
    : m_fixture(fixture)
    , m_kind(kind.toUpper())
    , m_table(u"test_blob_%1_statements"_s.arg(kind.toLower()))
{
}

bool BlobStatementCount::start()
{
    if (!usesPostgres(m_fixture))
        return false;
    const auto database = m_fixture.database();
    if (!database->open())
        return false;
    QSqlQuery query(database->connection());
    const QString function = m_table + u"_counted"_s;
    // A second start() counts from zero again.
    return query.exec(u"DROP TRIGGER IF EXISTS %1 ON blob_chunks"_s.arg(m_table))
        && query.exec(u"DROP TABLE IF EXISTS %1"_s.arg(m_table))
        && query.exec(u"CREATE TABLE %1 (statements integer NOT NULL)"_s.arg(m_table))
        && query.exec(u"INSERT INTO %1 VALUES (0)"_s.arg(m_table))
        && query.exec(
            u"CREATE OR REPLACE FUNCTION %1() RETURNS trigger LANGUAGE plpgsql AS "
            "$$ BEGIN UPDATE %2 SET statements = statements + 1; RETURN NULL; END $$"_s.arg(function, m_table))
        && query.exec(u"CREATE TRIGGER %1 AFTER %2 ON blob_chunks FOR EACH STATEMENT EXECUTE FUNCTION %3()"_s.arg(
            m_table, m_kind, function));
}

int BlobStatementCount::count() const
{
    const auto database = m_fixture.database();
    if (!database->open())
        return -1;
    QSqlQuery query(database->connection());
    if (!query.exec(u"SELECT statements FROM %1"_s.arg(m_table)) || !query.next())
        return -1;
    return query.value(0).toInt();
}

} // namespace berth::test
