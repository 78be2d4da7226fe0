#pragma once

#include "core/error.h"
#include "domain/common/changejournal.h"
#include "storage/webhook.h"

#include <QObject>

namespace berth {

class Clock;
class EventRepository;
class SiteAddresses;
class SubmissionRepository;
class WebhookRepository;

// Turns what happened into events: {"id","type","created_at","data"}, data holding the deployment's id, slug and url
// (and for a submission its id and fields in the form's order). An event is stored with one pending delivery per
// webhook of the owner that wants it; one that no webhook wants is not stored. Runs on the database's thread, inside
// the transaction of the change that caused it (ChangeJournal's writer), so that both commit or neither does.
class EventRecorder final : public QObject
{
    Q_OBJECT

public:
    EventRecorder(WebhookRepository &webhooks, EventRepository &events, SubmissionRepository &submissions,
        const SiteAddresses &addresses, const Clock &clock, QObject *parent = nullptr);

    // The change's event and its pending deliveries, within the change's open transaction (a failure rolls it back).
    Result<void> recordChange(const ChangeJournal::Change &change);
    // A ping event for this one webhook: its pending delivery.
    Result<WebhookDelivery> ping(const Webhook &webhook);

Q_SIGNALS:
    void deliveriesAdded(); // pending deliveries were stored: the scheduler looks at once

private:
    Result<QList<WebhookDelivery>> record(
        const QString &type, const QByteArray &data, const QList<Webhook> &to, const QDateTime &now);
    QByteArray deploymentData(const Deployment &deployment) const;
    Result<QList<Webhook>> subscribers(const QString &userId, const QString &type, const QString &deploymentId) const;
    Result<QByteArray> submissionData(const Deployment &deployment, const QString &submissionId) const;

    WebhookRepository &m_webhooks;
    EventRepository &m_events;
    SubmissionRepository &m_submissions;
    const SiteAddresses &m_addresses;
    const Clock &m_clock;
};

} // namespace berth
