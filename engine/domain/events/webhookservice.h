#pragma once

#include "core/error.h"
#include "domain/events/webhooktargets.h"
#include "storage/user.h"
#include "storage/webhook.h"

#include <QObject>
#include <functional>

namespace berth {

class Clock;
class DeploymentRepository;
class EventRecorder;
class EventRepository;
class SettingsRepository;
class WebhookRepository;

// A user's webhooks: adding one (its secret shown once), listing, removing, a ping, the delivery log and a retry;
// enabling one the scheduler disabled, and telling its owner (webhookDisabled, for the dashboard). Another user's
// webhook is answered as missing. Runs on the database's thread.
class WebhookService final : public QObject
{
    Q_OBJECT

public:
    static constexpr int kMaxPerUser = 20;
    static constexpr int kDeliveriesListed = 100;
    static constexpr int kMaxUrlLength = 2048;

    struct NewWebhook
    {
        QString url;
        QStringList events;
        QString deploymentId; // empty: every deployment of the owner
    };

    WebhookService(WebhookRepository &webhooks, EventRepository &events, DeploymentRepository &deployments,
        SettingsRepository &settings, EventRecorder &recorder, const Clock &clock, QObject *parent = nullptr);

    // Checks the request (URL, event types, deployment, the number of webhooks) and the URL's host against the
    // instance's target policy, which may take a DNS lookup: done hears the new webhook, with its secret, later.
    void add(const User &owner, NewWebhook request, std::function<void(Result<Webhook>)> done);
    Result<QList<Webhook>> list(const User &owner) const;
    Result<void> remove(const User &owner, const QString &id);
    Result<WebhookDelivery> ping(const User &owner, const QString &id);
    Result<QList<WebhookDelivery>> deliveries(const User &owner, const QString &id) const; // newest first
    // The delivery pending again, due at once, with its attempts counted afresh.
    Result<WebhookDelivery> retry(const User &owner, const QString &id, const QString &deliveryId);
    // A disabled webhook gets new events again (the ones that failed meanwhile stay failed: retry() them).
    Result<Webhook> enable(const User &owner, const QString &id);
    // The scheduler disabled this webhook: tells its owner through webhookDisabled.
    void announceDisabled(const QString &webhookId);

    // Where deliveries may go: the owner's setting (berthd webhooks targets), read on every use.
    WebhookTargets::Policy targets() const;
    Result<void> setTargets(WebhookTargets::Policy policy);

Q_SIGNALS:
    void deliveryRetried(); // a delivery is due again
    // A webhook failed every delivery for days and was disabled (disabledAt set); its owner should be told.
    void webhookDisabled(const berth::Webhook &webhook);

private:
    Result<void> validate(const User &owner, const NewWebhook &request) const;
    Result<Webhook> owned(const User &owner, const QString &id) const;

    WebhookRepository &m_webhooks;
    EventRepository &m_events;
    DeploymentRepository &m_deployments;
    SettingsRepository &m_settings;
    EventRecorder &m_recorder;
    const Clock &m_clock;
};

} // namespace berth
