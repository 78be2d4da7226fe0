#pragma once

#include "core/error.h"

#include <QtGlobal>

namespace berth {

class Database;

// What the database holds, counted for the operator's metrics: every statement is one aggregate over a table (or
// its blob index), so the cost stays one pass however it is asked.
class StoreTotals final
{
public:
    struct Counts
    {
        qint64 deployments = 0;
        qint64 blobs = 0; // distinct contents the kept versions' files refer to
        qint64 blobBytes = 0; // their sizes, uncompressed, each content once
        qint64 submissions = 0;
    };

    explicit StoreTotals(Database &db);
    Q_DISABLE_COPY_MOVE(StoreTotals)

    // On the database's thread.
    Result<Counts> read() const;

private:
    Database &m_db;
};

} // namespace berth
