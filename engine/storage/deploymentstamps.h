#pragma once

#include "core/error.h"

#include <QByteArray>
#include <QHash>
#include <QString>

namespace berth {

class Database;

// A fingerprint of every deployment's row, for a server that compares what it serves with the database (the resync
// behind change notifications): a row whose fingerprint changed has changed, whatever column it was.
class DeploymentStamps final
{
    Q_DISABLE_COPY_MOVE(DeploymentStamps)
public:
    explicit DeploymentStamps(Database &db);

    // Deployment id -> fingerprint of its row. An Error when the list could not be read completely: a caller must
    // never take a failed read for "no deployments".
    Result<QHash<QString, QByteArray>> all() const;

private:
    Database &m_db;
};

} // namespace berth
