#include "storage/eventrepository.h"

#include "storage/database.h"
#include "storage/sqlhelpers.h"
#include "storage/transaction.h"

#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

const QString kDeliveryColumns = u"d.id, d.webhook_id, d.event_id, e.type, d.status, d.attempts, d.response_status, "
                                 "d.next_attempt_at, d.delivered_at, d.error"_s;

WebhookDelivery deliveryFrom(const QSqlQuery &query)
{
    WebhookDelivery delivery;
    delivery.id = query.value(0).toString();
    delivery.webhookId = query.value(1).toString();
    delivery.eventId = query.value(2).toString();
    delivery.type = query.value(3).toString();
    delivery.status = query.value(4).toString();
    delivery.attempts = query.value(5).toInt();
    delivery.responseStatus = query.value(6).toInt();
    delivery.nextAttemptAt = sql::time(query, 7);
    delivery.deliveredAt = sql::time(query, 8);
    delivery.error = query.value(9).toString();
    return delivery;
}

} // namespace

EventRepository::EventRepository(Database &db)
    : m_db(db)
{
}

Result<void> EventRepository::record(const StoredEvent &event, const QList<WebhookDelivery> &deliveries)
{
    Transaction transaction(m_db.connection());
    if (auto begun = transaction.begun(); !begun)
        return begun.error();
    QSqlQuery query(m_db.connection());
    query.prepare(u"INSERT INTO events (id, type, body, created_at) VALUES (?, ?, ?, ?)"_s);
    query.addBindValue(event.id);
    query.addBindValue(event.type);
    query.addBindValue(QString::fromUtf8(event.body));
    query.addBindValue(sql::timeOrNull(event.createdAt));
    if (!query.exec())
        return sql::loggedFailure(query, "inserting an event");
    for (const WebhookDelivery &delivery : deliveries) {
        query.prepare(u"INSERT INTO webhook_deliveries (id, webhook_id, event_id, status, attempts, next_attempt_at, "
                      "error) VALUES (?, ?, ?, 'pending', 0, ?, '')"_s);
        query.addBindValue(delivery.id);
        query.addBindValue(delivery.webhookId);
        query.addBindValue(event.id);
        query.addBindValue(sql::timeOrNull(delivery.nextAttemptAt));
        if (!query.exec())
            return sql::loggedFailure(query, "inserting a delivery");
    }
    return transaction.commit();
}

Result<QList<WebhookDelivery>> EventRepository::select(
    const QString &where, const QVariantList &values, int limit) const
{
    QSqlQuery query(m_db.connection());
    query.setForwardOnly(true);
    query.prepare(u"SELECT %1 FROM webhook_deliveries d JOIN events e ON e.id = d.event_id WHERE %2 LIMIT ?"_s.arg(
        kDeliveryColumns, where));
    for (const QVariant &value : values)
        query.addBindValue(value);
    query.addBindValue(limit);
    if (!query.exec())
        return sql::loggedFailure(query, "reading deliveries");
    QList<WebhookDelivery> found;
    while (query.next())
        found.append(deliveryFrom(query));
    if (auto drained = sql::drained(query); !drained)
        return drained.error();
    return found;
}

Result<QList<WebhookDelivery>> EventRepository::deliveries(const QString &webhookId, int limit) const
{
    return select(u"d.webhook_id = ? ORDER BY d.seq DESC"_s, {webhookId}, limit);
}

Result<std::optional<WebhookDelivery>> EventRepository::findDelivery(
    const QString &webhookId, const QString &deliveryId) const
{
    const auto found = select(u"d.webhook_id = ? AND d.id = ?"_s, {webhookId, deliveryId}, 1);
    if (!found)
        return found.error();
    if (found.value().isEmpty())
        return std::optional<WebhookDelivery>();
    return std::optional<WebhookDelivery>(found.value().first());
}

Result<QList<WebhookDelivery>> EventRepository::due(const QDateTime &now, const QStringList &busy, int limit) const
{
    // Only the head of each webhook's queue may go: a later delivery never overtakes an earlier one being retried.
    // A head another server claimed holds its whole webhook back.
    QString where = u"d.status = 'pending' AND d.next_attempt_at <= ? AND (d.claimed_until IS NULL OR "
                    "d.claimed_until <= ?) AND d.seq = (SELECT MIN(p.seq) FROM webhook_deliveries p WHERE "
                    "p.webhook_id = d.webhook_id AND p.status = 'pending')"_s;
    QVariantList values {sql::timeOrNull(now), sql::timeOrNull(now)};
    if (!busy.isEmpty()) {
        where += u" AND d.webhook_id NOT IN (%1)"_s.arg(QStringList(busy.size(), u"?"_s).join(u", "_s));
        for (const QString &id : busy)
            values.append(id);
    }
    return select(where + u" ORDER BY d.next_attempt_at, d.seq"_s, values, limit);
}

Result<QList<WebhookDelivery>> EventRepository::dueFor(const QString &webhookId, const QDateTime &now, int limit) const
{
    return select(u"d.webhook_id = ? AND d.status = 'pending' AND d.next_attempt_at <= ? ORDER BY d.seq"_s,
        {webhookId, sql::timeOrNull(now)}, limit);
}

Result<std::optional<StoredEvent>> EventRepository::event(const QString &id) const
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"SELECT id, type, body, created_at FROM events WHERE id = ?"_s);
    query.addBindValue(id);
    if (!query.exec())
        return sql::loggedFailure(query, "reading an event");
    if (!query.next())
        return std::optional<StoredEvent>();
    return std::optional<StoredEvent>(StoredEvent {
        query.value(0).toString(), query.value(1).toString(), query.value(2).toString().toUtf8(), sql::time(query, 3)});
}

Result<void> EventRepository::update(const WebhookDelivery &delivery)
{
    const Result<int> written = writeOutcome(delivery, QString());
    if (!written)
        return written.error();
    if (written.value() == 0)
        return sql::notFound(Error::Code::Other, u"Delivery not found"_s);
    return {};
}

Result<int> EventRepository::writeOutcome(const WebhookDelivery &delivery, const QString &claimant)
{
    QSqlQuery query(m_db.connection());
    const QString claimed = u", claimed_by = NULL, claimed_until = NULL WHERE id = ? AND claimed_by = ?"_s;
    query.prepare(u"UPDATE webhook_deliveries SET status = ?, attempts = ?, response_status = ?, next_attempt_at = ?, "
                  "delivered_at = ?, error = ?"_s
        + (claimant.isEmpty() ? u" WHERE id = ?"_s : claimed));
    query.addBindValue(delivery.status);
    query.addBindValue(delivery.attempts);
    query.addBindValue(delivery.responseStatus > 0 ? QVariant(delivery.responseStatus) : QVariant());
    query.addBindValue(sql::timeOrNull(delivery.nextAttemptAt));
    query.addBindValue(sql::timeOrNull(delivery.deliveredAt));
    query.addBindValue(sql::text(delivery.error));
    query.addBindValue(delivery.id);
    if (!claimant.isEmpty())
        query.addBindValue(claimant);
    if (!query.exec())
        return sql::loggedFailure(query, "storing a delivery's outcome");
    return query.numRowsAffected();
}

} // namespace berth
