#include "storage/ratewindowrepository.h"

#include "storage/database.h"
#include "storage/sqlhelpers.h"

#include <QSqlQuery>
#include <QVariant>

using namespace Qt::StringLiterals;

namespace berth {

RateWindowRepository::RateWindowRepository(Database &db)
    : m_db(db)
{
}

Result<qint64> RateWindowRepository::hit(const QString &key, qint64 nowMs, qint64 bucketMs, qint64 windowMs, int limit)
{
    if (m_db.dialect() != SqlDialect::PostgreSql)
        return Error {Error::Kind::Internal, u"Shared rate limits need PostgreSQL"_s};
    QSqlQuery query(m_db.connection());
    query.prepare(u"SELECT berth_rate_hit(?, ?, ?, ?, ?)"_s);
    query.addBindValue(key);
    query.addBindValue(nowMs);
    query.addBindValue(bucketMs);
    query.addBindValue(windowMs);
    query.addBindValue(limit);
    if (!query.exec() || !query.next())
        return sql::failure(query);
    return query.value(0).toLongLong();
}

Result<int> RateWindowRepository::prune(qint64 nowMs)
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"DELETE FROM rate_windows WHERE expires_at <= ?"_s);
    query.addBindValue(nowMs);
    if (const Result<void> done = sql::exec(query); !done)
        return done.error();
    return query.numRowsAffected();
}

} // namespace berth
