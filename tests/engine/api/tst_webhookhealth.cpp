// Webhooks that receivers make hard, over real HTTP on a ManualClock: receivers that never read or trickle, the
// bounds on attempts in flight per host and in all, and a webhook that failed every delivery for 3 days, disabled
// (its owner told) until the owner enables it.
#include "domain/events/deliveryscheduler.h"
#include "domain/events/webhookservice.h"
#include "instance/engine.h"
#include "webhookbench.h"

#include <QSignalSpy>

using namespace Qt::StringLiterals;
using berth::test::TestReply;
using berth::test::WebhookReceiver;

class TestWebhookHealth : public QObject, private berth::test::WebhookBench
{
    Q_OBJECT

private Q_SLOTS:
    void init() { startBench(); }
    void cleanup() { stopBench(); }

    // A receiver that never reads the request, or trickles its answer's header a byte at a time, costs one attempt
    // of 10 s on the clock, like one that never answers; the connection is closed.
    void aReceiverThatNeverReadsOrTricklesIsCutOff_data()
    {
        QTest::addColumn<int>("behaviour"); // a WebhookReceiver::Behaviour
        QTest::newRow("never reads") << int(WebhookReceiver::Behaviour::NeverReads);
        QTest::newRow("trickles") << int(WebhookReceiver::Behaviour::Trickle);
    }
    void aReceiverThatNeverReadsOrTricklesIsCutOff()
    {
        QFETCH(int, behaviour);
        m_receiver->behaviour = static_cast<WebhookReceiver::Behaviour>(behaviour);
        const QString id = addWebhook(m_key, m_receiver->url()).json()[u"id"_s].toString();
        QCOMPARE(client().api("POST", u"/webhooks/%1/ping"_s.arg(id), m_key).status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->acceptedConnections, 1, kWaitMs);
        QTest::qWait(500); // real time for the trickle: a few bytes, never a whole header block
        QCOMPARE(delivery(id)[u"attempts"_s].toInt(), 0);
        clock().advance(10'000);
        QTRY_COMPARE_WITH_TIMEOUT(delivery(id)[u"attempts"_s].toInt(), 1, kWaitMs);
        QCOMPARE(delivery(id)[u"status"_s].toString(), u"pending"_s);
        QVERIFY(delivery(id)[u"error"_s].toString().contains(u"10 s"_s));
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->openConnections, 0, kWaitMs);
    }

