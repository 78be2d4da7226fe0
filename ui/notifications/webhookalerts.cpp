#include "ui/notifications/webhookalerts.h"

#include "domain/events/webhookservice.h"
#include "ui/mainwindow/notifier.h"

namespace berth {

WebhookAlerts::WebhookAlerts(WebhookService &webhooks, User owner, Notifier *notifier, QObject *parent)
    : QObject(parent)
    , m_owner(std::move(owner))
    , m_notifier(notifier)
{
    connect(&webhooks, &WebhookService::webhookDisabled, this, &WebhookAlerts::onDisabled);
}

void WebhookAlerts::onDisabled(const Webhook &webhook)
{
    if (webhook.userId != m_owner.id || !m_notifier)
        return; // another user's: the dashboard acts for its owner only
    m_notifier->notify(tr("A webhook was turned off"),
        tr("%1 failed every delivery for 3 days. Its site's Notifications… turns it back on.").arg(webhook.url));
}

} // namespace berth
