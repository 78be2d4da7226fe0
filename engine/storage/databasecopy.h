#pragma once

#include "core/error.h"

#include <QList>
#include <QSet>
#include <QString>

namespace berth {

class BlobBackend;
class BlobStore;
class Database;

// Copies every row of an instance's tables from one open Database to another at the same schema version (SQLite to
// PostgreSQL: berthd migrate --from-sqlite), in one transaction on the target: all rows arrive, or none. The target
// must hold no rows yet. After the copy, the row counts of both sides are compared; the identity columns on
// PostgreSQL continue after the copied ids.
struct CopiedTable
{
    QString table;
    qint64 rows = 0;
};
Result<QList<CopiedTable>> copyDatabase(Database &from, Database &to);

// Copies the blobs named by hashes, each with the variants the folder holds, from a data folder's store into a shared
// backend (berthd migrate: the files into PostgreSQL), then reads every one back from the backend and compares its
// digest: a blob's with its name, a variant's with the file's. NotFound names a blob missing from the folder; a
// digest that differs (in the folder or in the backend) fails with Internal and names the blob. Content-addressed:
// running it again stores nothing twice.
struct CopiedBlobs
{
    qint64 blobs = 0;
    qint64 variants = 0;
    qint64 bytes = 0;
};
Result<CopiedBlobs> copyBlobs(const BlobStore &from, BlobBackend &to, const QSet<QByteArray> &hashes);

} // namespace berth
