// DeploymentRepository's read of expired deployments, apart from the rest of the table's reads and writes.
#include "storage/database.h"
#include "storage/deploymentrepository.h"
#include "storage/sqlhelpers.h"

#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace berth {

Result<QStringList> DeploymentRepository::expiredBy(const QDateTime &now, int limit) const
{
    QStringList ids;
    QSqlQuery query(m_db.connection());
    query.setForwardOnly(true);
    // Stored times sort as text in time order; the partial index on expires_at holds only rows that expire.
    query.prepare(u"SELECT id FROM deployments WHERE expires_at IS NOT NULL AND expires_at <= ? "
                  "ORDER BY expires_at, id LIMIT ?"_s);
    query.addBindValue(sql::timeOrNull(now));
    query.addBindValue(limit);
    if (auto done = sql::exec(query); !done)
        return done.error();
    while (query.next())
        ids.append(query.value(0).toString());
    if (auto done = sql::drained(query); !done)
        return done.error();
    return ids;
}

} // namespace berth
