#include "storage/userrepository.h"

#include "storage/database.h"
#include "storage/sqlhelpers.h"

#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

const QString Select = u"SELECT id, email, plan, is_owner, created_at FROM users"_s;

User userFrom(const QSqlQuery &query)
{
    User user;
    user.id = query.value(0).toString();
    user.email = query.value(1).toString();
    user.plan = query.value(2).toString();
    user.isOwner = query.value(3).toBool();
    user.createdAt = sql::time(query, 4);
    return user;
}

} // namespace

UserRepository::UserRepository(Database &db)
    : m_db(db)
{
}

std::optional<User> UserRepository::find(const QString &id) const
{
    return findWhere(u"id = ?"_s, id);
}

Result<std::optional<User>> UserRepository::lookup(const QString &id) const
{
    return lookupWhere(u"id = ?"_s, id);
}

std::optional<User> UserRepository::findByEmail(const QString &email) const
{
    if (email.isEmpty())
        return std::nullopt; // users without an email are stored as NULL and never match
    // The column is COLLATE NOCASE, so this comparison is case-insensitive and uses the UNIQUE index.
    return findWhere(u"email = ?"_s, email);
}

std::optional<User> UserRepository::owner() const
{
    return findWhere(u"is_owner = ?"_s, 1);
}

QList<User> UserRepository::list() const
{
    QList<User> users;
    QSqlQuery query(m_db.connection());
    query.setForwardOnly(true);
    query.prepare(Select + u" ORDER BY created_at, id"_s);
    if (const auto done = sql::exec(query); !done) {
        sql::warn("listing users", done.error());
        return users;
    }
    while (query.next())
        users.append(userFrom(query));
    return users;
}

QList<UserUsage> UserRepository::listWithUsage(const QDateTime &now) const
{
    QList<UserUsage> users;
    QSqlQuery query(m_db.connection());
    query.setForwardOnly(true);
    query.prepare(u"SELECT u.id, u.email, u.plan, u.is_owner, u.created_at, "
                  "(SELECT COUNT(*) FROM deployments d WHERE d.user_id = u.id), "
                  "(SELECT COUNT(*) FROM api_keys k WHERE k.user_id = u.id AND k.revoked_at IS NULL "
                  "AND (k.expires_at IS NULL OR k.expires_at > ?)), "
                  "(SELECT COUNT(*) FROM submissions s JOIN deployments d ON s.deployment_id = d.id "
                  "WHERE d.user_id = u.id), "
                  "(SELECT MAX(k.last_used_at) FROM api_keys k WHERE k.user_id = u.id) "
                  "FROM users u ORDER BY u.created_at, u.id"_s);
    query.addBindValue(sql::timeOrNull(now));
    if (const auto done = sql::exec(query); !done) {
        sql::warn("listing users", done.error());
        return users;
    }
    while (query.next())
        users.append({userFrom(query), query.value(5).toInt(), query.value(6).toInt(), query.value(7).toInt(),
            sql::time(query, 8)});
    return users;
}

Result<void> UserRepository::insert(const User &user)
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"INSERT INTO users (id, email, plan, is_owner, created_at) VALUES (?, ?, ?, ?, ?)"_s);
    query.addBindValue(user.id);
    query.addBindValue(sql::textOrNull(user.email));
    query.addBindValue(sql::text(user.plan));
    query.addBindValue(user.isOwner ? 1 : 0);
    query.addBindValue(sql::timeOrNull(user.createdAt));
    return sql::exec(query);
}

Result<void> UserRepository::setPlan(const QString &id, const QString &plan)
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"UPDATE users SET plan = ? WHERE id = ?"_s);
    query.addBindValue(sql::text(plan));
    query.addBindValue(id);
    return sql::execAffecting(query, Error::Code::UserNotFound, u"User not found"_s);
}

Result<void> UserRepository::remove(const QString &id)
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"DELETE FROM users WHERE id = ?"_s);
    query.addBindValue(id);
    return sql::execAffecting(query, Error::Code::UserNotFound, u"User not found"_s);
}

std::optional<User> UserRepository::findWhere(const QString &condition, const QVariant &value) const
{
    const Result<std::optional<User>> found = lookupWhere(condition, value);
    if (!found) {
        sql::warn("finding a user", found.error());
        return std::nullopt;
    }
    return found.value();
}

Result<std::optional<User>> UserRepository::lookupWhere(const QString &condition, const QVariant &value) const
{
    QSqlQuery query(m_db.connection());
    query.setForwardOnly(true);
    // condition is one of the fixed clauses above; the value is always bound.
    query.prepare(Select + u" WHERE "_s + condition + u" ORDER BY created_at, id LIMIT 1"_s);
    query.addBindValue(value);
    if (const auto done = sql::exec(query); !done)
        return done.error();
    if (!query.next())
        return sql::drained(query) ? Result<std::optional<User>>(std::nullopt)
                                   : Result<std::optional<User>>(sql::failure(query));
    return std::optional<User>(userFrom(query));
}

} // namespace berth
