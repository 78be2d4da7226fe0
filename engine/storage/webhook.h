#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QString>
#include <QStringList>

namespace berth {

// A user's subscription: events of the types listed (of one deployment, when deploymentId is set) are POSTed to url,
// signed with secret.
struct Webhook
{
    QString id; // "wh_" + base62
    QString userId;
    QString url;
    QStringList events;
    QString deploymentId; // empty: every deployment of the user
    QByteArray secret; // "whsec_..."; kept so that deliveries can be signed
    QDateTime createdAt;
    QDateTime failingSince; // the start of its current run of failed attempts; invalid after a success
    QDateTime disabledAt; // invalid while enabled
    QDateTime lastMailAt; // mailto: when its last mail went, from any server; invalid before the first
};

// Something that happened, as delivered: body is the whole JSON document {"id","type","created_at","data"}.
struct StoredEvent
{
    QString id; // "evt_" + base62
    QString type;
    QByteArray body;
    QDateTime createdAt;
};

// One event on its way to one webhook.
struct WebhookDelivery
{
    QString id; // "dlv_" + base62
    QString webhookId;
    QString eventId;
    QString type;
    QString status; // "pending", "delivered", "failed"
    int attempts = 0;
    int responseStatus = 0; // 0: no HTTP answer (yet)
    QDateTime nextAttemptAt; // pending only
    QDateTime deliveredAt;
    QString error; // why the last attempt failed
};

} // namespace berth
