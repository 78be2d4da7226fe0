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

private:
    Database &m_db;
};

} // namespace berth
