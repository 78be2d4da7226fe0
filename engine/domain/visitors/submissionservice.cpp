#include "domain/visitors/submissionservice.h"

#include "domain/common/changejournal.h"
#include "domain/common/clock.h"
#include "domain/common/randomid.h"
#include "domain/visitors/deploymentowner.h"
#include "domain/visitors/storagefailure.h"
#include "storage/deployment.h"
#include "storage/submissionrepository.h"

using namespace Qt::StringLiterals;

namespace berth {

namespace {
constexpr qint64 kSecondsPerDay = 24 * 60 * 60;

QString dayOf(const QDateTime &utc)
{
    return utc.toUTC().date().toString(Qt::ISODate);
}
} // namespace

SubmissionService::SubmissionService(SubmissionRepository &submissions, DeploymentRepository &deployments,
    UserRepository &users, const PlanTable &plans, const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_submissions(submissions)
    , m_deployments(deployments)
    , m_users(users)
    , m_plans(plans)
    , m_clock(clock)
{
}

QString SubmissionService::dailyLimitMessage()
{
    return u"Daily submission limit reached"_s;
}

Result<Submission> SubmissionService::receive(
    const Deployment &deployment, const QJsonObject &data, const QStringList &order)
{
    const PlanLimits tier = DeploymentOwner::tierOf(m_users, m_plans, deployment);
    Submission submission {RandomId::make(u"sub_"), deployment.id, data, m_clock.now(), {}};
    submission.fieldOrder = order;
    submission.fieldOrder = submission.fields(); // the names of order that data holds, each once, then the rest
    const Result<QStringList> inserted
        = journaled(m_journal, {u"submission.created"_s, deployment, {}, submission.id}, [&] {
              return m_submissions.insert(
                  submission, dayOf(submission.createdAt), tier.submissionsPerDay, tier.submissionsStored);
          });
    if (!inserted) {
        if (inserted.error().code == Error::Code::SubmissionLimitReached)
            return Error {Error::Kind::RateLimited, dailyLimitMessage(), Error::Code::SubmissionLimitReached};
        return storageFailure(inserted.error(), u"Could not store the submission"_s);
    }
    Q_EMIT submissionReceived(deployment.id, submission.id);
    return submission;
}

int SubmissionService::secondsUntilNextDay() const
{
    const QDateTime now = m_clock.now().toUTC();
    const QDateTime midnight(now.date().addDays(1), QTime(0, 0), Qt::UTC);
    return int(qBound<qint64>(1, now.secsTo(midnight), kSecondsPerDay));
}

Result<SubmissionService::Page> SubmissionService::list(
    const User &owner, const QString &deploymentId, int limit, const QString &beforeId) const
{
    if (const Result<void> owned = DeploymentOwner::check(m_deployments, owner, deploymentId); !owned)
        return owned.error();
    if (limit < 1 || limit > kMaxPageSize)
        return Error {Error::Kind::BadRequest, u"limit must be an integer from 1 to %1"_s.arg(kMaxPageSize)};
    if (!beforeId.isEmpty() && !m_submissions.find(deploymentId, beforeId))
        return Error {Error::Kind::BadRequest, u"before names no submission of this deployment"_s};
    const auto page = m_submissions.page(deploymentId, limit, beforeId);
    if (!page)
        return storageFailure(page.error(), u"Could not read the submissions"_s);
    Page result;
    result.submissions = page.value().submissions;
    result.total = m_submissions.count(deploymentId);
    if (page.value().hasMore)
        result.nextBefore = page.value().submissions.constLast().id;
    return result;
}

Result<Submission> SubmissionService::remove(
    const User &owner, const QString &deploymentId, const QString &submissionId)
{
    if (const Result<void> owned = DeploymentOwner::check(m_deployments, owner, deploymentId); !owned)
        return owned.error();
    const auto submission = m_submissions.find(deploymentId, submissionId);
    if (!submission)
        return Error {Error::Kind::NotFound, u"Submission not found"_s, Error::Code::SubmissionNotFound};
    if (!m_submissions.remove(deploymentId, submissionId))
        return Error {Error::Kind::Internal, u"Could not delete the submission"_s};
    Q_EMIT submissionRemoved(deploymentId, submissionId);
    return *submission;
}

} // namespace berth
