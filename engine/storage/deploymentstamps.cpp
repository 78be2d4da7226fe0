#include "storage/deploymentstamps.h"

#include "storage/database.h"
#include "storage/sqlhelpers.h"

#include <QCryptographicHash>
#include <QSqlQuery>
#include <QSqlRecord>

using namespace Qt::StringLiterals;

namespace berth {

DeploymentStamps::DeploymentStamps(Database &db)
    : m_db(db)
{
}

Result<QHash<QString, QByteArray>> DeploymentStamps::all() const
{
    QSqlQuery query(m_db.connection());
    query.setForwardOnly(true);
    // PostgreSQL renders the whole row as text and hashes it in place; SQLite (one server, never resynced) gets the
    // columns and hashes them here.
    const bool server = m_db.dialect() == SqlDialect::PostgreSql;
    query.prepare(server ? u"SELECT id, md5(deployments::text) FROM deployments"_s : u"SELECT * FROM deployments"_s);
    if (const auto done = sql::exec(query); !done)
        return done.error();
    QHash<QString, QByteArray> stamps;
    while (query.next()) {
        if (server) {
            stamps.insert(query.value(0).toString(), query.value(1).toByteArray());
            continue;
        }
        QCryptographicHash hash(QCryptographicHash::Md5);
        const QSqlRecord record = query.record();
        for (int i = 0; i < record.count(); ++i)
            hash.addData(record.value(i).toString().toUtf8().append('\0'));
        stamps.insert(record.value(u"id"_s).toString(), hash.result().toHex());
    }
    if (const auto done = sql::drained(query); !done)
        return done.error();
    return stamps;
}

} // namespace berth
