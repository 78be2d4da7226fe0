#include "storage/apikeyrepository.h"

#include "storage/database.h"
#include "storage/sqlhelpers.h"

#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

ApiKey keyFrom(const QSqlQuery &query)
{
    ApiKey key;
    key.id = query.value(0).toString();
    key.userId = query.value(1).toString();
    key.hash = sql::bytes(query, 2);
    key.label = sql::nullableString(query, 3);
    key.createdAt = sql::time(query, 4);
    key.lastUsedAt = sql::time(query, 5);
    key.expiresAt = sql::time(query, 6);
    key.revokedAt = sql::time(query, 7);
    return key;
}

} // namespace

ApiKeyRepository::ApiKeyRepository(Database &db)
    : m_db(db)
{
}

Result<void> ApiKeyRepository::insert(const ApiKey &key)
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"INSERT INTO api_keys (id, user_id, key_hash, label, created_at, last_used_at, expires_at, "
                  "revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"_s);
    query.addBindValue(key.id);
    query.addBindValue(key.userId);
    query.addBindValue(sql::text(key.hash));
    query.addBindValue(sql::text(key.label));
    query.addBindValue(sql::timeOrNull(key.createdAt));
    query.addBindValue(sql::timeOrNull(key.lastUsedAt));
    query.addBindValue(sql::timeOrNull(key.expiresAt));
    query.addBindValue(sql::timeOrNull(key.revokedAt));
    return sql::exec(query);
}

std::optional<ApiKey> ApiKeyRepository::findByHash(const QByteArray &hash) const
{
    if (hash.isEmpty())
        return std::nullopt;
    const QList<ApiKey> keys = select(u"WHERE key_hash = ?"_s, sql::text(hash));
    return keys.isEmpty() ? std::nullopt : std::optional<ApiKey>(keys.constFirst());
}

Result<std::optional<ApiKey>> ApiKeyRepository::lookupByHash(const QByteArray &hash) const
{
    if (hash.isEmpty())
        return std::optional<ApiKey>();
    const Result<QList<ApiKey>> keys = trySelect(u"WHERE key_hash = ?"_s, sql::text(hash));
    if (!keys)
        return keys.error();
    return keys.value().isEmpty() ? std::nullopt : std::optional<ApiKey>(keys.value().constFirst());
}

Result<bool> ApiKeyRepository::isRemovedAgentKey(const QByteArray &hash) const
{
    QSqlQuery query(m_db.connection());
    query.setForwardOnly(true);
    query.prepare(u"SELECT 1 FROM removed_agent_keys WHERE key_hash = ?"_s);
    query.addBindValue(sql::text(hash));
    if (const auto done = sql::exec(query); !done)
        return done.error();
    return query.next();
}

std::optional<ApiKey> ApiKeyRepository::find(const QString &id) const
{
    const QList<ApiKey> keys = select(u"WHERE id = ?"_s, id);
    return keys.isEmpty() ? std::nullopt : std::optional<ApiKey>(keys.constFirst());
}

QList<ApiKey> ApiKeyRepository::listForUser(const QString &userId) const
{
    return select(u"WHERE user_id = ?"_s, userId);
}

QList<ApiKey> ApiKeyRepository::listAll() const
{
    return select({}, {});
}

Result<void> ApiKeyRepository::touch(const QString &id, const QDateTime &when)
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"UPDATE api_keys SET last_used_at = ? WHERE id = ?"_s);
    query.addBindValue(sql::timeOrNull(when));
    query.addBindValue(id);
    return sql::execAffecting(query, Error::Code::KeyNotFound, u"Key not found"_s);
}

Result<void> ApiKeyRepository::revoke(const QString &id, const QDateTime &when)
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?"_s);
    query.addBindValue(sql::timeOrNull(when));
    query.addBindValue(id);
    return sql::execAffecting(query, Error::Code::KeyNotFound, u"Key not found"_s);
}

Result<void> ApiKeyRepository::revokeAllForUser(const QString &userId, const QDateTime &when)
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"UPDATE api_keys SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL"_s);
    query.addBindValue(sql::timeOrNull(when));
    query.addBindValue(userId);
    return sql::exec(query);
}

QList<ApiKey> ApiKeyRepository::select(const QString &where, const QVariant &value) const
{
    Result<QList<ApiKey>> keys = trySelect(where, value);
    if (!keys) {
        sql::warn("listing keys", keys.error());
        return {};
    }
    return std::move(keys).value();
}

Result<QList<ApiKey>> ApiKeyRepository::trySelect(const QString &where, const QVariant &value) const
{
    QList<ApiKey> keys;
    QSqlQuery query(m_db.connection());
    query.setForwardOnly(true);
    // where is one of the fixed clauses above; the value is always bound.
    query.prepare(u"SELECT id, user_id, key_hash, label, created_at, last_used_at, expires_at, revoked_at "
                  "FROM api_keys "_s
        + where + u" ORDER BY created_at DESC, id DESC"_s);
    if (!where.isEmpty())
        query.addBindValue(value);
    if (const auto done = sql::exec(query); !done)
        return done.error();
    while (query.next())
        keys.append(keyFrom(query));
    if (const auto done = sql::drained(query); !done)
        return done.error();
    return keys;
}

} // namespace berth
