// EventRepository's leases on pending deliveries: which server of a cluster sends which delivery.
#include "storage/database.h"
#include "storage/eventrepository.h"
#include "storage/sqlhelpers.h"
#include "storage/transaction.h"

#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace berth {

Result<bool> EventRepository::claim(
    const QString &deliveryId, const QString &claimant, const QDateTime &now, const QDateTime &until)
{
    // One conditional write decides: on PostgreSQL a second server's UPDATE of the same row waits for the first and
    // then finds the lease taken; SQLite has one writer. The head condition keeps a webhook's deliveries in order even
    // when another server settled the head since this one read it.
    QSqlQuery query(m_db.connection());
    query.prepare(
        u"UPDATE webhook_deliveries SET claimed_by = ?, claimed_until = ? WHERE id = ? AND status = 'pending' "
        "AND next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?) AND seq = (SELECT "
        "MIN(p.seq) FROM webhook_deliveries p WHERE p.webhook_id = webhook_deliveries.webhook_id AND "
        "p.status = 'pending')"_s);
    query.addBindValue(claimant);
    query.addBindValue(sql::timeOrNull(until));
    query.addBindValue(deliveryId);
    query.addBindValue(sql::timeOrNull(now));
    query.addBindValue(sql::timeOrNull(now));
    if (!query.exec())
        return sql::loggedFailure(query, "claiming a delivery");
    return query.numRowsAffected() > 0;
}

Result<bool> EventRepository::renew(const QString &deliveryId, const QString &claimant, const QDateTime &until)
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"UPDATE webhook_deliveries SET claimed_until = ? WHERE id = ? AND claimed_by = ?"_s);
    query.addBindValue(sql::timeOrNull(until));
    query.addBindValue(deliveryId);
    query.addBindValue(claimant);
    if (!query.exec())
        return sql::loggedFailure(query, "renewing a delivery's claim");
    return query.numRowsAffected() > 0;
}

Result<void> EventRepository::release(const QStringList &deliveryIds, const QString &claimant)
{
    QSqlQuery query(m_db.connection());
    for (const QString &id : deliveryIds) {
        query.prepare(u"UPDATE webhook_deliveries SET claimed_by = NULL, claimed_until = NULL WHERE id = ? AND "
                      "claimed_by = ?"_s);
        query.addBindValue(id);
        query.addBindValue(claimant);
        if (!query.exec())
            return sql::loggedFailure(query, "releasing a delivery's claim");
    }
    return {};
}

Result<int> EventRepository::releaseEarlierRuns(const QString &node, const QString &claimant)
{
    // substr rather than LIKE: a node's name is never read as a pattern.
    const QString prefix = node + u'/';
    QSqlQuery query(m_db.connection());
    query.prepare(u"UPDATE webhook_deliveries SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by IS NOT NULL "
                  "AND substr(claimed_by, 1, ?) = ? AND claimed_by <> ?"_s);
    query.addBindValue(prefix.size());
    query.addBindValue(prefix);
    query.addBindValue(claimant);
    if (!query.exec())
        return sql::loggedFailure(query, "releasing the claims of an earlier run");
    return query.numRowsAffected();
}

Result<bool> EventRepository::settle(const QList<WebhookDelivery> &deliveries, const QString &claimant)
{
    if (deliveries.isEmpty())
        return false;
    // One transaction: the head's lease ends only together with the rest of its mail, so that no server claims the
    // next one as the new head before its outcome is stored.
    Transaction transaction(m_db.connection());
    if (auto begun = transaction.begun(); !begun)
        return begun.error();
    const Result<int> head = writeOutcome(deliveries.first(), claimant);
    if (!head)
        return head.error();
    if (head.value() == 0)
        return false; // rolled back with the transaction: nothing was written
    for (qsizetype i = 1; i < deliveries.size(); ++i) {
        if (const Result<int> written = writeOutcome(deliveries.at(i), QString()); !written)
            return written.error();
    }
    if (auto committed = transaction.commit(); !committed)
        return committed.error();
    return true;
}

} // namespace berth
