#pragma once

#include "core/error.h"
#include "storage/user.h"

#include <QList>
#include <QString>
#include <optional>

namespace berth {

class Database;

// Accounts. Removing a user removes their keys and deployments with them (ON DELETE CASCADE).
// Used only on the thread that opened the Database.
class UserRepository final
{
    Q_DISABLE_COPY_MOVE(UserRepository)
public:
    explicit UserRepository(Database &db);

    std::optional<User> find(const QString &id) const;
    // The same, telling a failed read (an Error) from no such user (nullopt).
    Result<std::optional<User>> lookup(const QString &id) const;
    std::optional<User> findByEmail(const QString &email) const; // case-insensitive
    std::optional<User> owner() const; // the is_owner user
    QList<User> list() const; // oldest first
    QList<UserUsage> listWithUsage(const QDateTime &now) const; // oldest first; keys live at `now`
    Result<void> insert(const User &user); // fails also when the email, or the owner role, is taken
    Result<void> setPlan(const QString &id, const QString &plan);
    Result<void> remove(const QString &id);

private:
    std::optional<User> findWhere(const QString &condition, const QVariant &value) const;
    Result<std::optional<User>> lookupWhere(const QString &condition, const QVariant &value) const;

    Database &m_db;
};

} // namespace berth
