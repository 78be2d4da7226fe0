#pragma once

#include "core/error.h"

#include <QString>

namespace berth {

class Database;

// Instance-wide key/value settings that must survive a restart. Used only on the thread that opened the Database.
class SettingsRepository final
{
    Q_DISABLE_COPY_MOVE(SettingsRepository)
public:
    explicit SettingsRepository(Database &db);

    QString value(const QString &key, const QString &fallback = {}) const;
    bool contains(const QString &key) const;
    Result<void> setValue(const QString &key, const QString &value); // inserts or overwrites
    Result<void> remove(const QString &key);

private:
    Database &m_db;
};

} // namespace berth
