#include "storage/postgresblobbackend.h"

#include "storage/database.h"
#include "storage/postgresblobsql.h"
#include "storage/sqlhelpers.h"
#include "storage/transaction.h"

#include <QAtomicInteger>
#include <QHash>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QStringList>
#include <QThreadStorage>
#include <algorithm>
#include <memory>

using namespace Qt::StringLiterals;

namespace berth {

using pgblobsql::lockBlob;
using pgblobsql::text;

namespace {

// This thread's connections, one per backend that used it here. QThreadStorage deletes them on the thread that
// opened them when it ends, as QtSql requires.
struct Connections final
{
    QHash<quint64, std::shared_ptr<Database>> byBackend;
};

QThreadStorage<Connections *> &threadConnections()
{
    static QThreadStorage<Connections *> storage;
    return storage;
}

quint64 nextBackendId()
{
    static QAtomicInteger<quint64> counter;
    return counter.fetchAndAddRelaxed(1) + 1;
}

} // namespace

PostgresBlobBackend::PostgresBlobBackend(const QString &serverUrl)
    : m_serverUrl(serverUrl)
    , m_id(nextBackendId())
{
}

PostgresBlobBackend::~PostgresBlobBackend()
{
    // Other threads' connections go when those threads end; a pool's threads end when the pool goes.
    if (threadConnections().hasLocalData())
        threadConnections().localData()->byBackend.remove(m_id);
}

Result<Database *> PostgresBlobBackend::database()
{
    if (!threadConnections().hasLocalData())
        threadConnections().setLocalData(new Connections);
    auto &connections = threadConnections().localData()->byBackend;
    auto &db = connections[m_id];
    if (!db)
        db = std::make_shared<Database>(QString(), m_serverUrl);
    // The schema is current (the engine opened its own connection first): this only connects and configures.
    if (!db->isOpen()) {
        if (const Result<void> opened = db->open(); !opened)
            return opened.error();
    }
    return db.get();
}

Result<bool> PostgresBlobBackend::underBlobLock(const QByteArray &hash, const LockedWork &work)
{
    const Result<Database *> db = database();
    if (!db)
        return db.error();
    const QSqlDatabase connection = db.value()->connection();
    Transaction transaction(connection);
    if (const Result<void> begun = transaction.begun(); !begun)
        return begun.error();
    if (const Result<void> locked = lockBlob(connection, hash); !locked)
        return locked.error();
    const Result<bool> done = work(connection);
    if (!done)
        return done;
    if (const Result<void> committed = transaction.commit(); !committed)
        return committed.error();
    return done;
}

Result<bool> PostgresBlobBackend::store(const QByteArray &hash, const QByteArray &suffix, const QByteArray &data)
{
    return underBlobLock(hash, [&](const QSqlDatabase &connection) -> Result<bool> {
        // Stored already: renewing stored_at makes it count as stored now, so that no node removes content that this
        // deploy is about to reference again. Under the lock, a removal either came first (then no row is left and the
        // blob is written again below) or comes after this commits (and sees the new stamp).
        QSqlQuery touch(connection);
        touch.prepare(u"UPDATE blob_chunks SET stored_at = now() WHERE hash = ? AND variant = ? AND seq = 0"_s);
        touch.addBindValue(text(hash));
        touch.addBindValue(text(suffix));
        if (const Result<void> done = sql::exec(touch); !done)
            return done.error();
        if (touch.numRowsAffected() > 0)
            return false;
        QSqlQuery insert(connection);
        // A node from before the lock may store the same content at the same moment: its rows are the same bytes.
        insert.prepare(
            u"INSERT INTO blob_chunks (hash, variant, seq, data) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING"_s);
        int seq = 0;
        qsizetype offset = 0;
        do { // an empty blob is one empty chunk, so that its seq 0 says it is stored
            const qsizetype length = qMin<qsizetype>(kChunkBytes, data.size() - offset);
            insert.addBindValue(text(hash));
            insert.addBindValue(text(suffix));
            insert.addBindValue(seq);
            // A view, not a copy: the chunk's bytes stay in `data`.
            insert.addBindValue(QByteArray::fromRawData(data.constData() + offset, length));
            if (const Result<void> done = sql::exec(insert); !done)
                return done.error();
            offset += length;
            ++seq;
        } while (offset < data.size());
        return true;
    });
}

Result<bool> PostgresBlobBackend::retain(const QByteArray &hash)
{
    return underBlobLock(hash, [&](const QSqlDatabase &connection) -> Result<bool> {
        QSqlQuery touch(connection);
        touch.prepare(u"UPDATE blob_chunks SET stored_at = now() WHERE hash = ? AND variant = '' AND seq = 0"_s);
        touch.addBindValue(text(hash));
        if (const Result<void> done = sql::exec(touch); !done)
            return done.error();
        return touch.numRowsAffected() > 0;
    });
}

Result<bool> PostgresBlobBackend::has(const QByteArray &hash, const QByteArray &suffix)
{
    const Result<Database *> db = database();
    if (!db)
        return db.error();
    // Chunks arrive in one transaction: the first one present means all are.
    QSqlQuery query(db.value()->connection());
    query.prepare(u"SELECT 1 FROM blob_chunks WHERE hash = ? AND variant = ? AND seq = 0"_s);
    query.addBindValue(text(hash));
    query.addBindValue(text(suffix));
    if (const Result<void> done = sql::exec(query); !done)
        return done.error();
    return query.next();
}

Result<QHash<QByteArray, qint64>> PostgresBlobBackend::variantSizes(
    const QList<QByteArray> &hashes, const QByteArray &suffix)
{
    QHash<QByteArray, qint64> sizes;
    if (hashes.isEmpty())
        return sizes;
    const Result<Database *> db = database();
    if (!db)
        return db.error();
    // One statement for a whole site, the hashes as one array (hex: nothing in them needs quoting). octet_length
    // reads a chunk's size from its header, not its bytes.
    QStringList names;
    names.reserve(hashes.size());
    for (const QByteArray &hash : hashes)
        names.append(text(hash));
    QSqlQuery query(db.value()->connection());
    query.setForwardOnly(true);
    query.prepare(u"SELECT hash, SUM(octet_length(data)) FROM blob_chunks WHERE variant = ? "
                  "AND hash = ANY(CAST(? AS text[])) GROUP BY hash"_s);
    query.addBindValue(text(suffix));
    query.addBindValue(u'{' + names.join(u',') + u'}');
    if (const Result<void> done = sql::exec(query); !done)
        return done.error();
    while (query.next())
        sizes.insert(query.value(0).toString().toLatin1(), query.value(1).toLongLong());
    if (const Result<void> read = sql::drained(query); !read)
        return read.error();
    return sizes;
}

Result<bool> PostgresBlobBackend::load(const QByteArray &hash, const QByteArray &suffix, const ChunkSink &sink)
{
    const Result<Database *> db = database();
    if (!db)
        return db.error();
    // One chunk per statement: libpq would otherwise receive every row of a result before the first is read.
    QSqlQuery query(db.value()->connection());
    query.setForwardOnly(true);
    query.prepare(u"SELECT data FROM blob_chunks WHERE hash = ? AND variant = ? AND seq = ?"_s);
    for (int seq = 0;; ++seq) {
        query.addBindValue(text(hash));
        query.addBindValue(text(suffix));
        query.addBindValue(seq);
        if (const Result<void> done = sql::exec(query); !done)
            return done.error();
        if (!query.next())
            return seq > 0;
        if (!sink(query.value(0).toByteArray()))
            return Error {Error::Kind::Internal, u"cannot write blob %1"_s.arg(text(hash))};
    }
}

Result<bool> PostgresBlobBackend::remove(const QByteArray &hash)
{
    return underBlobLock(hash, [&](const QSqlDatabase &connection) -> Result<bool> {
        // One statement decides and deletes, on a snapshot taken after the lock: every store of this blob that came
        // before has committed. A deploy in progress elsewhere has stored (or renewed) its blobs before committing its
        // file list, so until that commit its blobs are recent, and after it they are referenced.
        QSqlQuery query(connection);
        query.prepare(u"DELETE FROM blob_chunks WHERE hash = ? "
                      "AND NOT EXISTS (SELECT 1 FROM files WHERE blob = ?) "
                      "AND NOT EXISTS (SELECT 1 FROM blob_chunks recent WHERE recent.hash = ? AND recent.seq = 0 "
                      "AND recent.stored_at > now() - make_interval(secs => ?))"_s);
        query.addBindValue(text(hash));
        query.addBindValue(text(hash));
        query.addBindValue(text(hash));
        query.addBindValue(kGraceSeconds);
        if (const Result<void> done = sql::exec(query); !done)
            return done.error();
        bool gone = query.numRowsAffected() > 0;
        if (!gone) { // kept, or absent
            QSqlQuery left(connection);
            left.prepare(u"SELECT 1 FROM blob_chunks WHERE hash = ? LIMIT 1"_s);
            left.addBindValue(text(hash));
            if (const Result<void> done = sql::exec(left); !done)
                return done.error();
            gone = !left.next();
        }
        return gone;
    });
}

Result<int> PostgresBlobBackend::removeAllExcept(const QSet<QByteArray> &keep)
{
    const Result<Database *> db = database();
    if (!db)
        return db.error();
    QSqlQuery list(db.value()->connection());
    list.setForwardOnly(true);
    list.prepare(
        u"SELECT DISTINCT hash FROM blob_chunks WHERE seq = 0 AND stored_at < now() - make_interval(secs => ?)"_s);
    list.addBindValue(kGraceSeconds);
    if (const Result<void> done = sql::exec(list); !done)
        return done.error();
    QList<QByteArray> unreferenced;
    while (list.next()) {
        const QByteArray hash = list.value(0).toString().toLatin1();
        if (!keep.contains(hash))
            unreferenced.append(hash);
    }
    if (const Result<void> read = sql::drained(list); !read)
        return read.error();
    int removed = 0;
    for (const QByteArray &hash : std::as_const(unreferenced)) {
        // Checked again, one by one: keep is this node's view, and the blob may have been stored again since.
        const Result<bool> gone = remove(hash);
        if (!gone)
            return gone.error();
        if (gone.value())
            ++removed;
    }
    return removed;
}

} // namespace berth