    // At most kMaxInFlightPerHost attempts to one host and kMaxInFlight in all, however many webhooks are due.
    void inFlightIsBoundedPerHostAndInTotal()
    {
        using berth::DeliveryScheduler;
        m_receiver->behaviour = WebhookReceiver::Behaviour::Silent;
        QStringList sameHost;
        for (int i = 0; i < DeliveryScheduler::kMaxInFlightPerHost + 1; ++i)
            sameHost.append(addWebhook(m_key, m_receiver->url()).json()[u"id"_s].toString());
        for (const QString &id : sameHost)
            QCOMPARE(client().api("POST", u"/webhooks/%1/ping"_s.arg(id), m_key).status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests.size(), DeliveryScheduler::kMaxInFlightPerHost, kWaitMs);
        QTest::qWait(2 * DeliveryScheduler::kPollMs); // the scheduler's next looks: real time, no backoff
        QCOMPARE(m_receiver->requests.size(), DeliveryScheduler::kMaxInFlightPerHost);
        clock().advance(DeliveryScheduler::kTimeoutMs); // the two cut off: the third goes
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests.size(), DeliveryScheduler::kMaxInFlightPerHost + 1, kWaitMs);
        clock().advance(DeliveryScheduler::kTimeoutMs); // nothing left in flight
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->openConnections, 0, kWaitMs);
        for (const QString &id : sameHost)
            QCOMPARE(client().api("DELETE", u"/webhooks/%1"_s.arg(id), m_key).status, 200);

        // Other hosts (127.0.0.2, ...), two webhooks each: more due than may run at once.
        std::vector<std::unique_ptr<WebhookReceiver>> hosts;
        QStringList ids;
        for (int i = 0; ids.size() <= DeliveryScheduler::kMaxInFlight; ++i) {
            auto &host = hosts.emplace_back(std::make_unique<WebhookReceiver>());
            host->behaviour = WebhookReceiver::Behaviour::Silent;
            QVERIFY(host->listen(QHostAddress(u"127.0.0.%1"_s.arg(i + 2))));
            for (int j = 0; j < 2; ++j)
                ids.append(addWebhook(m_key, host->url()).json()[u"id"_s].toString());
        }
        const auto received = [&hosts] {
            qsizetype count = 0;
            for (const auto &host : hosts)
                count += host->requests.size();
            return count;
        };
        for (const QString &id : ids)
            QCOMPARE(client().api("POST", u"/webhooks/%1/ping"_s.arg(id), m_key).status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(received(), DeliveryScheduler::kMaxInFlight, kWaitMs);
        QTest::qWait(2 * DeliveryScheduler::kPollMs);
        QCOMPARE(received(), DeliveryScheduler::kMaxInFlight);
    }

    // Every attempt failed for 3 days: disabled (its owner told), no new deliveries, until the owner enables it.
    void aWebhookFailingForThreeDaysIsDisabledUntilEnabled()
    {
        QSignalSpy told(&m_fixture->engine().webhooks(), &berth::WebhookService::webhookDisabled);
        m_receiver->statuses = QList<int>(20, 500);
        const QString id = addWebhook(m_key, m_receiver->url()).json()[u"id"_s].toString();
        QCOMPARE(client().api("POST", u"/webhooks/%1/ping"_s.arg(id), m_key).status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(delivery(id)[u"attempts"_s].toInt(), 1, kWaitMs);

        // Failing for a little less than 3 days: still enabled.
        clock().advance(3 * 24 * 3600 * 1000LL - 60'000);
        QTRY_COMPARE_WITH_TIMEOUT(delivery(id)[u"attempts"_s].toInt(), 2, kWaitMs);
        QCOMPARE(webhookJson(id)[u"disabled_at"_s], QJsonValue(QJsonValue::Null));
        QCOMPARE(told.size(), 0);

        // The next failure past 3 days disables it; what was pending fails.
        clock().advance(5 * 60'000);
        QTRY_COMPARE_WITH_TIMEOUT(delivery(id)[u"status"_s].toString(), u"failed"_s, kWaitMs);
        QCOMPARE(delivery(id)[u"attempts"_s].toInt(), 3);
        const QDateTime disabledAt = QDateTime::fromString(webhookJson(id)[u"disabled_at"_s].toString(), Qt::ISODate);
        QCOMPARE(disabledAt, clock().now());
        QCOMPARE(told.size(), 1);
        QCOMPARE(told.at(0).at(0).value<berth::Webhook>().id, id);

        // No new deliveries while disabled.
        m_receiver->statuses.clear();
        QVERIFY(!m_fixture->deploySite(m_key, u"unheard-site"_s).isEmpty());
        QCOMPARE(
            client().api("GET", u"/webhooks/%1/deliveries"_s.arg(id), m_key).json()[u"deliveries"_s].toArray().size(),
            1);

        // Only its owner enables it; then events reach it again.
        const QByteArray other = m_fixture->keyFor(u"other@example.com"_s);
        QCOMPARE(client().api("POST", u"/webhooks/%1/enable"_s.arg(id), other).status, 404);
        const TestReply enabled = client().api("POST", u"/webhooks/%1/enable"_s.arg(id), m_key);
        QCOMPARE(enabled.status, 200);
        QCOMPARE(enabled.json()[u"disabled_at"_s], QJsonValue(QJsonValue::Null));
        QCOMPARE(webhookJson(id)[u"disabled_at"_s], QJsonValue(QJsonValue::Null));
        QVERIFY(!m_fixture->deploySite(m_key, u"heard-site"_s).isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(delivery(id)[u"status"_s].toString(), u"delivered"_s, kWaitMs);
        QCOMPARE(delivery(id)[u"type"_s].toString(), u"deployment.created"_s);
    }

    // A success ends the run of failures: 3 days after the first failure, a webhook that answered since stays enabled.
    void aSuccessEndsTheRunOfFailures()
    {
        m_receiver->statuses = {500};
        const QString id = addWebhook(m_key, m_receiver->url()).json()[u"id"_s].toString();
        QCOMPARE(client().api("POST", u"/webhooks/%1/ping"_s.arg(id), m_key).status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(delivery(id)[u"attempts"_s].toInt(), 1, kWaitMs);
        clock().advance(60'000);
        QTRY_COMPARE_WITH_TIMEOUT(delivery(id)[u"status"_s].toString(), u"delivered"_s, kWaitMs);

        clock().advance(3 * 24 * 3600 * 1000LL);
        m_receiver->statuses = {500};
        QCOMPARE(client().api("POST", u"/webhooks/%1/ping"_s.arg(id), m_key).status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(delivery(id)[u"attempts"_s].toInt(), 1, kWaitMs);
        QCOMPARE(delivery(id)[u"status"_s].toString(), u"pending"_s);
        QCOMPARE(webhookJson(id)[u"disabled_at"_s], QJsonValue(QJsonValue::Null));
    }
};

QTEST_GUILESS_MAIN(TestWebhookHealth)
#include "tst_webhookhealth.moc"
