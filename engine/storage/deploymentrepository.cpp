#include "storage/deploymentrepository.h"

#include "storage/database.h"
#include "storage/sqlhelpers.h"
#include "storage/versionrepository.h"

#include <QSqlError>
#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

const QString Columns
    = u"id, user_id, slug, storage_type, is_spa, title, description, favicon, og_image, protected, "
      "password_hash, share_token, version_id, created_at, updated_at, title_is_custom, document_title, expires_at"_s;

Deployment deploymentFrom(const QSqlQuery &query)
{
    Deployment d;
    d.id = query.value(0).toString();
    d.userId = query.value(1).toString();
    d.slug = query.value(2).toString();
    d.storageType = query.value(3).toString();
    d.isSpa = query.value(4).toBool();
    d.title = query.value(5).toString();
    d.description = sql::nullableString(query, 6);
    d.favicon = query.value(7).toString();
    d.ogImage = query.value(8).toString();
    d.isProtected = query.value(9).toBool();
    d.passwordHash = sql::bytes(query, 10);
    d.shareToken = sql::bytes(query, 11);
    d.versionId = query.value(12).toLongLong();
    d.createdAt = sql::time(query, 13);
    d.updatedAt = sql::time(query, 14);
    // NULL (a row from before schema 4) reads as the owner's until loadSites has looked at its document.
    d.titleIsCustom = query.isNull(15) || query.value(15).toBool();
    d.documentTitle = query.value(16).toString();
    d.expiresAt = sql::time(query, 17);
    return d;
}

// Binds every column but version_id, which only follows a version write.
void bindRow(QSqlQuery &query, const Deployment &d)
{
    query.bindValue(u":id"_s, d.id);
    query.bindValue(u":user_id"_s, d.userId);
    query.bindValue(u":slug"_s, d.slug);
    VersionRepository::bindMetadata(query, d); // the content metadata, named as in the versions table
    query.bindValue(u":protected"_s, d.isProtected ? 1 : 0);
    query.bindValue(u":password_hash"_s, sql::bytesOrNull(d.passwordHash));
    query.bindValue(u":share_token"_s, sql::bytesOrNull(d.shareToken));
    query.bindValue(u":created_at"_s, sql::timeOrNull(d.createdAt));
    query.bindValue(u":updated_at"_s, sql::timeOrNull(d.updatedAt));
    query.bindValue(u":expires_at"_s, sql::timeOrNull(d.expiresAt));
}

} // namespace

DeploymentRepository::DeploymentRepository(Database &db)
    : m_db(db)
    , m_versions(db)
{
}

std::optional<Deployment> DeploymentRepository::find(const QString &id) const
{
    return findWhere(u"id"_s, id);
}

std::optional<Deployment> DeploymentRepository::findBySlug(const QString &slug) const
{
    return findWhere(u"slug"_s, slug);
}

QList<Deployment> DeploymentRepository::listForUser(const QString &userId) const
{
    return list(std::optional<QString>(userId));
}

QList<Deployment> DeploymentRepository::listAll() const
{
    return list(std::nullopt);
}

QList<Deployment> DeploymentRepository::listAllUnsorted() const
{
    return list(std::nullopt, false);
}

QList<DeploymentListing> DeploymentRepository::listingForUser(const QString &userId) const
{
    QList<DeploymentListing> result;
    QSqlQuery query(m_db.connection());
    query.setForwardOnly(true);
    query.prepare(u"SELECT id, slug, title, updated_at, expires_at FROM deployments WHERE user_id = ?"
                  " ORDER BY updated_at DESC, created_at DESC, id"_s);
    query.addBindValue(sql::text(userId));
    if (const auto done = sql::exec(query); !done) {
        sql::warn("listing deployments", done.error());
        return result;
    }
    while (query.next())
        result.append({query.value(0).toString(), query.value(1).toString(), query.value(2).toString(),
            sql::time(query, 3), sql::time(query, 4)});
    return result;
}

int DeploymentRepository::countForUser(const QString &userId) const
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"SELECT COUNT(*) FROM deployments WHERE user_id = ?"_s);
    query.addBindValue(userId);
    if (const auto done = sql::exec(query); !done) {
        sql::warn("counting deployments", done.error());
        return 0;
    }
    return query.next() ? query.value(0).toInt() : 0;
}

Result<void> DeploymentRepository::insert(Deployment &deployment, const QList<StoredFile> &files)
{
    return insert(deployment, files, -1);
}

