#pragma once

#include "storage/user.h"

#include <QObject>

namespace berth {

class Notifier;
class WebhookService;
struct Webhook;

// Tells the owner when one of their webhooks was turned off because it failed every delivery for days: until they
// turn it back on (Notifications…), its events go nowhere.
class WebhookAlerts final : public QObject
{
    Q_OBJECT

public:
    WebhookAlerts(WebhookService &webhooks, User owner, Notifier *notifier, QObject *parent = nullptr);

    void setNotifier(Notifier *notifier) { m_notifier = notifier; }

private:
    void onDisabled(const Webhook &webhook);

    User m_owner;
    Notifier *m_notifier;
};

} // namespace berth
