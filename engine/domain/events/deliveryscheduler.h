#pragma once

#include "domain/events/deliveryattempt.h"
#include "domain/events/deliverynode.h"
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
//
// Several servers may share one PostgreSQL database: a delivery goes only from the server that claimed it, for
// kLeaseMs, renewed while it is sent and ended with its outcome. A webhook's oldest pending delivery is the only one
// that can be claimed, so a claimed one holds the rest of its webhook back, on every server. A server that died
// mid-delivery loses its claims when their lease runs out (another server sends them: at least once), or at once when
// it starts again; one that stops gives them up. The minute between mails is kept in the database, for all servers.
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
    static constexpr qint64 kLeaseMs = 30'000; // renewed when less than half of it is left
    static QList<qint64> backoffMs(); // the wait after the 1st, 2nd, ... failed attempt; failed after the last

    // targetAllowed: whether a host may be delivered to now (the owner's policy), answered through its callback.
    using TargetCheck = std::function<void(const QUrl &url, QObject *context, std::function<void(QString)> done)>;
    DeliveryScheduler(EventRepository &events, WebhookRepository &webhooks, const Clock &clock, DeliveryNode node,
        TargetCheck targetCheck, QObject *parent = nullptr);
    ~DeliveryScheduler() override;

    // Sends one mail: finishes with an empty text once the server took it, else why not. Without one, mail fails.
    using MailSender = std::function<QFuture<QString>(const QString &to, const QString &subject, const QString &body)>;
    void setMailSender(MailSender sender) { m_mailSender = std::move(sender); }

    void start(int pollMs = kPollMs); // gives up what an earlier run of this server left claimed
    void stop(); // gives up its claims: other servers may send those deliveries at once
    void wake(); // something is due: look at the next turn of the event loop rather than at the next poll

Q_SIGNALS:
    void webhookDisabled(const QString &webhookId); // it failed every attempt for kDisableAfterMs

private:
    struct InFlight
    {
        WebhookDelivery delivery;
        QString host;
        QDateTime startedAt;
        QDateTime claimedUntil; // the end of this server's lease on `delivery`
        DeliveryAttempt *attempt = nullptr; // null while the target is being checked, and for mail
        QList<WebhookDelivery> grouped; // mail: the deliveries after `delivery` that the same mail carries
    };
    void look();
    void renewLeases(const QDateTime &now);
    void begin(const WebhookDelivery &delivery);
    QDateTime claim(const WebhookDelivery &delivery, const QDateTime &now); // the lease's end; invalid: not claimed
    void release(const WebhookDelivery &delivery);
    void send(const QString &webhookId, const Webhook &webhook, const StoredEvent &event);
    void sendMail(const WebhookDelivery &head, const Webhook &webhook, const QDateTime &claimedUntil);
    void finish(const QString &webhookId, const DeliveryAttempt::Outcome &outcome);
    void drop(const QString &webhookId); // forgets an attempt whose outcome is not this server's to store
    static WebhookDelivery afterAttempt(
        WebhookDelivery delivery, const DeliveryAttempt::Outcome &outcome, const QDateTime &now);
    int inFlightTo(const QString &host) const;

    EventRepository &m_events;
    WebhookRepository &m_webhooks;
    const Clock &m_clock;
    const DeliveryNode m_node;
    TargetCheck m_targetCheck;
    QNetworkAccessManager m_network;
    QTimer m_poll;
    bool m_woken = false;
    bool m_running = false;
    QHash<QString, InFlight> m_inFlight; // by webhook id
    MailSender m_mailSender;
};

} // namespace berth
