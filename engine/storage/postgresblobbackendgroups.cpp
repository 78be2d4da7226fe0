// PostgresBlobBackend's group operations (a deploy's thousands of blobs in a few transactions), and the SQL pieces
// its two source files share.
#include "storage/database.h"
#include "storage/postgresblobbackend.h"
#include "storage/postgresblobsql.h"
#include "storage/sqlhelpers.h"
#include "storage/transaction.h"

#include <QSet>
#include <QSqlQuery>
#include <QStringList>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace berth {

QString pgblobsql::text(const QByteArray &bytes)
{
    return bytes.isEmpty() ? u""_s : QString::fromLatin1(bytes);
}

QString pgblobsql::textArray(const QList<QByteArray> &values)
{
    QStringList quoted;
    quoted.reserve(values.size());
    for (const QByteArray &value : values)
        quoted.append(u'"' + text(value) + u'"');
    return u'{' + quoted.join(u',') + u'}';
}

qint32 pgblobsql::lockKey(const QByteArray &hash)
{
    return static_cast<qint32>(hash.left(8).toUInt(nullptr, 16));
}

Result<void> pgblobsql::lockBlob(const QSqlDatabase &connection, const QByteArray &hash)
{
    return lockBlobs(connection, {hash});
}

Result<void> pgblobsql::lockBlobs(const QSqlDatabase &connection, const QList<QByteArray> &hashes)
{
    QList<qint32> keys;
    keys.reserve(hashes.size());
    for (const QByteArray &hash : hashes)
        keys.append(lockKey(hash));
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    QSqlQuery lock(connection);
    lock.prepare(u"SELECT pg_advisory_xact_lock(?, ?)"_s);
    for (const qint32 key : std::as_const(keys)) {
        lock.addBindValue(kBlobLockSpace);
        lock.addBindValue(key);
        if (const Result<void> locked = sql::exec(lock); !locked)
            return locked;
    }
    return {};
}

namespace {

using pgblobsql::text;
using pgblobsql::textArray;

// One chunk of a piece to insert: a view of the piece's bytes.
struct ChunkRow
{
    const BlobBackend::Piece *piece;
    int seq;
    QByteArray bytes;
};

// The pieces' chunks, many rows per statement (at most kRowsPerInsert, and about kBytesPerInsert).
Result<void> insertChunks(const QSqlDatabase &connection, const QList<ChunkRow> &rows)
{
    // QPSQL sends bound bytea as escaped text in the statement (hex: twice the bytes, then UTF-16 and UTF-8 copies
    // of it): about a megabyte of chunks per statement keeps those copies small.
    constexpr int kRowsPerInsert = 100;
    constexpr qsizetype kBytesPerInsert = 1024 * 1024;
    for (qsizetype first = 0; first < rows.size();) {
        qsizetype end = first;
        qsizetype bytes = 0;
        while (end < rows.size() && end - first < kRowsPerInsert && (end == first || bytes < kBytesPerInsert))
            bytes += rows.at(end++).bytes.size();
        QStringList values;
        for (qsizetype i = first; i < end; ++i)
            values.append(u"(?, ?, ?, ?)"_s);
        QSqlQuery insert(connection);
        insert.prepare(u"INSERT INTO blob_chunks (hash, variant, seq, data) VALUES %1 ON CONFLICT DO NOTHING"_s.arg(
            values.join(u", "_s)));
        for (qsizetype i = first; i < end; ++i) {
            const ChunkRow &row = rows.at(i);
            insert.addBindValue(text(row.piece->hash));
            insert.addBindValue(text(row.piece->suffix));
            insert.addBindValue(row.seq);
            insert.addBindValue(row.bytes);
        }
        if (const Result<void> done = sql::exec(insert); !done)
            return done;
        first = end;
    }
    return {};
}

} // namespace

