#include "storage/databasecopy.h"

#include "storage/blobbackend.h"
#include "storage/blobstore.h"
#include "storage/contentdigest.h"
#include "storage/database.h"
#include "storage/sqlhelpers.h"
#include "storage/transaction.h"

#include <QFile>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

// Every table of the schema, parents before the rows that reference them. Fixed names, never input: safe to paste
// into statements.
const QStringList kTables = {u"users"_s, u"api_keys"_s, u"deployments"_s, u"versions"_s, u"files"_s, u"settings"_s,
    u"submissions"_s, u"submission_days"_s, u"counters"_s, u"signin_allowlist"_s, u"signin_requests"_s,
    u"agent_claims"_s, u"removed_agent_keys"_s, u"webhooks"_s, u"events"_s, u"webhook_deliveries"_s,
    u"analytics_days"_s, u"analytics_entries"_s, u"share_links"_s, u"site_domains"_s};

// PostgreSQL's identity columns, which go on after the largest copied id. signin_requests.rowid is not copied (SQLite
// has it implicitly): the rows arrive in SQLite's rowid order and get new ones in that order.
struct Identity
{
    const char *table;
    const char *column;
};
constexpr Identity kIdentities[]
    = {{"versions", "id"}, {"submissions", "seq"}, {"signin_requests", "rowid"}, {"webhook_deliveries", "seq"}};

Error failed(const QString &what, const QSqlQuery &query)
{
    return {Error::Kind::Internal, u"%1: %2"_s.arg(what, query.lastError().text())};
}

Result<qint64> countRows(Database &db, const QString &table)
{
    QSqlQuery query(db.connection());
    if (!query.exec(u"SELECT COUNT(*) FROM %1"_s.arg(table)) || !query.next())
        return failed(u"cannot count %1"_s.arg(table), query);
    return query.value(0).toLongLong();
}

Result<qint64> copyTable(Database &from, Database &to, const QString &table)
{
    QSqlQuery source(from.connection());
    source.setForwardOnly(true);
    // SELECT * names the source's columns; the target has the same ones (same schema version), and its own extra
    // rowid on PostgreSQL fills itself.
    if (!source.exec(u"SELECT * FROM %1 ORDER BY rowid"_s.arg(table)))
        return failed(u"cannot read %1"_s.arg(table), source);
    const QSqlRecord record = source.record();
    QStringList columns;
    for (int i = 0; i < record.count(); ++i)
        columns << record.fieldName(i);
    QSqlQuery target(to.connection());
    target.prepare(u"INSERT INTO %1 (%2) VALUES (%3)"_s.arg(
        table, columns.join(u", "_s), QStringList(columns.size(), u"?"_s).join(u", "_s)));
    qint64 rows = 0;
    while (source.next()) {
        for (int i = 0; i < columns.size(); ++i)
            target.addBindValue(source.value(i));
        if (!target.exec())
            return failed(u"cannot copy a row of %1"_s.arg(table), target);
        ++rows;
    }
    if (source.lastError().isValid())
        return failed(u"cannot read %1"_s.arg(table), source);
    return rows;
}

// The SHA-256 of what the backend holds for a blob or variant, read chunk by chunk; empty when it holds nothing.
Result<QByteArray> storedDigest(BlobBackend &backend, const QByteArray &hash, const QByteArray &suffix)
{
    ContentDigest digest;
    const Result<bool> loaded = backend.load(hash, suffix, [&digest](const QByteArray &piece) {
        digest.addData(piece);
        return true;
    });
    if (!loaded)
        return loaded.error();
    return loaded.value() ? digest.hexResult() : QByteArray();
}

