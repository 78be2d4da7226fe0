#pragma once

#include "core/error.h"
#include "storage/submission.h"
#include "storage/user.h"

#include <QObject>

namespace berth {

class ChangeJournal;
class Clock;
class DeploymentRepository;
class PlanTable;
class SubmissionRepository;
class UserRepository;
struct Deployment;

// Form submissions: what a visitor posts to a site's /_submit, kept for the site's owner within the limits of
// the owner's plan (submissions per day, submissions stored), and read or deleted by that owner only.
class SubmissionService final : public QObject
{
    Q_OBJECT

public:
    static constexpr int kDefaultPageSize = 50;
    static constexpr int kMaxPageSize = 500;

    SubmissionService(SubmissionRepository &submissions, DeploymentRepository &deployments, UserRepository &users,
        const PlanTable &plans, const Clock &clock, QObject *parent = nullptr);

    // Stores a visitor's fields (already stripped of _hp and _next) for the deployment. Errors: RateLimited with
    // dailyLimitMessage() once the plan's daily count is reached (nothing stored); at the plan's stored maximum
    // the oldest submission is deleted in the same transaction.
    // order: data's names in the order the form sent them, kept for showing and exporting them in that order.
    Result<Submission> receive(const Deployment &deployment, const QJsonObject &data, const QStringList &order = {});
    // Where a submission's event is written, in the transaction that stores it.
    void setChangeJournal(const ChangeJournal *journal) { m_journal = journal; }
    // Seconds until the daily count starts again (midnight UTC): the Retry-After of a daily refusal.
    int secondsUntilNextDay() const;

    struct Page
    {
        QList<Submission> submissions; // newest first
        int total = 0; // all stored submissions of the deployment
        QString nextBefore; // pass as `before` for the next page; empty on the last page
    };
    // limit from 1 to kMaxPageSize; beforeId empty or a submission id of this deployment.
    Result<Page> list(const User &owner, const QString &deploymentId, int limit, const QString &beforeId) const;
    Result<Submission> remove(const User &owner, const QString &deploymentId, const QString &submissionId);

    static QString dailyLimitMessage();

Q_SIGNALS:
    void submissionReceived(const QString &deploymentId, const QString &submissionId);
    void submissionRemoved(const QString &deploymentId, const QString &submissionId);

private:
    SubmissionRepository &m_submissions;
    DeploymentRepository &m_deployments;
    UserRepository &m_users;
    const PlanTable &m_plans;
    const Clock &m_clock;
    const ChangeJournal *m_journal = nullptr;
};

} // namespace berth
