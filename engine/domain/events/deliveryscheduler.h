#pragma once

#include "domain/events/deliveryattempt.h"
#include "storage/webhook.h"

#include <QDateTime>
#include <QFuture>
#include <QHash>
#include <QNetworkAccessManager>
#include <QObject>
#include <QTimer>
#include <functional>

namespace berth {

class Clock;
class EventRepository;
class WebhookRepository;

// Sends pending deliveries, off the serving threads (on the database's thread, never waiting: the network is
// asynchronous). Each webhook gets its deliveries in order, one at a time; at most kMaxInFlight attempts run at once,
// kMaxInFlightPerHost to one host. An attempt is answered 2xx within kTimeoutMs (read from the clock, so tests move
// it) or it failed: retried after about 30 s, 2 min, 10 min, 1 h, 6 h and 24 h (each +-10 % so that a receiver that
// was down is not hit by all its senders at once), then failed for good. Pending deliveries outlive a restart: the
// first look after start() sends them. A webhook whose every attempt failed for kDisableAfterMs is disabled: its
// pending deliveries fail, and it gets no new ones until its owner enables it. A mailto: webhook gets mail through the
// mail sender (the instance's SMTP settings) instead, at most one mail per kMailIntervalMs: what became due meanwhile
// goes in the next mail together, and a failed mail is retried as an HTTP delivery is.
class DeliveryScheduler final : public QObject
{
    Q_OBJECT

public:
    static constexpr int kMaxInFlight = 8;
    static constexpr int kMaxInFlightPerHost = 2;
    static constexpr qint64 kTimeoutMs = 10'000;
    static constexpr int kPollMs = 1000;
    static constexpr qint64 kDisableAfterMs = 3 * 24 * 3600 * 1000LL;
    static constexpr qint64 kMailIntervalMs = 60'000;
    static constexpr int kMaxEventsPerMail = 50;
    static QList<qint64> backoffMs(); // the wait after the 1st, 2nd, ... failed attempt; failed after the last

    // targetAllowed: whether a host may be delivered to now (the owner's policy), answered through its callback.
    using TargetCheck = std::function<void(const QUrl &url, QObject *context, std::function<void(QString)> done)>;
    DeliveryScheduler(EventRepository &events, WebhookRepository &webhooks, const Clock &clock, TargetCheck targetCheck,
        QObject *parent = nullptr);
    ~DeliveryScheduler() override;

    // Sends one mail: finishes with an empty text once the server took it, else why not. Without one, mail fails.
    using MailSender = std::function<QFuture<QString>(const QString &to, const QString &subject, const QString &body)>;
    void setMailSender(MailSender sender) { m_mailSender = std::move(sender); }

    void start(int pollMs = kPollMs);
    void stop();
    void wake(); // something is due: look at the next turn of the event loop rather than at the next poll

Q_SIGNALS:
    void webhookDisabled(const QString &webhookId); // it failed every attempt for kDisableAfterMs

private:
    struct InFlight
    {
        WebhookDelivery delivery;
        QString host;
        QDateTime startedAt;
        DeliveryAttempt *attempt = nullptr; // null while the target is being checked, and for mail
        QList<WebhookDelivery> grouped; // mail: the deliveries after `delivery` that the same mail carries
    };
    void look();
    void begin(const WebhookDelivery &delivery);
    void send(const QString &webhookId, const Webhook &webhook, const StoredEvent &event);
    void sendMail(const WebhookDelivery &head, const Webhook &webhook);
    void finish(const QString &webhookId, const DeliveryAttempt::Outcome &outcome);
    void settle(WebhookDelivery delivery, const DeliveryAttempt::Outcome &outcome, const QDateTime &now);
    int inFlightTo(const QString &host) const;

    EventRepository &m_events;
    WebhookRepository &m_webhooks;
    const Clock &m_clock;
    TargetCheck m_targetCheck;
    QNetworkAccessManager m_network;
    QTimer m_poll;
    bool m_woken = false;
    bool m_running = false;
    QHash<QString, InFlight> m_inFlight; // by webhook id
    MailSender m_mailSender;
    QHash<QString, QDateTime> m_lastMail; // by webhook id: when its last mail went (this process's)
};

} // namespace berth
