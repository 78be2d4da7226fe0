#include "domain/deploy/deploymentsync.h"

#include "domain/deploy/siteloader.h"
#include "storage/database.h"
#include "storage/deploymentstamps.h"

#include <QLoggingCategory>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
Q_LOGGING_CATEGORY(lcSync, "berth.sync")
} // namespace

DeploymentSync::DeploymentSync(Database &db, SiteLoader &sites, int resyncMs)
    : m_db(db)
    , m_sites(sites)
    , m_resyncMs(resyncMs)
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, [this] { resync(); });
}

Result<void> DeploymentSync::start()
{
    if (m_db.dialect() != SqlDialect::PostgreSql)
        return {};
    if (Result<void> listening = m_db.listen(QLatin1String(kChannel),
            [this](const QString &deploymentId) {
                if (deploymentId.isEmpty())
                    return;
                m_sites.refreshSite(deploymentId);
                Q_EMIT notified(deploymentId);
                // Seen changing: the next resync looks at this row again whatever it holds then (it may be gone,
                // with the notification of that lost).
                m_stamps.insert(deploymentId, QByteArray());
            });
        !listening)
        return listening;
    m_db.setReconnectHandler([this] { resync(); });
    Result<QHash<QString, QByteArray>> stamps = DeploymentStamps(m_db).all();
    if (!stamps)
        return stamps.error();
    m_stamps = std::move(stamps).value();
    scheduleResync(m_resyncMs);
    return {};
}

Result<void> DeploymentSync::resync()
{
    Result<QHash<QString, QByteArray>> read = DeploymentStamps(m_db).all();
    if (!read) {
        // Fail closed: an unreadable list removes nothing. Soon again, since the connection is likely coming back.
        qCWarning(lcSync).noquote() << "resync skipped:" << read.error().message;
        scheduleResync(kRetryMs);
        return read.error();
    }
    const QHash<QString, QByteArray> stamps = std::move(read).value();
    int refreshed = 0;
    for (auto it = stamps.cbegin(); it != stamps.cend(); ++it) {
        if (m_stamps.value(it.key()) != it.value()) {
            m_sites.refreshSite(it.key());
            ++refreshed;
        }
    }
    for (auto it = m_stamps.cbegin(); it != m_stamps.cend(); ++it) {
        if (!stamps.contains(it.key())) {
            m_sites.refreshSite(it.key()); // gone: removed from the table
            ++refreshed;
        }
    }
    if (refreshed > 0)
        qCInfo(lcSync).noquote() << "resync refreshed" << refreshed << "sites";
    m_stamps = stamps;
    scheduleResync(m_resyncMs);
    return {};
}

void DeploymentSync::scheduleResync(int ms)
{
    m_timer.start(ms);
}

} // namespace berth
