#include "storage/sharelinkrepository.h"

#include "storage/database.h"
#include "storage/sqlhelpers.h"
#include "storage/transaction.h"

#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

const QString kColumns
    = u"id, deployment_id, label, token_hash, created_at, expires_at, max_opens, opens, last_opened_at, revoked"_s;

ShareLink linkFrom(const QSqlQuery &query)
{
    ShareLink link;
    link.id = query.value(0).toString();
    link.deploymentId = query.value(1).toString();
    link.label = query.value(2).toString();
    link.tokenHash = sql::bytes(query, 3);
    link.createdAt = sql::time(query, 4);
    link.expiresAt = sql::time(query, 5);
    link.maxOpens = query.value(6).toInt();
    link.opens = query.value(7).toLongLong();
    link.lastOpenedAt = sql::time(query, 8);
    link.revoked = query.value(9).toInt() != 0;
    return link;
}

Result<QList<ShareLink>> readAll(QSqlQuery &query, const char *what)
{
    if (!query.exec())
        return sql::loggedFailure(query, what);
    QList<ShareLink> links;
    while (query.next())
        links.append(linkFrom(query));
    if (auto drained = sql::drained(query); !drained)
        return drained.error();
    return links;
}

} // namespace

ShareLinkRepository::ShareLinkRepository(Database &db)
    : m_db(db)
{
}

Result<void> ShareLinkRepository::insert(const ShareLink &link, int maxLivePerSite)
{
    Transaction transaction(m_db.connection());
    if (auto begun = transaction.begun(); !begun)
        return begun.error();
    QSqlQuery query(m_db.connection());
    query.prepare(u"SELECT COUNT(*) FROM share_links WHERE deployment_id = ? AND revoked = 0"_s);
    query.addBindValue(link.deploymentId);
    if (!query.exec() || !query.next())
        return sql::loggedFailure(query, "counting share links");
    if (query.value(0).toInt() >= maxLivePerSite)
        return Error {Error::Kind::Forbidden,
            u"At most %1 share links per site; revoke one to make another"_s.arg(maxLivePerSite)};
    query.finish();
    query.prepare(u"INSERT INTO share_links (%1) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"_s.arg(kColumns));
    query.addBindValue(link.id);
    query.addBindValue(link.deploymentId);
    query.addBindValue(sql::text(link.label));
    query.addBindValue(sql::text(link.tokenHash));
    query.addBindValue(sql::timeOrNull(link.createdAt));
    query.addBindValue(sql::timeOrNull(link.expiresAt));
    query.addBindValue(link.maxOpens);
    query.addBindValue(link.opens);
    query.addBindValue(sql::timeOrNull(link.lastOpenedAt));
    query.addBindValue(link.revoked ? 1 : 0);
    if (!query.exec())
        return sql::loggedFailure(query, "inserting a share link");
    return transaction.commit();
}

Result<QList<ShareLink>> ShareLinkRepository::listForDeployment(const QString &deploymentId) const
{
    QSqlQuery query(m_db.connection());
    query.setForwardOnly(true);
    query.prepare(u"SELECT %1 FROM share_links WHERE deployment_id = ? ORDER BY created_at, id"_s.arg(kColumns));
    query.addBindValue(deploymentId);
    return readAll(query, "listing share links");
}

Result<QList<ShareLink>> ShareLinkRepository::listAll() const
{
    QSqlQuery query(m_db.connection());
    query.setForwardOnly(true);
    query.prepare(u"SELECT %1 FROM share_links"_s.arg(kColumns));
    return readAll(query, "reading share links");
}

Result<ShareLink> ShareLinkRepository::revoke(const QString &deploymentId, const QString &id)
{
    Transaction transaction(m_db.connection());
    if (auto begun = transaction.begun(); !begun)
        return begun.error();
    QSqlQuery query(m_db.connection());
    query.prepare(u"UPDATE share_links SET revoked = 1 WHERE id = ? AND deployment_id = ?"_s);
    query.addBindValue(id);
    query.addBindValue(deploymentId);
    if (auto revoked = sql::execAffecting(query, Error::Code::Other, u"Share link not found"_s); !revoked)
        return revoked.error();
    // The oldest revoked links beyond those kept: a site that makes and revokes links all day stays bounded.
    query.prepare(u"DELETE FROM share_links WHERE deployment_id = ? AND revoked = 1 AND id NOT IN (SELECT id FROM "
                  "share_links WHERE deployment_id = ? AND revoked = 1 ORDER BY created_at DESC, id DESC LIMIT ?)"_s);
    query.addBindValue(deploymentId);
    query.addBindValue(deploymentId);
    query.addBindValue(kKeptRevokedPerSite);
    if (!query.exec())
        return sql::loggedFailure(query, "pruning revoked share links");
    query.prepare(u"SELECT %1 FROM share_links WHERE id = ?"_s.arg(kColumns));
    query.addBindValue(id);
    if (!query.exec() || !query.next())
        return sql::loggedFailure(query, "reading a revoked share link");
    const ShareLink link = linkFrom(query);
    query.finish();
    if (auto committed = transaction.commit(); !committed)
        return committed.error();
    return link;
}

Result<void> ShareLinkRepository::addOpens(const QList<ShareLinkOpens> &opens)
{
    if (opens.isEmpty())
        return {};
    Transaction transaction(m_db.connection());
    if (auto begun = transaction.begun(); !begun)
        return begun.error();
    QSqlQuery query(m_db.connection());
    query.prepare(u"UPDATE share_links SET opens = opens + ?, last_opened_at = ? WHERE id = ?"_s);
    for (const ShareLinkOpens &link : opens) {
        query.addBindValue(link.opens);
        query.addBindValue(sql::timeOrNull(link.lastOpenedAt));
        query.addBindValue(link.id);
        if (!query.exec())
            return sql::loggedFailure(query, "counting share link opens");
    }
    return transaction.commit();
}

} // namespace berth