Result<void> DeploymentRepository::insert(Deployment &deployment, const QList<StoredFile> &files, int ownerLimit)
{
    Transaction transaction(m_db.connection());
    if (auto begun = transaction.begun(); !begun)
        return begun;
    if (ownerLimit >= 0) {
        // The owner's row lock makes concurrent creates for one owner (from any server) take turns, and each count
        // (READ COMMITTED: a fresh snapshot per statement) sees the rows the previous one added.
        if (const Result<void> locked = lockOwners({deployment.userId}); !locked)
            return locked;
        const Result<int> owned = countOwned(deployment.userId);
        if (!owned)
            return owned.error();
        if (owned.value() >= ownerLimit)
            return limitReached();
    }
    QSqlQuery query(m_db.connection());
    query.prepare(
        u"INSERT INTO deployments (id, user_id, slug, storage_type, is_spa, title, description, favicon, "
        "og_image, protected, password_hash, share_token, created_at, updated_at, title_is_custom, document_title, "
        "expires_at) VALUES (:id, :user_id, :slug, :storage_type, :is_spa, :title, :description, :favicon, "
        ":og_image, :protected, :password_hash, :share_token, :created_at, :updated_at, :title_is_custom, "
        ":document_title, :expires_at)"_s);
    bindRow(query, deployment);
    if (!query.exec())
        return writeFailure(query);

    const Result<qint64> versionId = writeVersion(deployment, files);
    if (!versionId)
        return versionId.error();
    if (auto committed = transaction.commit(); !committed)
        return committed;
    deployment.versionId = versionId.value();
    return {};
}

Result<void> DeploymentRepository::update(Deployment &deployment, const std::optional<QList<StoredFile>> &files,
    int keepVersions, QList<QByteArray> *released)
{
    Transaction transaction(m_db.connection());
    if (auto begun = transaction.begun(); !begun)
        return begun;
    // Write first, read after: the write takes SQLite's lock, so the version read below cannot go stale.
    QSqlQuery query(m_db.connection());
    query.prepare(u"UPDATE deployments SET user_id = :user_id, slug = :slug, storage_type = :storage_type, "
                  "is_spa = :is_spa, title = :title, description = :description, favicon = :favicon, "
                  "og_image = :og_image, protected = :protected, password_hash = :password_hash, "
                  "share_token = :share_token, created_at = :created_at, updated_at = :updated_at, "
                  "title_is_custom = :title_is_custom, document_title = :document_title, expires_at = :expires_at "
                  "WHERE id = :id"_s);
    bindRow(query, deployment);
    if (!query.exec())
        return writeFailure(query);
    if (query.numRowsAffected() == 0)
        return notFound();

    query.prepare(u"SELECT version_id FROM deployments WHERE id = ?"_s);
    query.addBindValue(deployment.id);
    if (!query.exec() || !query.next())
        return writeFailure(query);
    const qint64 previous = query.value(0).toLongLong();
    query.finish();

    qint64 served = previous;
    if (files) {
        const Result<qint64> written = writeVersion(deployment, *files);
        if (!written)
            return written.error();
        served = written.value();
        // The previous versions stay, up to keepVersions in all; the blobs of those dropped are handed back.
        QSqlDatabase connection = m_db.connection();
        const Result<QList<QByteArray>> dropped
            = VersionRepository::prune(connection, deployment.id, keepVersions, served);
        if (!dropped)
            return dropped.error();
        if (released)
            *released += dropped.value();
    } else if (previous != 0) {
        QSqlDatabase connection = m_db.connection();
        if (auto amended = VersionRepository::amend(connection, deployment, previous); !amended)
            return amended;
    }
    if (auto committed = transaction.commit(); !committed)
        return committed;
    deployment.versionId = served;
    return {};
}

Result<void> DeploymentRepository::rename(const QString &id, const QString &newSlug, const QDateTime &updatedAt)
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"UPDATE deployments SET slug = ?, updated_at = ? WHERE id = ?"_s);
    query.addBindValue(newSlug);
    query.addBindValue(sql::timeOrNull(updatedAt));
    query.addBindValue(id);
    if (!query.exec())
        return writeFailure(query);
    if (query.numRowsAffected() == 0)
        return notFound();
    return {};
}

