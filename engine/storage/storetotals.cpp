#include "storage/storetotals.h"

#include "storage/database.h"
#include "storage/sqlhelpers.h"

#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace berth {

StoreTotals::StoreTotals(Database &db)
    : m_db(db)
{
}

Result<StoreTotals::Counts> StoreTotals::read() const
{
    QSqlQuery query(m_db.connection());
    query.setForwardOnly(true);
    // A content is stored once whatever number of files name it: counted once, at the size its files give.
    if (!query.exec(
            u"SELECT (SELECT COUNT(*) FROM deployments), (SELECT COUNT(*) FROM submissions), "
            "COUNT(*), COALESCE(SUM(size), 0) FROM (SELECT blob, MAX(size) AS size FROM files GROUP BY blob) b"_s)
        || !query.next())
        return sql::failure(query);
    Counts counts;
    counts.deployments = query.value(0).toLongLong();
    counts.submissions = query.value(1).toLongLong();
    counts.blobs = query.value(2).toLongLong();
    counts.blobBytes = query.value(3).toLongLong();
    return counts;
}

} // namespace berth
