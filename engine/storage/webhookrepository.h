#pragma once

#include "core/error.h"
#include "storage/webhook.h"

#include <QList>
#include <optional>

namespace berth {

class Database;

// Users' webhooks. Used only on the thread that opened the Database.
class WebhookRepository final
{
    Q_DISABLE_COPY_MOVE(WebhookRepository)
public:
    explicit WebhookRepository(Database &db);

    // Inserts unless the user already has maxPerUser webhooks (Forbidden), counted in the same transaction.
    Result<void> insert(const Webhook &webhook, int maxPerUser);
    Result<QList<Webhook>> listForUser(const QString &userId) const; // oldest first
    Result<std::optional<Webhook>> find(const QString &id) const;
    Result<void> remove(const QString &userId, const QString &id); // NotFound when the user has no such webhook
    // A delivery attempt's outcome for the webhook's health: a success ends its run of failures; a failure starts one
    // or, when the run began at least disableAfterMs before now, disables the webhook and fails its pending
    // deliveries. True when this call disabled it.
    Result<bool> recordAttempt(const QString &id, bool delivered, const QDateTime &now, qint64 disableAfterMs);
    // Enabled again, its run of failures forgotten; NotFound when the user has no such webhook.
    Result<void> enable(const QString &userId, const QString &id);
    // A mailto: webhook's turn to mail at `now`: true, and now recorded as its last mail, unless one went less than
    // intervalMs before (from this server or another).
    Result<bool> takeMailTurn(const QString &id, const QDateTime &now, qint64 intervalMs);

private:
    Database &m_db;
};

} // namespace berth
