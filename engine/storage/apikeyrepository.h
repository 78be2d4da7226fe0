#pragma once

#include "core/error.h"
#include "storage/user.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>
#include <optional>

namespace berth {

class Database;

// API keys, stored by the hash of their secret. Used only on the thread that opened the Database.
class ApiKeyRepository final
{
    Q_DISABLE_COPY_MOVE(ApiKeyRepository)
public:
    explicit ApiKeyRepository(Database &db);

    Result<void> insert(const ApiKey &key);
    std::optional<ApiKey> findByHash(const QByteArray &hash) const;
    // The same, telling a failed read (an Error: the database is unreachable, say) from no such key (nullopt).
    Result<std::optional<ApiKey>> lookupByHash(const QByteArray &hash) const;
    // Whether a key of this hash belonged to an agent removed for holding nothing (its row is gone, its hash kept).
    Result<bool> isRemovedAgentKey(const QByteArray &hash) const;
    std::optional<ApiKey> find(const QString &id) const;
    QList<ApiKey> listForUser(const QString &userId) const; // newest first
    QList<ApiKey> listAll() const; // newest first
    Result<void> touch(const QString &id, const QDateTime &when); // records last_used_at
    Result<void> revoke(const QString &id,
        const QDateTime &when); // keeps the first revocation time; NotFound + KeyNotFound if no such key
    Result<void> revokeAllForUser(
        const QString &userId, const QDateTime &when); // the user's live keys; success if none

private:
    QList<ApiKey> select(const QString &where, const QVariant &value) const;
    Result<QList<ApiKey>> trySelect(const QString &where, const QVariant &value) const;

    Database &m_db;
};

} // namespace berth
