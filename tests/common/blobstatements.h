#pragma once

#include <QString>

namespace berth::test {

class EngineFixture;

// Whether the fixture's engine runs on PostgreSQL (the @postgresql run of a suite), where blobs live in the
// database's blob_chunks table.
bool usesPostgres(const EngineFixture &fixture);

// Counts the statements of one kind ("INSERT", "UPDATE" or "DELETE") on the blob_chunks table of the fixture's
// PostgreSQL database from start() on, through a statement-level trigger: how many round trips it took to store or
// renew many blobs, whatever the engine's code looks like. A trigger fires once for each statement, however many rows
// it touches, and also for one that touches none.
class BlobStatementCount
{
public:
    BlobStatementCount(const EngineFixture &fixture, const QString &kind);

    bool start(); // false when the fixture is not on PostgreSQL or the trigger cannot be made
    int count() const; // since start(); -1 when it cannot be read

private:
    const EngineFixture &m_fixture;
    QString m_kind;
    QString m_table; // where the trigger counts
};

} // namespace berth::test
