#pragma once

// Private to berth_storage: the SQL pieces PostgresBlobBackend's two source files share.

#include "core/error.h"

#include <QByteArray>
#include <QList>
#include <QSqlDatabase>
#include <QString>

namespace berth::pgblobsql {

// Never null: Qt 6 binds a null QString as SQL NULL, and the blob itself is variant ''.
QString text(const QByteArray &bytes);
// A text[] literal of hex hashes or suffixes: nothing in them needs escaping, and quoted, '' is an element too.
QString textArray(const QList<QByteArray> &values);

// The advisory locks of blobs: the two-key form, whose keys never meet the migrations' one-key lock. The second key
// is the hash's first 32 bits: two blobs that share them only wait for each other.
constexpr int kBlobLockSpace = 0x424c4f42; // "BLOB"
qint32 lockKey(const QByteArray &hash);
// Taken inside a transaction, held until it ends. lockBlobs takes them in one order, so that two transactions that
// share blobs never wait for each other in a circle.
Result<void> lockBlob(const QSqlDatabase &connection, const QByteArray &hash);
Result<void> lockBlobs(const QSqlDatabase &connection, const QList<QByteArray> &hashes);

} // namespace berth::pgblobsql
