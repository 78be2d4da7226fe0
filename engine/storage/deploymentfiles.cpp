// DeploymentRepository: the file lists of versions, and the blobs they reference (what the garbage collector keeps).
#include "storage/database.h"
#include "storage/deploymentrepository.h"
#include "storage/sqlhelpers.h"

#include <QSqlQuery>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace berth {

QList<StoredFile> DeploymentRepository::files(qint64 versionId) const
{
    QList<StoredFile> result;
    QSqlQuery query(m_db.connection());
    query.setForwardOnly(true);
    query.prepare(u"SELECT path, blob, size, content_type FROM files WHERE version_id = ? ORDER BY path"_s);
    query.addBindValue(versionId);
    if (const auto done = sql::exec(query); !done) {
        sql::warn("listing files", done.error());
        return result;
    }
    while (query.next())
        result.append(
            {query.value(0).toString(), sql::bytes(query, 1), query.value(2).toLongLong(), sql::bytes(query, 3)});
    return result;
}

Result<QHash<qint64, FileTotals>> DeploymentRepository::servedFileTotals() const
{
    QHash<qint64, FileTotals> totals;
    QSqlQuery query(m_db.connection());
    query.setForwardOnly(true);
    query.prepare(u"SELECT f.version_id, COUNT(*), COALESCE(SUM(f.size), 0) FROM files f "
                  "JOIN deployments d ON d.version_id = f.version_id GROUP BY f.version_id"_s);
    if (auto done = sql::exec(query); !done)
        return done.error();
    while (query.next())
        totals.insert(query.value(0).toLongLong(), {query.value(1).toInt(), query.value(2).toLongLong()});
    if (auto done = sql::drained(query); !done)
        return done.error();
    return totals;
}

Result<QSet<QByteArray>> DeploymentRepository::referencedBlobs() const
{
    QSet<QByteArray> blobs;
    QSqlQuery query(m_db.connection());
    query.setForwardOnly(true);
    query.prepare(u"SELECT DISTINCT blob FROM files"_s);
    if (auto done = sql::exec(query); !done)
        return done.error();
    while (query.next())
        blobs.insert(sql::bytes(query, 0));
    if (auto done = sql::drained(query); !done)
        return done.error();
    return blobs;
}

Result<QSet<QByteArray>> DeploymentRepository::referencedAmong(const QList<QByteArray> &blobs) const
{
    constexpr qsizetype kBatch = 200; // well under SQLite's limit on bound parameters
    QSet<QByteArray> referenced;
    QSqlQuery query(m_db.connection());
    query.setForwardOnly(true);
    for (qsizetype start = 0; start < blobs.size(); start += kBatch) {
        const qsizetype count = qMin(kBatch, blobs.size() - start);
        QStringList marks(count, u"?"_s);
        query.prepare(u"SELECT DISTINCT blob FROM files WHERE blob IN (%1)"_s.arg(marks.join(u',')));
        for (qsizetype i = 0; i < count; ++i)
            query.addBindValue(sql::text(blobs.at(start + i)));
        if (auto done = sql::exec(query); !done)
            return done.error();
        while (query.next())
            referenced.insert(sql::bytes(query, 0));
        if (auto done = sql::drained(query); !done)
            return done.error();
    }
    return referenced;
}

} // namespace berth
