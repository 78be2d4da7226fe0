#pragma once

#include <QSqlDatabase>

namespace berth {

// Begins a transaction on construction and rolls it back on destruction unless commit() succeeded, so that every
// early return on a failed statement leaves the database as it was.
class Transaction final
{
    Q_DISABLE_COPY_MOVE(Transaction)
public:
    explicit Transaction(QSqlDatabase db);
    ~Transaction();

    // True while the transaction is open: it began and was neither committed nor rolled back.
    bool isActive() const;
    bool commit();

private:
    QSqlDatabase m_db;
    bool m_active = false;
};

} // namespace berth
