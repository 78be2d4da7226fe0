#pragma once

// Rows that the visitor-data tables (submissions, counters) hang off, for the storage tests.

#include "storage/database.h"
#include "storage/deploymentrepository.h"
#include "storage/userrepository.h"

#include <QSqlQuery>

namespace berth::test {

inline const QDateTime kSiteDataTime(QDate(2026, 11, 21), QTime(6, 0), Qt::UTC);

// The user "usr_a" (created when missing) and a deployment of theirs with this id and a slug made from it.
inline bool insertDeployment(Database &db, const QString &id)
{
    UserRepository users(db);
    if (!users.find(QStringLiteral("usr_a"))
        && !users.insert({QStringLiteral("usr_a"), {}, QStringLiteral("free"), false, kSiteDataTime}))
        return false;
    // The columns of schema version 1, so that the row can be written into a database of any version.
    QSqlQuery query(db.connection());
    query.prepare(QStringLiteral("INSERT INTO deployments (id, user_id, slug, storage_type, is_spa, title, favicon, "
                                 "og_image, protected, created_at, updated_at) VALUES (?, 'usr_a', ?, 'html', 0, '', "
                                 "'', '', 0, ?, ?)"));
    const QString slug = id.mid(4).toLower().replace(QLatin1Char('_'), QLatin1Char('-')) + QStringLiteral("-site");
    const QString time = kSiteDataTime.toString(Qt::ISODateWithMs);
    query.addBindValue(id);
    query.addBindValue(slug);
    query.addBindValue(time);
    query.addBindValue(time);
    return query.exec();
}

} // namespace berth::test