Result<QList<bool>> PostgresBlobBackend::storeAll(const QList<Piece> &pieces)
{
    QList<bool> written;
    written.reserve(pieces.size());
    QList<Piece> group;
    qsizetype bytes = 0;
    for (qsizetype i = 0; i <= pieces.size(); ++i) {
        if (!group.isEmpty() && (i == pieces.size() || group.size() >= kGroupPieces || bytes >= kGroupBytes)) {
            if (const Result<void> stored = storeGroup(group, written); !stored)
                return stored.error();
            group.clear();
            bytes = 0;
        }
        if (i < pieces.size()) {
            group.append(pieces.at(i));
            bytes += pieces.at(i).data.size();
        }
    }
    return written;
}

Result<void> PostgresBlobBackend::storeGroup(const QList<Piece> &group, QList<bool> &written)
{
    const Result<Database *> db = database();
    if (!db)
        return db.error();
    const QSqlDatabase connection = db.value()->connection();
    Transaction transaction(connection);
    if (const Result<void> begun = transaction.begun(); !begun)
        return begun;
    QList<QByteArray> hashes;
    QList<QByteArray> suffixes;
    for (const Piece &piece : group) {
        hashes.append(piece.hash);
        suffixes.append(piece.suffix);
    }
    if (const Result<void> locked = pgblobsql::lockBlobs(connection, hashes); !locked)
        return locked;
    // As store(): those stored already are renewed, the others written, all under the locks.
    QSqlQuery touch(connection);
    touch.prepare(u"UPDATE blob_chunks SET stored_at = now() WHERE seq = 0 AND (hash, variant) IN "
                  "(SELECT * FROM unnest(CAST(? AS text[]), CAST(? AS text[]))) RETURNING hash, variant"_s);
    touch.addBindValue(textArray(hashes));
    touch.addBindValue(textArray(suffixes));
    if (const Result<void> done = sql::exec(touch); !done)
        return done;
    QSet<QByteArray> present;
    while (touch.next())
        present.insert(touch.value(0).toString().toLatin1() + '.' + touch.value(1).toString().toLatin1());
    QList<ChunkRow> rows;
    for (const Piece &piece : group) {
        const QByteArray name = piece.hash + '.' + piece.suffix;
        const bool isNew = !present.contains(name);
        written.append(isNew);
        if (!isNew)
            continue;
        present.insert(name); // the same piece twice in a group is written once
        qsizetype offset = 0;
        int seq = 0;
        do { // an empty blob is one empty chunk, as in store()
            const qsizetype length = qMin<qsizetype>(kChunkBytes, piece.data.size() - offset);
            rows.append({&piece, seq++, QByteArray::fromRawData(piece.data.constData() + offset, length)});
            offset += length;
        } while (offset < piece.data.size());
    }
    if (const Result<void> inserted = insertChunks(connection, rows); !inserted)
        return inserted;
    return transaction.commit();
}

Result<QSet<QByteArray>> PostgresBlobBackend::retainAll(const QList<QByteArray> &hashes)
{
    QSet<QByteArray> retained;
    for (qsizetype first = 0; first < hashes.size(); first += kGroupPieces) {
        const QList<QByteArray> group = hashes.mid(first, kGroupPieces);
        const Result<Database *> db = database();
        if (!db)
            return db.error();
        const QSqlDatabase connection = db.value()->connection();
        Transaction transaction(connection);
        if (const Result<void> begun = transaction.begun(); !begun)
            return begun.error();
        if (const Result<void> locked = pgblobsql::lockBlobs(connection, group); !locked)
            return locked.error();
        QSqlQuery touch(connection);
        touch.prepare(u"UPDATE blob_chunks SET stored_at = now() WHERE variant = '' AND seq = 0 "
                      "AND hash = ANY(CAST(? AS text[])) RETURNING hash"_s);
        touch.addBindValue(textArray(group));
        if (const Result<void> done = sql::exec(touch); !done)
            return done.error();
        while (touch.next())
            retained.insert(touch.value(0).toString().toLatin1());
        if (const Result<void> committed = transaction.commit(); !committed)
            return committed.error();
    }
    return retained;
}

} // namespace berth
