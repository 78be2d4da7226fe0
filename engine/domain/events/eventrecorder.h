#pragma once

#include "core/error.h"
#include "storage/webhook.h"

#include <QObject>

namespace berth {

class Clock;
class DeploymentRepository;
class EventRepository;
class SiteAddresses;
class SubmissionRepository;
class WebhookRepository;
struct Deployment;

// Turns what happened into events: {"id","type","created_at","data"}, data holding the deployment's id, slug and url
// (and for a submission its id and fields in the form's order). An event is stored with one pending delivery per
// webhook of the owner that wants it, in one transaction; one that no webhook wants is not stored. Runs on the
// database's thread, right after the change committed.
class EventRecorder final : public QObject
{
    Q_OBJECT

public:
    EventRecorder(WebhookRepository &webhooks, EventRepository &events, DeploymentRepository &deployments,
        SubmissionRepository &submissions, const SiteAddresses &addresses, const Clock &clock,
        QObject *parent = nullptr);

    // type: one of EventTypes' deployment.*; reason: for deployment.deleted, "deleted" or "expired".
    void deploymentChanged(const QString &type, const Deployment &deployment, const QString &reason = {});
    void submissionReceived(const QString &deploymentId, const QString &submissionId);
    // A ping event for this one webhook: its pending delivery.
    Result<WebhookDelivery> ping(const Webhook &webhook);

Q_SIGNALS:
    void deliveriesAdded(); // pending deliveries were stored: the scheduler looks at once

private:
    Result<QList<WebhookDelivery>> record(
        const QString &type, const QByteArray &data, const QList<Webhook> &to, const QDateTime &now);
    QByteArray deploymentData(const Deployment &deployment) const;
    QList<Webhook> subscribers(const QString &userId, const QString &type, const QString &deploymentId) const;
    void recordForSubscribers(const Deployment &deployment, const QString &type, const QByteArray &data);

    WebhookRepository &m_webhooks;
    EventRepository &m_events;
    DeploymentRepository &m_deployments;
    SubmissionRepository &m_submissions;
    const SiteAddresses &m_addresses;
    const Clock &m_clock;
};

} // namespace berth
