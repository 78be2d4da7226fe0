#include "domain/events/webhookservice.h"

#include "domain/common/clock.h"
#include "domain/common/randomid.h"
#include "domain/events/eventmail.h"
#include "domain/events/eventrecorder.h"
#include "domain/events/eventtypes.h"
#include "domain/events/targetcheck.h"
#include "storage/deploymentrepository.h"
#include "storage/eventrepository.h"
#include "storage/settingsrepository.h"
#include "storage/webhookrepository.h"

#include <QUrl>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

Error notFound()
{
    return {Error::Kind::NotFound, u"Webhook not found"_s};
}

Error badRequest(const QString &message)
{
    return {Error::Kind::BadRequest, message};
}

} // namespace

WebhookService::WebhookService(WebhookRepository &webhooks, EventRepository &events, DeploymentRepository &deployments,
    SettingsRepository &settings, EventRecorder &recorder, const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_webhooks(webhooks)
    , m_events(events)
    , m_deployments(deployments)
    , m_settings(settings)
    , m_recorder(recorder)
    , m_clock(clock)
{
}

WebhookTargets::Policy WebhookService::targets() const
{
    return WebhookTargets::parse(m_settings.value(QLatin1String(WebhookTargets::kSettingKey)))
        .value_or(WebhookTargets::Policy::Public);
}

Result<void> WebhookService::setTargets(WebhookTargets::Policy policy)
{
    return m_settings.setValue(QLatin1String(WebhookTargets::kSettingKey), WebhookTargets::name(policy));
}

Result<void> WebhookService::validate(const User &owner, const NewWebhook &request) const
{
    const QUrl url(request.url, QUrl::StrictMode);
    const bool mail = request.url.startsWith(u"mailto:"_s);
    if (mail && EventMail::address(request.url).isEmpty())
        return badRequest(u"url must be mailto: and one mail address"_s);
    if (!mail
        && (request.url.size() > kMaxUrlLength || !url.isValid() || url.host().isEmpty()
            || (url.scheme() != u"http"_s && url.scheme() != u"https"_s)))
        return badRequest(
            u"url must be an http or https URL of at most %1 characters, or mailto:"_s.arg(kMaxUrlLength));
    if (request.events.isEmpty())
        return badRequest(u"events must list at least one event type"_s);
    for (const QString &type : request.events) {
        if (!EventTypes::isKnown(type))
            return badRequest(u"Unknown event type: %1"_s.arg(type));
    }
    if (!request.deploymentId.isEmpty()) {
        const std::optional<Deployment> deployment = m_deployments.find(request.deploymentId);
        if (!deployment || deployment->userId != owner.id)
            return badRequest(u"deployment_id names no deployment of yours"_s);
    }
    const auto existing = m_webhooks.listForUser(owner.id);
    if (!existing)
        return existing.error();
    if (existing.value().size() >= kMaxPerUser)
        return Error {Error::Kind::Forbidden, u"At most %1 webhooks per user"_s.arg(kMaxPerUser)};
    return {};
}

void WebhookService::add(const User &owner, NewWebhook request, std::function<void(Result<Webhook>)> done)
{
    if (Result<void> valid = validate(owner, request); !valid) {
        done(valid.error());
        return;
    }
    const bool mail = request.url.startsWith(u"mailto:"_s);
    const QUrl url(request.url, QUrl::StrictMode);
    auto store = [this, owner, request = std::move(request), done = std::move(done)](const QString &refusal) {
        if (!refusal.isEmpty()) {
            done(badRequest(refusal));
            return;
        }
        Webhook webhook;
        webhook.id = RandomId::make(u"wh_");
        webhook.userId = owner.id;
        webhook.url = request.url;
        webhook.events = request.events;
        webhook.events.removeDuplicates();
        webhook.deploymentId = request.deploymentId;
        webhook.secret = "whsec_" + RandomId::base62(32).toLatin1();
        webhook.createdAt = m_clock.now();
        if (Result<void> inserted = m_webhooks.insert(webhook, kMaxPerUser); !inserted) {
            done(inserted.error());
            return;
        }
        done(webhook);
    };
    if (mail)
        store({}); // mail goes through the instance's own SMTP server: the target policy is about hosts
    else
        checkWebhookTarget(url, targets(), this, std::move(store));
}

Result<QList<Webhook>> WebhookService::list(const User &owner) const
{
    return m_webhooks.listForUser(owner.id);
}

Result<Webhook> WebhookService::owned(const User &owner, const QString &id) const
{
    const auto found = m_webhooks.find(id);
    if (!found)
        return found.error();
    if (!found.value() || found.value()->userId != owner.id)
        return notFound();
    return *found.value();
}

Result<void> WebhookService::remove(const User &owner, const QString &id)
{
    if (const auto webhook = owned(owner, id); !webhook)
        return webhook.error();
    return m_webhooks.remove(owner.id, id);
}

Result<WebhookDelivery> WebhookService::ping(const User &owner, const QString &id)
{
    const auto webhook = owned(owner, id);
    if (!webhook)
        return webhook.error();
    return m_recorder.ping(webhook.value());
}

Result<QList<WebhookDelivery>> WebhookService::deliveries(const User &owner, const QString &id) const
{
    if (const auto webhook = owned(owner, id); !webhook)
        return webhook.error();
    return m_events.deliveries(id, kDeliveriesListed);
}

Result<WebhookDelivery> WebhookService::retry(const User &owner, const QString &id, const QString &deliveryId)
{
    if (const auto webhook = owned(owner, id); !webhook)
        return webhook.error();
    const auto found = m_events.findDelivery(id, deliveryId);
    if (!found)
        return found.error();
    if (!found.value())
        return Error {Error::Kind::NotFound, u"Delivery not found"_s};
    WebhookDelivery delivery = *found.value();
    delivery.status = u"pending"_s;
    delivery.attempts = 0;
    delivery.nextAttemptAt = m_clock.now();
    delivery.deliveredAt = {};
    if (Result<void> updated = m_events.update(delivery); !updated)
        return updated.error();
    Q_EMIT deliveryRetried();
    return delivery;
}

Result<Webhook> WebhookService::enable(const User &owner, const QString &id)
{
    if (const auto webhook = owned(owner, id); !webhook)
        return webhook.error();
    if (Result<void> enabled = m_webhooks.enable(owner.id, id); !enabled)
        return enabled.error();
    return owned(owner, id);
}

void WebhookService::announceDisabled(const QString &webhookId)
{
    const auto found = m_webhooks.find(webhookId);
    if (found && found.value())
        Q_EMIT webhookDisabled(*found.value());
}

} // namespace berth
