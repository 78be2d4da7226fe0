#include "domain/events/deliveryscheduler.h"

#include "domain/common/clock.h"
#include "domain/events/eventmail.h"
#include "domain/events/webhooksignature.h"
#include "storage/eventrepository.h"
#include "storage/webhookrepository.h"

#include <QDebug>
#include <QRandomGenerator>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

constexpr qint64 kMinuteMs = 60'000;
constexpr qint64 kHourMs = 60 * kMinuteMs;

} // namespace

QList<qint64> DeliveryScheduler::backoffMs()
{
    return {30'000, 2 * kMinuteMs, 10 * kMinuteMs, kHourMs, 6 * kHourMs, 24 * kHourMs};
}

DeliveryScheduler::DeliveryScheduler(
    EventRepository &events, WebhookRepository &webhooks, const Clock &clock, TargetCheck targetCheck, QObject *parent)
    : QObject(parent)
    , m_events(events)
    , m_webhooks(webhooks)
    , m_clock(clock)
    , m_targetCheck(std::move(targetCheck))
{
    m_network.setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
    connect(&m_poll, &QTimer::timeout, this, &DeliveryScheduler::look);
}

DeliveryScheduler::~DeliveryScheduler()
{
    stop();
}

void DeliveryScheduler::start(int pollMs)
{
    m_running = true;
    m_poll.start(pollMs);
    wake();
}

void DeliveryScheduler::stop()
{
    m_running = false;
    m_poll.stop();
    // Attempts cut short stay pending: they go again after the next start.
    const QHash<QString, InFlight> inFlight = std::exchange(m_inFlight, {});
    for (const InFlight &flight : inFlight)
        delete flight.attempt;
}

void DeliveryScheduler::wake()
{
    if (!m_running || m_woken)
        return;
    m_woken = true;
    QMetaObject::invokeMethod(
        this,
        [this] {
            m_woken = false;
            look();
        },
        Qt::QueuedConnection);
}

int DeliveryScheduler::inFlightTo(const QString &host) const
{
    int count = 0;
    for (const InFlight &flight : m_inFlight)
        count += flight.host == host ? 1 : 0;
    return count;
}

void DeliveryScheduler::look()
{
    if (!m_running)
        return;
    const QDateTime now = m_clock.now();
    // Attempts past their time are cut off here, on the clock, whatever the socket is doing.
    QStringList late;
    for (auto it = m_inFlight.cbegin(); it != m_inFlight.cend(); ++it) {
        if (it->attempt && it->startedAt.msecsTo(now) >= kTimeoutMs)
            late.append(it.key());
    }
    for (const QString &webhookId : late) {
        if (m_inFlight.contains(webhookId))
            m_inFlight.value(webhookId).attempt->abort(u"no answer within %1 s"_s.arg(kTimeoutMs / 1000));
    }
    if (m_inFlight.size() >= kMaxInFlight)
        return;
    const auto due = m_events.due(now, m_inFlight.keys(), kMaxInFlight * 4);
    if (!due) {
        qWarning().noquote() << "webhooks: cannot read the pending deliveries:" << due.error().message;
        return;
    }
    for (const WebhookDelivery &delivery : due.value()) {
        if (m_inFlight.size() >= kMaxInFlight)
            break;
        begin(delivery);
    }
}

void DeliveryScheduler::begin(const WebhookDelivery &delivery)
{
    const auto webhook = m_webhooks.find(delivery.webhookId);
    const auto event = m_events.event(delivery.eventId);
    if (!webhook || !event || !webhook.value() || !event.value())
        return; // unreadable now, or removed meanwhile: the next look sees
    const QUrl url(webhook.value()->url);
    if (const QString to = EventMail::address(webhook.value()->url); !to.isEmpty()) {
        const auto last = m_lastMail.constFind(delivery.webhookId);
        if (last == m_lastMail.cend() || last->msecsTo(m_clock.now()) >= kMailIntervalMs)
            sendMail(delivery, *webhook.value());
        return; // else it waits for the mail of the next minute
    }
    if (inFlightTo(url.host()) >= kMaxInFlightPerHost)
        return;
    m_inFlight.insert(delivery.webhookId, {delivery, url.host(), m_clock.now(), nullptr, {}});
    const QString webhookId = delivery.webhookId;
    m_targetCheck(
        url, this, [this, webhookId, hook = *webhook.value(), stored = *event.value()](const QString &refusal) {
            if (!m_inFlight.contains(webhookId))
                return; // stopped meanwhile
            if (!refusal.isEmpty())
                finish(webhookId, {0, refusal});
            else
                send(webhookId, hook, stored);
        });
}

void DeliveryScheduler::send(const QString &webhookId, const Webhook &webhook, const StoredEvent &event)
{
    InFlight &flight = m_inFlight[webhookId];
    const QDateTime now = m_clock.now();
    flight.startedAt = now;
    const QList<QPair<QByteArray, QByteArray>> headers {
        {"Content-Type", "application/json"},
        {"User-Agent", "Berth/" BERTH_VERSION},
        {"Berth-Event", event.type.toLatin1()},
        {"Berth-Delivery", event.id.toLatin1()},
        {"Berth-Signature", webhookSignature(webhook.secret, now.toSecsSinceEpoch(), event.body)},
    };
    flight.attempt = new DeliveryAttempt(m_network, QUrl(webhook.url), headers, event.body, kTimeoutMs, this);
    connect(flight.attempt, &DeliveryAttempt::finished, this,
        [this, webhookId](const DeliveryAttempt::Outcome &outcome) { finish(webhookId, outcome); });
}

void DeliveryScheduler::sendMail(const WebhookDelivery &head, const Webhook &webhook)
{
    const QDateTime now = m_clock.now();
    const auto due = m_events.dueFor(webhook.id, now, kMaxEventsPerMail);
    if (!due || due.value().isEmpty() || due.value().first().id != head.id)
        return; // unreadable now, or changed meanwhile: the next look sees
    QList<StoredEvent> events;
    for (const WebhookDelivery &delivery : due.value()) {
        if (const auto event = m_events.event(delivery.eventId); event && event.value())
            events.append(*event.value());
    }
    m_inFlight.insert(webhook.id, {head, QString(), now, nullptr, due.value().mid(1)});
    m_lastMail.insert(webhook.id, now);
    if (!m_mailSender) {
        finish(webhook.id, {0, u"mail is not set up on this server"_s});
        return;
    }
    const EventMail::Text mail = EventMail::compose(events);
    m_mailSender(EventMail::address(webhook.url), mail.subject, mail.body)
        .then(this, [this, webhookId = webhook.id, headId = head.id](const QString &error) {
            if (m_inFlight.value(webhookId).delivery.id == headId) // else stopped meanwhile
                finish(webhookId, {0, error});
        });
}

void DeliveryScheduler::finish(const QString &webhookId, const DeliveryAttempt::Outcome &outcome)
{
    InFlight flight = m_inFlight.take(webhookId);
    if (flight.attempt)
        flight.attempt->deleteLater();
    const QDateTime now = m_clock.now();
    settle(flight.delivery, outcome, now);
    for (const WebhookDelivery &grouped : std::as_const(flight.grouped))
        settle(grouped, outcome, now);
    const Result<bool> disabled = m_webhooks.recordAttempt(webhookId, outcome.error.isEmpty(), now, kDisableAfterMs);
    if (!disabled)
        qWarning().noquote() << "webhooks: cannot record the health of" << webhookId << ':' << disabled.error().message;
    else if (disabled.value())
        Q_EMIT webhookDisabled(webhookId);
    wake(); // the webhook's next delivery, or another webhook's, may go now
}

void DeliveryScheduler::settle(WebhookDelivery delivery, const DeliveryAttempt::Outcome &outcome, const QDateTime &now)
{
    delivery.attempts += 1;
    delivery.responseStatus = outcome.status;
    delivery.error = outcome.error;
    const QList<qint64> backoff = backoffMs();
    if (outcome.error.isEmpty()) {
        delivery.status = u"delivered"_s;
        delivery.deliveredAt = now;
        delivery.nextAttemptAt = {};
    } else if (delivery.attempts > backoff.size()) {
        delivery.status = u"failed"_s;
        delivery.nextAttemptAt = {};
    } else {
        const qint64 wait = backoff.at(delivery.attempts - 1);
        const qint64 jitter = QRandomGenerator::global()->bounded(wait / 5 + 1) - wait / 10;
        delivery.nextAttemptAt = now.addMSecs(wait + jitter);
    }
    if (Result<void> stored = m_events.update(delivery); !stored)
        qWarning().noquote() << "webhooks: cannot store the outcome of" << delivery.id << ':' << stored.error().message;
}

} // namespace berth
