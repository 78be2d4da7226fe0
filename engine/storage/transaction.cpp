#include "storage/transaction.h"

#include "storage/sqlhelpers.h"

#include <QSqlDriver>
#include <QSqlError>

namespace berth {

Transaction::Transaction(QSqlDatabase db)
    : m_db(std::move(db))
{
    m_active = m_db.isOpen() && m_db.transaction();
    if (!m_active) {
        m_beginError = QStringLiteral("cannot begin a transaction: %1").arg(m_db.lastError().text());
        m_unreachable = m_db.driver() && m_db.driver()->dbmsType() == QSqlDriver::PostgreSQL && !m_db.isOpen();
        qCWarning(lcStorage).noquote() << m_beginError;
    }
}

Transaction::~Transaction()
{
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
    if (!m_db.commit()) {
        // SQLite keeps the transaction open after a failed COMMIT (e.g. SQLITE_BUSY); the destructor rolls it back.
        const QSqlError error = m_db.lastError();
        qCWarning(lcStorage).noquote() << "commit failed:" << error.text();
        return sql::failure(error);
    }
    m_active = false;
    return {};
}

} // namespace berth
