#include "postgresblobbackend.h"

#include "database.h"
#include "sqlhelpers.h"
#include "transaction.h"

#include <QAtomicInteger>
#include <QHash>
#include <QSqlQuery>
#include <QThreadStorage>
#include <memory>

using namespace Qt::StringLiterals;

namespace berth {

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

// Never null: Qt 6 binds a null QString as SQL NULL, and the blob itself is variant ''.
QString text(const QByteArray &bytes)
{
    return bytes.isEmpty() ? u""_s : QString::fromLatin1(bytes);
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

Result<void> PostgresBlobBackend::store(const QByteArray &hash, const QByteArray &suffix, const QByteArray &data)
{
    const Result<Database *> db = database();
    if (!db)
        return db.error();
    // Stored already: renewing stored_at keeps the start-up sweep of another node from removing content that this
    // deploy is about to reference again.
    QSqlQuery touch(db.value()->connection());
    touch.prepare(u"UPDATE blob_chunks SET stored_at = now() WHERE hash = ? AND variant = ? AND seq = 0"_s);
    touch.addBindValue(text(hash));
    touch.addBindValue(text(suffix));
    if (const Result<void> done = sql::exec(touch); !done)
        return done;
    if (touch.numRowsAffected() > 0)
        return {};
    Transaction transaction(db.value()->connection());
    if (const Result<void> begun = transaction.begun(); !begun)
        return begun;
    QSqlQuery insert(db.value()->connection());
    // Another node may store the same content at the same moment: its rows are the same bytes.
    insert.prepare(u"INSERT INTO blob_chunks (hash, variant, seq, data) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING"_s);
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
            return done;
        offset += length;
        ++seq;
    } while (offset < data.size());
    return transaction.commit();
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

Result<void> PostgresBlobBackend::remove(const QByteArray &hash)
{
    const Result<Database *> db = database();
    if (!db)
        return db.error();
    QSqlQuery query(db.value()->connection());
    query.prepare(u"DELETE FROM blob_chunks WHERE hash = ?"_s);
    query.addBindValue(text(hash));
    return sql::exec(query);
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
    list.addBindValue(kSweepGraceSeconds);
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
        if (const Result<void> done = remove(hash); !done)
            return done.error();
        ++removed;
    }
    return removed;
}

} // namespace berth
