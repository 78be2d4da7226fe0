#include "domain/events/eventrecorder.h"

#include "domain/common/clock.h"
#include "domain/common/randomid.h"
#include "domain/events/eventtypes.h"
#include "domain/siterules/siteaddresses.h"
#include "storage/deployment.h"
#include "storage/deploymentrepository.h"
#include "storage/eventrepository.h"
#include "storage/orderedjson.h"
#include "storage/submissionrepository.h"
#include "storage/webhookrepository.h"

#include <QDebug>

using namespace Qt::StringLiterals;

namespace berth {

EventRecorder::EventRecorder(WebhookRepository &webhooks, EventRepository &events, DeploymentRepository &deployments,
    SubmissionRepository &submissions, const SiteAddresses &addresses, const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_webhooks(webhooks)
    , m_events(events)
    , m_deployments(deployments)
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

QList<Webhook> EventRecorder::subscribers(const QString &userId, const QString &type, const QString &deploymentId) const
{
    const auto webhooks = m_webhooks.listForUser(userId);
    if (!webhooks) {
        qWarning().noquote() << "events: cannot read the webhooks of" << userId << ':' << webhooks.error().message;
        return {};
    }
    QList<Webhook> wanting;
    for (const Webhook &webhook : webhooks.value()) {
        if (webhook.events.contains(type) && (webhook.deploymentId.isEmpty() || webhook.deploymentId == deploymentId))
            wanting.append(webhook);
    }
    return wanting;
}

void EventRecorder::recordForSubscribers(const Deployment &deployment, const QString &type, const QByteArray &data)
{
    const QList<Webhook> to = subscribers(deployment.userId, type, deployment.id);
    if (to.isEmpty())
        return;
    if (const auto recorded = record(type, data, to, m_clock.now()); !recorded)
        qWarning().noquote() << "events: cannot record" << type << "of" << deployment.id << ':'
                             << recorded.error().message;
}

void EventRecorder::deploymentChanged(const QString &type, const Deployment &deployment, const QString &reason)
{
    QByteArray data = deploymentData(deployment);
    if (!reason.isEmpty())
        data.insert(data.size() - 1, ",\"reason\":" + OrderedJson::value(reason));
    recordForSubscribers(deployment, type, data);
}

void EventRecorder::submissionReceived(const QString &deploymentId, const QString &submissionId)
{
    const std::optional<Deployment> found = m_deployments.find(deploymentId);
    if (!found)
        return;
    const Deployment &deployment = *found;
    const QString type = QLatin1String(EventTypes::kSubmissionCreated);
    if (subscribers(deployment.userId, type, deployment.id).isEmpty())
        return; // nobody listens: the submission is not read again
    const std::optional<Submission> submission = m_submissions.find(deployment.id, submissionId);
    if (!submission)
        return;
    QByteArray data = deploymentData(deployment);
    data.insert(data.size() - 1,
        ",\"submission_id\":" + OrderedJson::value(submission->id)
            + ",\"fields\":" + OrderedJson::write(submission->data, submission->fields()));
    recordForSubscribers(deployment, type, data);
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
