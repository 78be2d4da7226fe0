#pragma once

#include "core/error.h"

#include <QByteArray>
#include <QHash>
#include <QObject>
#include <QString>
#include <QTimer>

namespace berth {

class Database;
class SiteLoader;

// Keeps this server's sites in step with the others on one PostgreSQL database: every committed change to a
// deployment (wherever it was made) arrives as a notification with its id (a trigger sends it, migration 8), and the
// site is rebuilt through SiteLoader::refreshSite. A periodic resync compares every deployment's row with the
// last one seen and refreshes what changed, for notifications lost while the connection was down. SQLite: one
// server, nothing to do. Lives on the engine's thread, whose connection it uses.
class DeploymentSync final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DeploymentSync)
public:
    static constexpr int kDefaultResyncMs = 30'000;
    static constexpr int kRetryMs = 2'000; // after a resync that could not read the database
    static constexpr const char *kChannel = "berth_deployments";

    DeploymentSync(Database &db, SiteLoader &sites, int resyncMs = kDefaultResyncMs);

    // Listens, and notes every deployment's row as it is now: call before the sites are loaded, so that a change
    // after this point is either notified or found by the next resync.
    Result<void> start();
    // Compares every row with the last seen and refreshes the sites whose rows changed, appeared or went away.
    Result<void> resync();

Q_SIGNALS:
    // A change to the deployment or to what hangs off it (its share links) was committed, by any server.
    void notified(const QString &deploymentId);

private:
    void scheduleResync(int ms);

    Database &m_db;
    SiteLoader &m_sites;
    int m_resyncMs;
    QTimer m_timer;
    QHash<QString, QByteArray> m_stamps; // deployment id -> its row's fingerprint at the last resync
};

} // namespace berth
