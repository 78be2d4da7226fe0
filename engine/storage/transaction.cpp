#include "transaction.h"

#include "sqlhelpers.h"

#include <QSqlError>

namespace berth {

Transaction::Transaction(QSqlDatabase db)
    : m_db(std::move(db))
{
    m_active = m_db.isOpen() && m_db.transaction();
    if (!m_active)
        qCWarning(lcStorage).noquote() << "could not begin a transaction:" << m_db.lastError().text();
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

bool Transaction::commit()
{
    if (!m_active)
        return false;
    if (!m_db.commit()) {
        // SQLite keeps the transaction open after a failed COMMIT (e.g. SQLITE_BUSY); the destructor rolls it back.
        qCWarning(lcStorage).noquote() << "commit failed:" << m_db.lastError().text();
        return false;
    }
    m_active = false;
    return true;
}

} // namespace berth
