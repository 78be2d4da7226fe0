#include "storage/domainrepository.h"

#include "storage/database.h"
#include "storage/sqlhelpers.h"
#include "storage/transaction.h"

#include <QSqlError>
#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace berth {

DomainRepository::DomainRepository(Database &db)
    : m_db(db)
{
}

QStringList DomainRepository::namesOf(const QString &deploymentId) const
{
    QStringList names;
    QSqlQuery query(m_db.connection());
    query.setForwardOnly(true);
    query.prepare(u"SELECT name FROM site_domains WHERE deployment_id = ? ORDER BY name"_s);
    query.addBindValue(deploymentId);
    if (const auto done = sql::exec(query); !done) {
        sql::warn("reading a site's domains", done.error());
        return names;
    }
    while (query.next())
        names.append(query.value(0).toString());
    return names;
}

QString DomainRepository::holderOf(const QString &name) const
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"SELECT deployment_id FROM site_domains WHERE name = ?"_s);
    query.addBindValue(name);
    if (const auto done = sql::exec(query); !done) {
        sql::warn("reading a domain's site", done.error());
        return {};
    }
    return query.next() ? query.value(0).toString() : QString();
}

QHash<QString, QString> DomainRepository::slugsByName() const
{
    QHash<QString, QString> slugs;
    QSqlQuery query(m_db.connection());
    query.setForwardOnly(true);
    query.prepare(
        u"SELECT site_domains.name, deployments.slug FROM site_domains JOIN deployments ON deployments.id = site_domains.deployment_id"_s);
    if (const auto done = sql::exec(query); !done) {
        sql::warn("reading the custom domains", done.error());
        return slugs;
    }
    while (query.next())
        slugs.insert(query.value(0).toString(), query.value(1).toString());
    return slugs;
}

Result<void> DomainRepository::replace(const QString &deploymentId, const QStringList &names, const QDateTime &now)
{
    Transaction transaction(m_db.connection());
    if (auto begun = transaction.begun(); !begun)
        return begun;
    QSqlQuery query(m_db.connection());
    query.prepare(u"DELETE FROM site_domains WHERE deployment_id = ?"_s);
    query.addBindValue(deploymentId);
    if (auto done = sql::exec(query); !done)
        return done;
    for (const QString &name : names) {
        // A name another deployment holds stays with it: checked here, inside the transaction, and by the key.
        query.prepare(u"SELECT deployment_id FROM site_domains WHERE name = ?"_s);
        query.addBindValue(name);
        if (auto done = sql::exec(query); !done)
            return done;
        if (query.next())
            return Error {Error::Kind::Conflict, u"Domain already in use"_s};
        query.prepare(u"INSERT INTO site_domains (name, deployment_id, created_at) VALUES (?, ?, ?)"_s);
        query.addBindValue(name);
        query.addBindValue(deploymentId);
        query.addBindValue(sql::timeOrNull(now));
        if (!query.exec()) {
            // Another server of a cluster took it since the check: the primary key refuses the second.
            const QString text = query.lastError().databaseText();
            if (text.contains(u"UNIQUE constraint failed: site_domains.name"_s)
                || text.contains(u"site_domains_pkey"_s))
                return Error {Error::Kind::Conflict, u"Domain already in use"_s};
            return sql::loggedFailure(query, "saving a site's domains");
        }
    }
    return transaction.commit();
}

} // namespace berth
