#pragma once

#include "core/error.h"

#include <QList>
#include <QString>

namespace berth {

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

} // namespace berth
