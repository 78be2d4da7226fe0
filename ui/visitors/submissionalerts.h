#pragma once

#include "storage/user.h"

#include <QHash>
#include <QObject>
#include <QTimer>

namespace berth {

class DeploymentService;
class Notifier;
class SubmissionService;

// Tells the owner when a visitor sends one of their sites' forms. The first submission is announced
// at once; more within the quiet interval are gathered into one summary, so a burst of spam makes
// one more notification, not hundreds.
class SubmissionAlerts final : public QObject
{
    Q_OBJECT

public:
    static constexpr int kDefaultQuietMs = 10'000;

    SubmissionAlerts(SubmissionService &submissions, DeploymentService &deployments, User owner, Notifier *notifier,
        QObject *parent = nullptr);

    void setNotifier(Notifier *notifier) { m_notifier = notifier; }
    void setQuietInterval(int ms) { m_quiet.setInterval(ms); }

private:
    void onReceived(const QString &deploymentId);
    void summarise();

    DeploymentService &m_deployments;
    User m_owner;
    Notifier *m_notifier;
    QTimer m_quiet;
    QHash<QString, int> m_pending; // slug -> submissions not yet announced
};

} // namespace berth
