#include "domain/events/eventrecorder.h"

#include "domain/common/clock.h"
#include "domain/common/randomid.h"
#include "domain/events/eventtypes.h"
#include "domain/siterules/siteaddresses.h"
#include "storage/deployment.h"
#include "storage/eventrepository.h"
#include "storage/orderedjson.h"
#include "storage/submissionrepository.h"
#include "storage/webhookrepository.h"

#include <QDebug>

using namespace Qt::StringLiterals;

namespace berth {

EventRecorder::EventRecorder(WebhookRepository &webhooks, EventRepository &events, SubmissionRepository &submissions,
    const SiteAddresses &addresses, const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_webhooks(webhooks)
    , m_events(events)
    , m_submissions(submissions)
    , m_addresses(addresses)
    , m_clock(clock)
{
}

QByteArray EventRecorder::deploymentData(const Deployment &deployment) const
{
    return "{\"deployment_id\":" + OrderedJson::value(deployment.id)
        + ",\"slug\":" + OrderedJson::value(deployment.slug)
        + ",\"url\":" + OrderedJson::value(m_addresses.siteUrl(deployment.slug)) + '}';
}

Result<QList<Webhook>> EventRecorder::subscribers(
    const QString &userId, const QString &type, const QString &deploymentId) const
{
    const auto webhooks = m_webhooks.listForUser(userId);
    if (!webhooks)
        return webhooks.error();
    QList<Webhook> wanting;
    for (const Webhook &webhook : webhooks.value()) {
        if (webhook.events.contains(type) && (webhook.deploymentId.isEmpty() || webhook.deploymentId == deploymentId)
            && !webhook.disabledAt.isValid())
            wanting.append(webhook);
    }
    return wanting;
}

Result<QByteArray> EventRecorder::submissionData(const Deployment &deployment, const QString &submissionId) const
{
    const std::optional<Submission> submission = m_submissions.find(deployment.id, submissionId);
    if (!submission)
        return Error {Error::Kind::Internal, u"the submission just stored cannot be read"_s};
    QByteArray data = deploymentData(deployment);
    data.insert(data.size() - 1,
        ",\"submission_id\":" + OrderedJson::value(submission->id)
            + ",\"fields\":" + OrderedJson::write(submission->data, submission->fields()));
    return data;
}

Result<void> EventRecorder::recordChange(const ChangeJournal::Change &change)
{
    const Deployment &deployment = change.deployment;
    const auto to = subscribers(deployment.userId, change.type, deployment.id);
    if (!to)
        return to.error();
    if (to.value().isEmpty())
        return {}; // nobody listens: nothing is stored, and a submission is not read again
    QByteArray data = deploymentData(deployment);
    if (!change.submissionId.isEmpty()) {
        const Result<QByteArray> withFields = submissionData(deployment, change.submissionId);
        if (!withFields)
            return withFields.error();
        data = withFields.value();
    }
    if (!change.reason.isEmpty())
        data.insert(data.size() - 1, ",\"reason\":" + OrderedJson::value(change.reason));
    if (const auto recorded = record(change.type, data, to.value(), m_clock.now()); !recorded) {
        qWarning().noquote() << "events: cannot record" << change.type << "of" << deployment.id << ':'
                             << recorded.error().message;
        return recorded.error();
    }
    return {};
}

Result<WebhookDelivery> EventRecorder::ping(const Webhook &webhook)
{
    const QByteArray data = "{\"webhook_id\":" + OrderedJson::value(webhook.id) + '}';
    const auto recorded = record(QLatin1String(EventTypes::kPing), data, {webhook}, m_clock.now());
    if (!recorded)
        return recorded.error();
    return recorded.value().first();
}

Result<QList<WebhookDelivery>> EventRecorder::record(
    const QString &type, const QByteArray &data, const QList<Webhook> &to, const QDateTime &now)
{
    StoredEvent event {RandomId::make(u"evt_"), type, {}, now};
    event.body = "{\"id\":" + OrderedJson::value(event.id) + ",\"type\":" + OrderedJson::value(type)
        + ",\"created_at\":" + OrderedJson::value(isoTimestamp(now)) + ",\"data\":" + data + '}';
    QList<WebhookDelivery> deliveries;
    for (const Webhook &webhook : to) {
        WebhookDelivery delivery;
        delivery.id = RandomId::make(u"dlv_");
        delivery.webhookId = webhook.id;
        delivery.eventId = event.id;
        delivery.type = type;
        delivery.status = u"pending"_s;
        delivery.nextAttemptAt = now;
        deliveries.append(delivery);
    }
    if (Result<void> stored = m_events.record(event, deliveries); !stored)
        return stored.error();
    Q_EMIT deliveriesAdded();
    return deliveries;
}

} // namespace berth
