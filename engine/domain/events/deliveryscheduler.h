#pragma once

#include "domain/events/deliveryattempt.h"
#include "storage/webhook.h"

#include <QDateTime>
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
// first look after start() sends them.
class DeliveryScheduler final : public QObject
{
    Q_OBJECT

public:
    static constexpr int kMaxInFlight = 8;
    static constexpr int kMaxInFlightPerHost = 2;
    static constexpr qint64 kTimeoutMs = 10'000;
    static constexpr int kPollMs = 1000;
    static QList<qint64> backoffMs(); // the wait after the 1st, 2nd, ... failed attempt; failed after the last

    // targetAllowed: whether a host may be delivered to now (the owner's policy), answered through its callback.
    using TargetCheck = std::function<void(const QUrl &url, QObject *context, std::function<void(QString)> done)>;
    DeliveryScheduler(EventRepository &events, WebhookRepository &webhooks, const Clock &clock, TargetCheck targetCheck,
        QObject *parent = nullptr);
    ~DeliveryScheduler() override;

    void start(int pollMs = kPollMs);
    void stop();
    void wake(); // something is due: look at the next turn of the event loop rather than at the next poll

private:
    struct InFlight
    {
        WebhookDelivery delivery;
        QString host;
        QDateTime startedAt;
        DeliveryAttempt *attempt = nullptr; // null while the target is being checked
    };
    void look();
    void begin(const WebhookDelivery &delivery);
    void send(const QString &webhookId, const Webhook &webhook, const StoredEvent &event);
    void finish(const QString &webhookId, const DeliveryAttempt::Outcome &outcome);
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
};

} // namespace berth