// Copies one file of the folder (a blob, or one of its variants) and checks the backend's copy.
Result<qint64> copyBlobFile(const QString &path, BlobBackend &to, const QByteArray &hash, const QByteArray &suffix)
{
    const QString name = QString::fromLatin1(suffix.isEmpty() ? hash : hash + '.' + suffix);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error {Error::Kind::NotFound, u"the file %1 is missing from the data folder"_s.arg(name)};
    const QByteArray data = file.readAll();
    const QByteArray digest = BlobStore::hashOf(data);
    if (suffix.isEmpty() && digest != hash)
        return Error {Error::Kind::Internal,
            u"the file %1 in the data folder is damaged (digest %2)"_s.arg(name, QString::fromLatin1(digest))};
    if (const Result<bool> stored = to.store(hash, suffix, data); !stored)
        return Error {Error::Kind::Internal, u"cannot store %1: %2"_s.arg(name, stored.error().message)};
    // Read back what the database holds (a copy stored earlier is checked the same way).
    const Result<QByteArray> written = storedDigest(to, hash, suffix);
    if (!written)
        return Error {Error::Kind::Internal, u"cannot read %1 back: %2"_s.arg(name, written.error().message)};
    if (written.value() != digest)
        return Error {Error::Kind::Internal,
            u"the database's copy of %1 does not match (digest %2)"_s.arg(name, QString::fromLatin1(written.value()))};
    return qint64(data.size());
}

} // namespace

Result<CopiedBlobs> copyBlobs(const BlobStore &from, BlobBackend &to, const QSet<QByteArray> &hashes)
{
    CopiedBlobs copied;
    for (const QByteArray &hash : hashes) {
        const Result<qint64> blob = copyBlobFile(from.pathOf(hash), to, hash, {});
        if (!blob)
            return blob.error();
        ++copied.blobs;
        copied.bytes += blob.value();
        for (const QByteArray &suffix : from.variantsOf(hash)) {
            const Result<qint64> variant = copyBlobFile(from.variantPathOf(hash, suffix), to, hash, suffix);
            if (!variant)
                return variant.error();
            ++copied.variants;
            copied.bytes += variant.value();
        }
    }
    return copied;
}

Result<QList<CopiedTable>> copyDatabase(Database &from, Database &to)
{
    if (from.schemaVersion() != to.schemaVersion())
        return Error {Error::Kind::Internal,
            u"the schema versions differ (%1 and %2)"_s.arg(from.schemaVersion()).arg(to.schemaVersion())};
    Transaction transaction(to.connection());
    if (!transaction.isActive())
        return Error {Error::Kind::Internal, u"cannot begin a transaction on the target"_s};
    for (const QString &table : kTables) {
        const Result<qint64> existing = countRows(to, table);
        if (!existing)
            return existing.error();
        if (existing.value() != 0)
            return Error {Error::Kind::Conflict, u"the target database is not empty (%1 has rows)"_s.arg(table)};
    }
    QList<CopiedTable> copied;
    for (const QString &table : kTables) {
        const Result<qint64> rows = copyTable(from, to, table);
        if (!rows)
            return rows.error();
        // Verified on both sides: what the target holds now is what the source holds.
        const Result<qint64> source = countRows(from, table);
        const Result<qint64> target = countRows(to, table);
        if (!source || !target)
            return !source ? source.error() : target.error();
        if (source.value() != rows.value() || target.value() != rows.value())
            return Error {Error::Kind::Internal,
                u"%1: %2 rows in the source, %3 copied, %4 in the target"_s.arg(table)
                    .arg(source.value())
                    .arg(rows.value())
                    .arg(target.value())};
        copied.append({table, rows.value()});
    }
    if (to.dialect() == SqlDialect::PostgreSql) {
        for (const Identity &identity : kIdentities) {
            QSqlQuery query(to.connection());
            const QString table = QLatin1String(identity.table);
            const QString column = QLatin1String(identity.column);
            if (!query.exec(u"SELECT setval(pg_get_serial_sequence('%1', '%2'), COALESCE(MAX(%2), 0) + 1, false) "
                            "FROM %1"_s.arg(table, column)))
                return failed(u"cannot move the ids of %1 on"_s.arg(table), query);
        }
    }
    if (!transaction.commit())
        return Error {Error::Kind::Internal, u"cannot commit the copy: %1"_s.arg(to.connection().lastError().text())};
    return copied;
}

} // namespace berth
