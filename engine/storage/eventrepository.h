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
    // For each webhook, its oldest pending delivery when that one is due at `now` and under no lease: at most `limit`,
    // the most overdue first. Deliveries of the webhooks in `busy` are left out (one of theirs is in flight).
    Result<QList<WebhookDelivery>> due(const QDateTime &now, const QStringList &busy, int limit) const;
    // A webhook's pending deliveries due at `now`, oldest first, at most `limit` (what one mail carries).
    Result<QList<WebhookDelivery>> dueFor(const QString &webhookId, const QDateTime &now, int limit) const;
    Result<std::optional<StoredEvent>> event(const QString &id) const;
    // Stores an attempt's outcome: status, attempts, response status, next attempt, delivery time and error.
    Result<void> update(const WebhookDelivery &delivery);

    // Leases, so that of several servers on one database one sends a delivery, and a webhook's deliveries go one after
    // the other: a server sends only a delivery it claimed, and stores its outcome only while it holds the claim.
    // `claimant` names one run of one server, as "<node>/<run>".

    // Claims the delivery until `until` when it is still pending, due at `now`, its webhook's oldest pending delivery,
    // and under no lease that lasts past `now`: true when this call took it (of two servers trying, one does).
    Result<bool> claim(
        const QString &deliveryId, const QString &claimant, const QDateTime &now, const QDateTime &until);
    // Extends the claimant's lease: false when it holds it no more (taken over after it ran out, or removed).
    Result<bool> renew(const QString &deliveryId, const QString &claimant, const QDateTime &until);
    // Gives the claimant's leases on these deliveries up: others may claim them at once.
    Result<void> release(const QStringList &deliveryIds, const QString &claimant);
    // Gives up what earlier runs of `node` still claim (a process that died): a node's data folder has one process at
    // a time, so no other run of it is alive. How many were given up.
    Result<int> releaseEarlierRuns(const QString &node, const QString &claimant);
    // Stores an attempt's outcome for the claimed delivery, the first of `deliveries`, and ends its lease; the others
    // (what the same mail carried) get theirs in the same transaction. False, and nothing stored, when the claimant's
    // lease was taken over or the delivery is gone: the outcome is the new holder's to store.
    Result<bool> settle(const QList<WebhookDelivery> &deliveries, const QString &claimant);

private:
    Result<QList<WebhookDelivery>> select(const QString &where, const QVariantList &values, int limit) const;
    // The outcome's columns written: how many rows took it. With a claimant, only while it holds the lease, which ends.
    Result<int> writeOutcome(const WebhookDelivery &delivery, const QString &claimant);

    Database &m_db;
};

} // namespace berth
