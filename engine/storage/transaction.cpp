#include "storage/transaction.h"

#include "storage/sqlhelpers.h"

#include <QHash>
#include <QSqlDriver>
#include <QSqlError>

namespace berth {

namespace {

// The transactions open on this thread, by connection name: whether a part that joined it ended without commit().
thread_local QHash<QString, bool> t_open;

} // namespace

Transaction::Transaction(QSqlDatabase db)
    : m_db(std::move(db))
{
    if (t_open.contains(m_db.connectionName())) {
        m_active = m_joined = true;
        return;
    }
    m_active = m_db.isOpen() && m_db.transaction();
    if (m_active)
        t_open.insert(m_db.connectionName(), false);
    if (!m_active) {
        m_beginError = QStringLiteral("cannot begin a transaction: %1").arg(m_db.lastError().text());
        m_unreachable = m_db.driver() && m_db.driver()->dbmsType() == QSqlDriver::PostgreSQL && !m_db.isOpen();
        qCWarning(lcStorage).noquote() << m_beginError;
    }
}

Transaction::~Transaction()
{
    if (m_joined) {
        if (m_active) // left without commit(): the whole change must go
            t_open[m_db.connectionName()] = true;
        return;
    }
    if (m_active)
        t_open.remove(m_db.connectionName());
    if (m_active && !m_db.rollback())
        qCWarning(lcStorage).noquote() << "rollback failed:" << m_db.lastError().text();
}

bool Transaction::isActive() const
{
    return m_active;
}

Result<void> Transaction::begun() const
{
    if (m_beginError.isEmpty())
        return {};
    if (m_unreachable)
        return sql::unavailable(m_beginError);
    return Error {Error::Kind::Internal, m_beginError};
}

Result<void> Transaction::commit()
{
    if (!m_active)
        return sql::failure(m_beginError.isEmpty() ? QStringLiteral("the transaction is not open") : m_beginError);
    if (m_joined) {
        m_active = false; // the outer transaction commits or rolls back the whole
        return {};
    }
    if (t_open.value(m_db.connectionName()))
        return sql::failure(QStringLiteral("a part of the transaction failed"));
    if (!m_db.commit()) {
        // SQLite keeps the transaction open after a failed COMMIT (e.g. SQLITE_BUSY); the destructor rolls it back.
        const QSqlError error = m_db.lastError();
        qCWarning(lcStorage).noquote() << "commit failed:" << error.text();
        return sql::failure(error);
    }
    m_active = false;
    t_open.remove(m_db.connectionName());
    return {};
}

} // namespace berth
