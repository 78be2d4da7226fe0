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

DeliveryScheduler::DeliveryScheduler(EventRepository &events, WebhookRepository &webhooks, const Clock &clock,
    DeliveryNode node, TargetCheck targetCheck, QObject *parent)
    : QObject(parent)
    , m_events(events)
    , m_webhooks(webhooks)
    , m_clock(clock)
    , m_node(std::move(node))
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
    // This server's data folder has one process: whatever an earlier run of it claimed, it claimed before it died.
    if (const Result<int> released = m_events.releaseEarlierRuns(m_node.name, m_node.run); !released)
        qWarning().noquote() << "webhooks: cannot give up an earlier run's claims:" << released.error().message;
    m_running = true;
    m_poll.start(pollMs);
    wake();
}

void DeliveryScheduler::stop()
{
    m_running = false;
    m_poll.stop();
    // Attempts cut short stay pending: another server may send them at once, this one after its next start.
    const QHash<QString, InFlight> inFlight = std::exchange(m_inFlight, {});
    QStringList claimed;
    for (const InFlight &flight : inFlight) {
        delete flight.attempt;
        claimed.append(flight.delivery.id);
    }
    if (claimed.isEmpty())
        return;
    if (const Result<void> released = m_events.release(claimed, m_node.run); !released)
        qWarning().noquote() << "webhooks: cannot give up the claims of this server:" << released.error().message;
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
    renewLeases(now);
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

void DeliveryScheduler::renewLeases(const QDateTime &now)
{
    QStringList lost;
    for (auto it = m_inFlight.begin(); it != m_inFlight.end(); ++it) {
        if (now.msecsTo(it->claimedUntil) > kLeaseMs / 2)
            continue;
        const QDateTime until = now.addMSecs(kLeaseMs);
        const Result<bool> renewed = m_events.renew(it->delivery.id, m_node.run, until);
        if (!renewed)
            qWarning().noquote() << "webhooks: cannot renew a claim:" << renewed.error().message; // again next look
        else if (renewed.value())
            it->claimedUntil = until;
        else
            lost.append(it.key());
    }
    for (const QString &webhookId : std::as_const(lost)) {
        qWarning().noquote() << "webhooks: the claim on" << m_inFlight.value(webhookId).delivery.id
                             << "ran out and another server took it over";
        drop(webhookId);
    }
}

void DeliveryScheduler::begin(const WebhookDelivery &delivery)
{
    const auto webhook = m_webhooks.find(delivery.webhookId);
    const auto event = m_events.event(delivery.eventId);
    if (!webhook || !event || !webhook.value() || !event.value())
        return; // unreadable now, or removed meanwhile: the next look sees
    const QDateTime now = m_clock.now();
    const QUrl url(webhook.value()->url);
    const bool mail = !EventMail::address(webhook.value()->url).isEmpty();
    if (mail) {
        const QDateTime last = webhook.value()->lastMailAt;
        if (last.isValid() && last.msecsTo(now) < kMailIntervalMs)
            return; // it waits for the mail of the next minute
    } else if (inFlightTo(url.host()) >= kMaxInFlightPerHost) {
        return;
    }
    const QDateTime claimedUntil = claim(delivery, now);
    if (!claimedUntil.isValid())
        return; // another server's, or no longer due
    if (mail) {
        sendMail(delivery, *webhook.value(), claimedUntil);
        return;
    }
    m_inFlight.insert(delivery.webhookId, {delivery, url.host(), now, claimedUntil, nullptr, {}});
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

QDateTime DeliveryScheduler::claim(const WebhookDelivery &delivery, const QDateTime &now)
{
    const QDateTime until = now.addMSecs(kLeaseMs);
    const Result<bool> claimed = m_events.claim(delivery.id, m_node.run, now, until);
    if (!claimed)
        qWarning().noquote() << "webhooks: cannot claim a delivery:" << claimed.error().message;
    return claimed && claimed.value() ? until : QDateTime();
}

void DeliveryScheduler::release(const WebhookDelivery &delivery)
{
    if (const Result<void> released = m_events.release({delivery.id}, m_node.run); !released)
        qWarning().noquote() << "webhooks: cannot give up a claim:" << released.error().message;
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

void DeliveryScheduler::sendMail(const WebhookDelivery &head, const Webhook &webhook, const QDateTime &claimedUntil)
{
    const QDateTime now = m_clock.now();
    const auto due = m_events.dueFor(webhook.id, now, kMaxEventsPerMail);
    // The turn is taken in the database: with another server, at most one mail a minute in all.
    const Result<bool> turn = due && !due.value().isEmpty() && due.value().first().id == head.id
        ? m_webhooks.takeMailTurn(webhook.id, now, kMailIntervalMs)
        : Result<bool>(false);
    if (!turn || !turn.value()) {
        release(head); // unreadable now, changed meanwhile, or another server mailed: the next look sees
        return;
    }
    QList<StoredEvent> events;
    for (const WebhookDelivery &delivery : due.value()) {
        if (const auto event = m_events.event(delivery.eventId); event && event.value())
            events.append(*event.value());
    }
    m_inFlight.insert(webhook.id, {head, QString(), now, claimedUntil, nullptr, due.value().mid(1)});
    if (!m_mailSender) {
        finish(webhook.id, {0, u"mail is not set up on this server"_s});
        return;
    }
    const EventMail::Text mail = EventMail::compose(events);
    m_mailSender(EventMail::address(webhook.url), mail.subject, mail.body)
        .then(this, [this, webhookId = webhook.id, headId = head.id](const QString &error) {
            if (m_inFlight.value(webhookId).delivery.id == headId) // else stopped or taken over meanwhile
                finish(webhookId, {0, error});
        });
}

void DeliveryScheduler::finish(const QString &webhookId, const DeliveryAttempt::Outcome &outcome)
{
    InFlight flight = m_inFlight.take(webhookId);
    if (flight.attempt)
        flight.attempt->deleteLater();
    const QDateTime now = m_clock.now();
    QList<WebhookDelivery> outcomes {afterAttempt(flight.delivery, outcome, now)};
    for (const WebhookDelivery &grouped : std::as_const(flight.grouped))
        outcomes.append(afterAttempt(grouped, outcome, now));
    const Result<bool> settled = m_events.settle(outcomes, m_node.run);
    if (!settled) {
        // The claim stays until its lease runs out; then the delivery goes again (at least once).
        qWarning().noquote() << "webhooks: cannot store the outcome of" << flight.delivery.id << ':'
                             << settled.error().message;
    } else if (!settled.value()) {
        qWarning().noquote() << "webhooks: the outcome of" << flight.delivery.id
                             << "is another server's to store (its claim ran out), or it was removed";
    } else {
        const Result<bool> disabled
            = m_webhooks.recordAttempt(webhookId, outcome.error.isEmpty(), now, kDisableAfterMs);
        if (!disabled)
            qWarning().noquote() << "webhooks: cannot record the health of" << webhookId << ':'
                                 << disabled.error().message;
        else if (disabled.value())
            Q_EMIT webhookDisabled(webhookId);
    }
    wake(); // the webhook's next delivery, or another webhook's, may go now
}

void DeliveryScheduler::drop(const QString &webhookId)
{
    // Never called from an attempt's own signal: deleted at once, it aborts its request and reports nothing more.
    delete m_inFlight.take(webhookId).attempt;
}

WebhookDelivery DeliveryScheduler::afterAttempt(
    WebhookDelivery delivery, const DeliveryAttempt::Outcome &outcome, const QDateTime &now)
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
    return delivery;
}

} // namespace berth