Result<void> DeploymentRepository::remove(const QString &id, const QDateTime &expiredBy)
{
    Transaction transaction(m_db.connection());
    if (auto begun = transaction.begun(); !begun)
        return begun;
    QSqlQuery query(m_db.connection());
    const QString statements[] = {
        u"DELETE FROM files WHERE version_id IN (SELECT id FROM versions WHERE deployment_id = ?)"_s,
        u"DELETE FROM versions WHERE deployment_id = ?"_s,
        u"DELETE FROM deployments WHERE id = ?"_s,
    };
    for (const QString &statement : statements) {
        const bool row = &statement == &statements[2];
        query.prepare(
            row && expiredBy.isValid() ? statement + u" AND expires_at IS NOT NULL AND expires_at <= ?"_s : statement);
        query.addBindValue(id);
        if (row && expiredBy.isValid())
            query.addBindValue(sql::timeOrNull(expiredBy));
        if (!query.exec())
            return writeFailure(query);
    }
    if (query.numRowsAffected() == 0)
        return notFound();
    return transaction.commit();
}

QStringList DeploymentRepository::idsWithUnknownTitleSource() const
{
    QStringList ids;
    QSqlQuery query(m_db.connection());
    query.setForwardOnly(true);
    query.prepare(u"SELECT id FROM deployments WHERE title_is_custom IS NULL"_s);
    if (const auto done = sql::exec(query); !done) {
        sql::warn("listing deployments of unknown title source", done.error());
        return ids;
    }
    while (query.next())
        ids.append(query.value(0).toString());
    return ids;
}

std::optional<Deployment> DeploymentRepository::findWhere(const QString &column, const QString &value) const
{
    QSqlQuery query(m_db.connection());
    query.setForwardOnly(true);
    // column is one of two fixed names chosen above, never input.
    query.prepare(u"SELECT %1 FROM deployments WHERE %2 = ?"_s.arg(Columns, column));
    query.addBindValue(value);
    if (const auto done = sql::exec(query); !done) {
        sql::warn("finding a deployment", done.error());
        return std::nullopt;
    }
    if (!query.next())
        return std::nullopt;
    return deploymentFrom(query);
}

QList<Deployment> DeploymentRepository::list(const std::optional<QString> &userId, bool sorted) const
{
    QList<Deployment> result;
    QSqlQuery query(m_db.connection());
    query.setForwardOnly(true);
    // Stored timestamps sort as text in time order; id breaks ties so the order is stable.
    const QString order = sorted ? u" ORDER BY updated_at DESC, created_at DESC, id"_s : QString();
    if (!userId) { // every user's; a null or empty user id still filters (and matches nothing)
        query.prepare(u"SELECT %1 FROM deployments"_s.arg(Columns) + order);
    } else {
        query.prepare(u"SELECT %1 FROM deployments WHERE user_id = ?"_s.arg(Columns) + order);
        query.addBindValue(sql::text(*userId));
    }
    if (const auto done = sql::exec(query); !done) {
        sql::warn("listing deployments", done.error());
        return result;
    }
    while (query.next())
        result.append(deploymentFrom(query));
    return result;
}

Result<qint64> DeploymentRepository::writeVersion(const Deployment &deployment, const QList<StoredFile> &files)
{
    QSqlDatabase connection = m_db.connection();
    const Result<qint64> id = VersionRepository::write(connection, deployment, files);
    if (!id)
        return id;
    QSqlQuery query(connection);
    query.prepare(u"UPDATE deployments SET version_id = ? WHERE id = ?"_s);
    query.addBindValue(id.value());
    query.addBindValue(deployment.id);
    if (auto done = sql::exec(query); !done)
        return writeFailure(query);
    return id;
}

Error DeploymentRepository::writeFailure(const QSqlQuery &query)
{
    const QSqlError error = query.lastError();
    // SQLite and PostgreSQL name the violated constraint in their messages; the slug is the one a caller can act on.
    if (error.databaseText().contains(u"UNIQUE constraint failed: deployments.slug"_s)
        || error.databaseText().contains(u"\"deployments_slug_key\""_s))
        return {Error::Kind::Conflict, u"Slug is already taken"_s, Error::Code::SlugTaken};
    qCWarning(lcStorage).noquote() << "deployment write failed:" << error.text();
    return sql::failure(error);
}

Error DeploymentRepository::limitReached()
{
    return {Error::Kind::Forbidden, u"Deployment limit reached"_s, Error::Code::DeploymentLimitReached};
}

Error DeploymentRepository::notFound()
{
    return sql::notFound(Error::Code::DeploymentNotFound, u"Deployment not found"_s);
}

} // namespace berth
