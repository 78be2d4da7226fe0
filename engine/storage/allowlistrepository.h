#pragma once

#include "core/error.h"

#include <QDateTime>
#include <QList>
#include <QString>

namespace berth {

class Database;

struct AllowedEmail
{
    QString email;
    QDateTime addedAt;
};

// The emails the owner lets sign in while sign-ups are closed. Case-insensitive. Used only on the thread that
// opened the Database.
class AllowListRepository final
{
    Q_DISABLE_COPY_MOVE(AllowListRepository)
public:
    explicit AllowListRepository(Database &db);

    bool contains(const QString &email) const;
    QList<AllowedEmail> list() const; // by email
    Result<void> add(const QString &email, const QDateTime &when); // success also when it was there already
    Result<void> remove(const QString &email); // NotFound when it was not there

private:
    Database &m_db;
};

} // namespace berth
