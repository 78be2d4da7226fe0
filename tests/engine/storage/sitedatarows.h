#pragma once

// Rows that the visitor-data tables (submissions, counters) hang off, for the storage tests.

#include "storage/database.h"
#include "storage/deploymentrepository.h"
#include "storage/userrepository.h"

namespace berth::test {

inline const QDateTime kSiteDataTime(QDate(2026, 11, 21), QTime(6, 0), Qt::UTC);

// The user "usr_a" (created when missing) and a deployment of theirs with this id and a slug made from it.
inline bool insertDeployment(Database &db, const QString &id)
{
    UserRepository users(db);
    if (!users.find(QStringLiteral("usr_a"))
        && !users.insert({QStringLiteral("usr_a"), {}, QStringLiteral("free"), false, kSiteDataTime}))
        return false;
    Deployment d;
    d.id = id;
    d.userId = QStringLiteral("usr_a");
    d.slug = id.mid(4).toLower().replace(QLatin1Char('_'), QLatin1Char('-')) + QStringLiteral("-site");
    d.storageType = QStringLiteral("html");
    d.createdAt = d.updatedAt = kSiteDataTime;
    return DeploymentRepository(db).insert(d, {}) == DeploymentRepository::WriteResult::Ok;
}

} // namespace berth::test
