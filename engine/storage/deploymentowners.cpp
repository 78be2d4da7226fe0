// DeploymentRepository: who owns deployments, counted under the owners' row locks (the plan's limit on the number of
// deployments holds across servers sharing one database).
#include "storage/database.h"
#include "storage/deploymentrepository.h"
#include "storage/sqlhelpers.h"

#include <QSqlQuery>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace berth {

Result<void> DeploymentRepository::lockOwners(QStringList userIds)
{
    if (m_db.dialect() != SqlDialect::PostgreSql)
        return {};
    // In one order, whoever asks: two transactions locking the same users cannot each hold one and wait for the other.
    std::sort(userIds.begin(), userIds.end());
    QSqlQuery query(m_db.connection());
    query.prepare(u"SELECT id FROM users WHERE id = ? FOR UPDATE"_s);
    for (const QString &userId : std::as_const(userIds)) {
        query.addBindValue(userId);
        if (!query.exec())
            return writeFailure(query);
    }
    return {};
}

Result<int> DeploymentRepository::countOwned(const QString &userId)
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"SELECT COUNT(*) FROM deployments WHERE user_id = ?"_s);
    query.addBindValue(userId);
    if (!query.exec() || !query.next())
        return writeFailure(query);
    return query.value(0).toInt();
}

Result<QStringList> DeploymentRepository::reassignAll(
    const QString &fromUserId, const QString &toUserId, int receiverLimit)
{
    if (const Result<void> locked = lockOwners({fromUserId, toUserId}); !locked)
        return locked.error();
    QStringList moved;
    QSqlQuery query(m_db.connection());
    query.setForwardOnly(true);
    query.prepare(u"SELECT id FROM deployments WHERE user_id = ? ORDER BY updated_at DESC, created_at DESC, id"_s);
    query.addBindValue(fromUserId);
    if (!query.exec())
        return writeFailure(query);
    while (query.next())
        moved.append(query.value(0).toString());
    if (const Result<void> read = sql::drained(query); !read)
        return read.error();
    if (moved.isEmpty())
        return moved;
    const Result<int> owned = countOwned(toUserId);
    if (!owned)
        return owned.error();
    if (owned.value() + moved.size() > receiverLimit)
        return limitReached();
    query.prepare(u"UPDATE deployments SET user_id = ?, expires_at = NULL WHERE user_id = ?"_s);
    query.addBindValue(toUserId);
    query.addBindValue(fromUserId);
    if (!query.exec())
        return writeFailure(query);
    return moved;
}

} // namespace berth
