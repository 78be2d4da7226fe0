#include "storage/allowlistrepository.h"

#include "storage/database.h"
#include "storage/sqlhelpers.h"

#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace berth {

AllowListRepository::AllowListRepository(Database &db)
    : m_db(db)
{
}

bool AllowListRepository::contains(const QString &email) const
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"SELECT 1 FROM signin_allowlist WHERE email = ?"_s);
    query.addBindValue(sql::text(email));
    if (const auto done = sql::exec(query); !done) {
        sql::warn("reading the allow-list", done.error());
        return false;
    }
    return query.next();
}

QList<AllowedEmail> AllowListRepository::list() const
{
    QList<AllowedEmail> emails;
    QSqlQuery query(m_db.connection());
    query.setForwardOnly(true);
    query.prepare(u"SELECT email, added_at FROM signin_allowlist ORDER BY email"_s);
    if (const auto done = sql::exec(query); !done) {
        sql::warn("listing the allow-list", done.error());
        return emails;
    }
    while (query.next())
        emails.append({query.value(0).toString(), sql::time(query, 1)});
    return emails;
}

Result<void> AllowListRepository::add(const QString &email, const QDateTime &when)
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"INSERT INTO signin_allowlist (email, added_at) VALUES (?, ?) ON CONFLICT(email) DO NOTHING"_s);
    query.addBindValue(sql::text(email));
    query.addBindValue(sql::timeOrNull(when));
    return sql::exec(query);
}

Result<void> AllowListRepository::remove(const QString &email)
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"DELETE FROM signin_allowlist WHERE email = ?"_s);
    query.addBindValue(sql::text(email));
    return sql::execAffecting(query, Error::Code::Other, u"Not on the allow-list"_s);
}

} // namespace berth
