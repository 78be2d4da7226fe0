#include "storage/versionrepository.h"

#include "storage/database.h"
#include "storage/sqlhelpers.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

const QString kVersionColumns = u"v.id, v.number, v.created_at, v.storage_type, v.is_spa, v.title, v.title_is_custom, "
                                "v.document_title, v.description, v.favicon, v.og_image, "
                                "(SELECT COUNT(*) FROM files f WHERE f.version_id = v.id), "
                                "(SELECT COALESCE(SUM(f.size), 0) FROM files f WHERE f.version_id = v.id)"_s;

StoredVersion versionFrom(const QSqlQuery &query)
{
    StoredVersion v;
    v.id = query.value(0).toLongLong();
    v.number = query.value(1).toInt();
    v.createdAt = sql::time(query, 2);
    v.storageType = query.value(3).toString();
    v.isSpa = query.value(4).toBool();
    v.title = query.value(5).toString();
    v.titleIsCustom = query.value(6).toBool();
    v.documentTitle = query.value(7).toString();
    v.description = sql::nullableString(query, 8);
    v.favicon = query.value(9).toString();
    v.ogImage = query.value(10).toString();
    v.fileCount = query.value(11).toInt();
    v.totalSize = query.value(12).toLongLong();
    return v;
}

} // namespace

void VersionRepository::bindMetadata(QSqlQuery &query, const Deployment &d)
{
    query.bindValue(u":storage_type"_s, sql::text(d.storageType));
    query.bindValue(u":is_spa"_s, d.isSpa ? 1 : 0);
    query.bindValue(u":title"_s, sql::text(d.title));
    query.bindValue(u":title_is_custom"_s, d.titleIsCustom ? 1 : 0);
    query.bindValue(u":document_title"_s, sql::text(d.documentTitle));
    query.bindValue(u":description"_s, d.description.isNull() ? QVariant() : QVariant(d.description));
    query.bindValue(u":favicon"_s, sql::text(d.favicon));
    query.bindValue(u":og_image"_s, sql::text(d.ogImage));
}

namespace {

Error failed(const QSqlQuery &query)
{
    return sql::loggedFailure(query, "a version write");
}

} // namespace

VersionRepository::VersionRepository(Database &db)
    : m_db(db)
{
}

QList<StoredVersion> VersionRepository::list(const QString &deploymentId) const
{
    QList<StoredVersion> result;
    QSqlQuery query(m_db.connection());
    query.setForwardOnly(true);
    query.prepare(u"SELECT %1 FROM versions v WHERE v.deployment_id = ? ORDER BY v.number DESC"_s.arg(kVersionColumns));
    query.addBindValue(deploymentId);
    if (const auto done = sql::exec(query); !done) {
        sql::warn("listing versions", done.error());
        return result;
    }
    while (query.next())
        result.append(versionFrom(query));
    return result;
}

std::optional<StoredVersion> VersionRepository::find(const QString &deploymentId, int number) const
{
    QSqlQuery query(m_db.connection());
    query.setForwardOnly(true);
    query.prepare(u"SELECT %1 FROM versions v WHERE v.deployment_id = ? AND v.number = ?"_s.arg(kVersionColumns));
    query.addBindValue(deploymentId);
    query.addBindValue(number);
    if (const auto done = sql::exec(query); !done) {
        sql::warn("finding a version", done.error());
        return std::nullopt;
    }
    if (!query.next())
        return std::nullopt;
    return versionFrom(query);
}

Result<QHash<QByteArray, qint64>> VersionRepository::heldBy(const QString &userId, const QList<QByteArray> &blobs) const
{
    constexpr qsizetype kBatch = 200; // well under SQLite's limit on bound parameters
    QHash<QByteArray, qint64> held;
    QSqlQuery query(m_db.connection());
    query.setForwardOnly(true);
    for (qsizetype start = 0; start < blobs.size(); start += kBatch) {
        const qsizetype count = qMin(kBatch, blobs.size() - start);
        const QStringList marks(count, u"?"_s);
        // By the index on files(blob): the cost follows the number of hashes asked about.
        query.prepare(u"SELECT f.blob, f.size FROM files f JOIN versions v ON v.id = f.version_id "
                      "JOIN deployments d ON d.id = v.deployment_id WHERE d.user_id = ? AND f.blob IN (%1)"_s.arg(
                          marks.join(u',')));
        query.addBindValue(userId);
        for (qsizetype i = 0; i < count; ++i)
            query.addBindValue(sql::text(blobs.at(start + i)));
        if (auto done = sql::exec(query); !done)
            return done.error();
        while (query.next())
            held.insert(sql::bytes(query, 0), query.value(1).toLongLong());
        if (auto done = sql::drained(query); !done)
            return done.error();
    }
    return held;
}

