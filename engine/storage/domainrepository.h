#pragma once

#include "core/error.h"

#include <QDateTime>
#include <QHash>
#include <QString>
#include <QStringList>

namespace berth {

class Database;

// Custom domains: the host names that serve a site besides its own address (table site_domains), each held by at
// most one deployment. Used only on the thread that opened the Database.
class DomainRepository final
{
    Q_DISABLE_COPY_MOVE(DomainRepository)
public:
    explicit DomainRepository(Database &db);

    QStringList namesOf(const QString &deploymentId) const; // sorted
    // The deployment holding name; empty when no site holds it.
    QString holderOf(const QString &name) const;
    // Every name with the slug of the site that holds it: what the serving threads look Host up in.
    QHash<QString, QString> slugsByName() const;
    // The deployment's names become exactly these, in one transaction. Conflict when another deployment holds one.
    Result<void> replace(const QString &deploymentId, const QStringList &names, const QDateTime &now);

private:
    Database &m_db;
};

} // namespace berth
