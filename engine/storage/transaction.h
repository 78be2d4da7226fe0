#pragma once

#include "core/error.h"

#include <QSqlDatabase>

namespace berth {

// Begins a transaction on construction and rolls it back on destruction unless commit() succeeded, so that every
// early return on a failed statement leaves the database as it was. A Transaction made while another is open on the
// same connection (of this thread) joins it: its commit() leaves the decision to the outer one, and ending without
// commit() makes the outer one roll back, so that a change and what it records (an event) commit together or not at
// all.
class Transaction final
{
    Q_DISABLE_COPY_MOVE(Transaction)
public:
    explicit Transaction(QSqlDatabase db);
    ~Transaction();

    // True while the transaction is open: it began and was neither committed nor rolled back.
    bool isActive() const;
    // Nothing when the transaction began, or why it could not (for a caller to return before its first statement).
    Result<void> begun() const;
    // SQLITE_FULL at commit time is an InsufficientStorage error (see sql::failure()).
    Result<void> commit();

private:
    QSqlDatabase m_db;
    bool m_active = false;
    bool m_joined = false; // inside another Transaction on this connection
    QString m_beginError;
    bool m_unreachable = false; // the connection was closed, or closed when BEGIN failed: the database is away
};

} // namespace berth
