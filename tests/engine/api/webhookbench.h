#pragma once

#include "domain/common/clock.h"
#include "enginefixture.h"
#include "storage/database.h"
#include "webhookreceiver.h"

#include <QJsonArray>
#include <QSqlQuery>
#include <QTest>

namespace berth::test {

// What the webhook suites share: an engine on a ManualClock, a receiver on loopback, a user's key, the target policy
// "any" (the receiver is on loopback), and the API calls the tests make. A base of the test classes, so that their
// bodies read m_fixture, m_receiver and m_key directly.
class WebhookBench
{
protected:
    static inline const QDateTime kStart {QDate(2026, 11, 21), QTime(6, 0), Qt::UTC};
    static constexpr int kWaitMs = 10'000; // for what happens at the next poll: real time, never a backoff
    static inline const QStringList kAllEvents {QStringLiteral("deployment.created"),
        QStringLiteral("deployment.updated"), QStringLiteral("deployment.renamed"),
        QStringLiteral("deployment.deleted"), QStringLiteral("submission.created")};

    std::unique_ptr<EngineFixture> m_fixture;
    std::unique_ptr<WebhookReceiver> m_receiver;
    QByteArray m_key;

    void startBench()
    {
        m_fixture = std::make_unique<EngineFixture>();
        QVERIFY(m_fixture->startWithClock(kStart));
        m_receiver = std::make_unique<WebhookReceiver>();
        QVERIFY(m_receiver->listen());
        m_key = m_fixture->keyFor(QStringLiteral("hooks@example.com"));
        setTargets(QStringLiteral("any"));
    }
    void stopBench()
    {
        m_fixture.reset();
        m_receiver.reset();
    }

    HttpTestClient &client() { return m_fixture->client(); }
    ManualClock &clock() { return m_fixture->clock(); }

    void setTargets(const QString &policy)
    {
        const auto db = m_fixture->database();
        QVERIFY(db->open());
        QSqlQuery query(db->connection());
        query.prepare(QStringLiteral("INSERT INTO settings (key, value) VALUES ('webhook_targets', ?) ON CONFLICT(key) "
                                     "DO UPDATE SET value = excluded.value"));
        query.addBindValue(policy);
        QVERIFY(query.exec());
    }
    TestReply addWebhook(const QByteArray &key, const QString &url, const QStringList &events = kAllEvents,
        const QString &deploymentId = {})
    {
        QJsonObject body {{QStringLiteral("url"), url}, {QStringLiteral("events"), QJsonArray::fromStringList(events)}};
        if (!deploymentId.isEmpty())
            body.insert(QStringLiteral("deployment_id"), deploymentId);
        return client().api("POST", QStringLiteral("/webhooks"), key, body);
    }
    // The webhook's delivery at index of its log, newest first.
    QJsonObject delivery(const QString &webhookId, int index = 0)
    {
        const TestReply reply = client().api("GET", QStringLiteral("/webhooks/%1/deliveries").arg(webhookId), m_key);
        return reply.json()[QStringLiteral("deliveries")].toArray().at(index).toObject();
    }
    // The webhook as GET /webhooks shows it.
    QJsonObject webhookJson(const QString &id)
    {
        const TestReply reply = client().api("GET", QStringLiteral("/webhooks"), m_key);
        for (const QJsonValue &webhook : reply.json()[QStringLiteral("webhooks")].toArray()) {
            if (webhook[QStringLiteral("id")].toString() == id)
                return webhook.toObject();
        }
        return {};
    }
};

} // namespace berth::test