Result<qint64> VersionRepository::write(
    QSqlDatabase &connection, const Deployment &deployment, const QList<StoredFile> &files)
{
    const QDateTime createdAt = deployment.updatedAt.isValid() ? deployment.updatedAt : QDateTime::currentDateTimeUtc();
    QSqlQuery query(connection);
    query.prepare(u"INSERT INTO versions (deployment_id, created_at, number, storage_type, is_spa, title, "
                  "title_is_custom, document_title, description, favicon, og_image) VALUES (:deployment_id, "
                  ":created_at, (SELECT COALESCE(MAX(number), 0) + 1 FROM versions WHERE deployment_id = "
                  ":deployment_id2), :storage_type, :is_spa, :title, :title_is_custom, :document_title, "
                  ":description, :favicon, :og_image) RETURNING id"_s);
    query.bindValue(u":deployment_id"_s, deployment.id);
    query.bindValue(u":deployment_id2"_s, deployment.id);
    query.bindValue(u":created_at"_s, sql::timeOrNull(createdAt));
    bindMetadata(query, deployment);
    if (!query.exec() || !query.next())
        return failed(query);
    const qint64 id = query.value(0).toLongLong(); // RETURNING: QPSQL has no lastInsertId for identity columns
    query.finish();

    query.prepare(u"INSERT INTO files (version_id, path, blob, size, content_type) VALUES (?, ?, ?, ?, ?)"_s);
    for (const StoredFile &file : files) {
        query.addBindValue(id);
        query.addBindValue(sql::text(file.path));
        query.addBindValue(sql::text(file.blob));
        query.addBindValue(file.size);
        query.addBindValue(sql::text(file.contentType));
        if (!query.exec())
            return failed(query);
    }
    return id;
}

Result<void> VersionRepository::amend(QSqlDatabase &connection, const Deployment &deployment, qint64 versionId)
{
    QSqlQuery query(connection);
    query.prepare(u"UPDATE versions SET storage_type = :storage_type, is_spa = :is_spa, title = :title, "
                  "title_is_custom = :title_is_custom, document_title = :document_title, description = :description, "
                  "favicon = :favicon, og_image = :og_image WHERE id = :id"_s);
    bindMetadata(query, deployment);
    query.bindValue(u":id"_s, versionId);
    if (!query.exec())
        return failed(query);
    return {};
}

Result<QList<QByteArray>> VersionRepository::prune(
    QSqlDatabase &connection, const QString &deploymentId, int keep, qint64 servedId)
{
    QSqlQuery query(connection);
    query.setForwardOnly(true);
    query.prepare(u"SELECT id FROM versions WHERE deployment_id = ? AND id <> ? ORDER BY number DESC "
                  "LIMIT 9223372036854775807 OFFSET ?"_s); // no limit, as both SQLite and PostgreSQL read it
    query.addBindValue(deploymentId);
    query.addBindValue(servedId);
    query.addBindValue(qMax(0, keep - 1)); // the served version counts as one of the kept
    if (!query.exec())
        return failed(query);
    QList<qint64> doomed;
    QList<QByteArray> released;
    while (query.next())
        doomed.append(query.value(0).toLongLong());
    query.finish();

    for (const qint64 id : doomed) {
        query.prepare(u"SELECT blob FROM files WHERE version_id = ?"_s);
        query.addBindValue(id);
        if (!query.exec())
            return failed(query);
        while (query.next())
            released.append(sql::bytes(query, 0));
        query.finish();
        // Explicit rather than by cascade, so that the file rows go even where foreign keys were off.
        query.prepare(u"DELETE FROM files WHERE version_id = ?"_s);
        query.addBindValue(id);
        if (!query.exec())
            return failed(query);
        query.prepare(u"DELETE FROM versions WHERE id = ?"_s);
        query.addBindValue(id);
        if (!query.exec())
            return failed(query);
    }
    return released;
}

} // namespace berth
