#include "storage/settingsrepository.h"

#include "storage/database.h"
#include "storage/sqlhelpers.h"

#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace berth {

SettingsRepository::SettingsRepository(Database &db)
    : m_db(db)
{
}

QString SettingsRepository::value(const QString &key, const QString &fallback) const
{
    QSqlQuery query(m_db.connection());
    query.setForwardOnly(true);
    query.prepare(u"SELECT value FROM settings WHERE key = ?"_s);
    query.addBindValue(key);
    if (!sql::exec(query) || !query.next())
        return fallback;
    return sql::nullableString(query, 0);
}

bool SettingsRepository::contains(const QString &key) const
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"SELECT 1 FROM settings WHERE key = ?"_s);
    query.addBindValue(key);
    return sql::exec(query) && query.next();
}

Result<void> SettingsRepository::setValue(const QString &key, const QString &value)
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = "
                  "excluded.value"_s);
    query.addBindValue(key);
    query.addBindValue(sql::text(value));
    return sql::exec(query);
}

Result<void> SettingsRepository::remove(const QString &key)
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"DELETE FROM settings WHERE key = ?"_s);
    query.addBindValue(key);
    return sql::execAffecting(query, Error::Code::Other, u"No such setting"_s);
}

} // namespace berth
