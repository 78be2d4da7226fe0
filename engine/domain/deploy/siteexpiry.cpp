#include "domain/deploy/siteexpiry.h"

#include "domain/common/clock.h"
#include "domain/deploy/deploymentservice.h"
#include "storage/deploymentrepository.h"

#include <QDebug>

using namespace Qt::StringLiterals;

namespace berth {

SiteExpiry::SiteExpiry(
    DeploymentRepository &repository, DeploymentService &deployments, const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_repository(repository)
    , m_deployments(deployments)
    , m_clock(clock)
{
    connect(&m_timer, &QTimer::timeout, this, &SiteExpiry::sweep);
}

void SiteExpiry::start(int intervalMs)
{
    sweep();
    m_timer.start(intervalMs);
}

void SiteExpiry::stop()
{
    m_timer.stop();
}

int SiteExpiry::sweep()
{
    const Result<QStringList> due = m_repository.expiredBy(m_clock.now(), kBatch);
    if (!due) {
        qWarning().noquote() << "cannot look for expired sites:" << due.error().message;
        return 0;
    }
    int removed = 0;
    for (const QString &id : due.value()) {
        const Result<Deployment> gone = m_deployments.removeExpired(id);
        if (gone) {
            ++removed;
            qInfo().noquote() << "site" << gone.value().slug << "expired and went offline";
            Q_EMIT siteExpired(id, gone.value().slug);
        } else if (gone.error().kind != Error::Kind::NotFound) { // NotFound: another server took it, or it was extended
            qWarning().noquote() << "cannot take expired site" << id << "offline:" << gone.error().message;
        }
    }
    if (due.value().size() == kBatch && removed > 0 && m_timer.isActive())
        QTimer::singleShot(0, this, &SiteExpiry::sweep);
    return removed;
}

} // namespace berth
