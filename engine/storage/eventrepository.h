#pragma once

#include "core/error.h"
#include "storage/webhook.h"

#include <QList>
#include <optional>

namespace berth {

class Database;

// Events and their deliveries to webhooks. A delivery is pending until its webhook answered 2xx (delivered) or its
// attempts ran out (failed); each webhook gets its deliveries in the order they were recorded. Used only on the
// thread that opened the Database.
class EventRepository final
{
    Q_DISABLE_COPY_MOVE(EventRepository)
public:
    explicit EventRepository(Database &db);

    // The event and its pending deliveries, in one transaction: all of them or none.
    Result<void> record(const StoredEvent &event, const QList<WebhookDelivery> &deliveries);
    // A webhook's last `limit` deliveries, newest first.
    Result<QList<WebhookDelivery>> deliveries(const QString &webhookId, int limit) const;
    Result<std::optional<WebhookDelivery>> findDelivery(const QString &webhookId, const QString &deliveryId) const;
    // For each webhook, its oldest pending delivery when that one is due at `now`: at most `limit`, the most overdue
    // first. Deliveries of the webhooks in `busy` are left out (one of theirs is in flight).
    Result<QList<WebhookDelivery>> due(const QDateTime &now, const QStringList &busy, int limit) const;
    // A webhook's pending deliveries due at `now`, oldest first, at most `limit` (what one mail carries).
    Result<QList<WebhookDelivery>> dueFor(const QString &webhookId, const QDateTime &now, int limit) const;
    Result<std::optional<StoredEvent>> event(const QString &id) const;
    // Stores an attempt's outcome: status, attempts, response status, next attempt, delivery time and error.
    Result<void> update(const WebhookDelivery &delivery);

private:
    Result<QList<WebhookDelivery>> select(const QString &where, const QVariantList &values, int limit) const;

    Database &m_db;
};

} // namespace berth
