#include "ui/visitors/submissionalerts.h"

#include "domain/deploy/deploymentservice.h"
#include "domain/visitors/submissionservice.h"
#include "ui/mainwindow/notifier.h"

#include <QLocale>
#include <algorithm>

namespace berth {

SubmissionAlerts::SubmissionAlerts(
    SubmissionService &submissions, DeploymentService &deployments, User owner, Notifier *notifier, QObject *parent)
    : QObject(parent)
    , m_deployments(deployments)
    , m_owner(std::move(owner))
    , m_notifier(notifier)
{
    m_quiet.setSingleShot(true);
    m_quiet.setInterval(kDefaultQuietMs);
    connect(&m_quiet, &QTimer::timeout, this, &SubmissionAlerts::summarise);
    connect(&submissions, &SubmissionService::submissionReceived, this, &SubmissionAlerts::onReceived);
}

void SubmissionAlerts::onReceived(const QString &deploymentId)
{
    const auto deployment = m_deployments.get(m_owner, deploymentId);
    if (!deployment || !m_notifier) // another account's site
        return;
    const QString slug = deployment.value().slug;
    if (m_quiet.isActive()) {
        ++m_pending[slug];
        return;
    }
    m_notifier->notify(tr("New form submission"), tr("Someone sent a form on %1.").arg(slug));
    m_quiet.start();
}

void SubmissionAlerts::summarise()
{
    if (m_pending.isEmpty() || !m_notifier)
        return;
    int count = 0;
    QStringList slugs = m_pending.keys();
    std::sort(slugs.begin(), slugs.end());
    for (const int pending : std::as_const(m_pending))
        count += pending;
    m_pending.clear();
    m_notifier->notify(tr("New form submissions"),
        tr("%n more form submission(s) on %1.", nullptr, count).arg(QLocale().createSeparatedList(slugs)));
    m_quiet.start();
}

} // namespace berth
