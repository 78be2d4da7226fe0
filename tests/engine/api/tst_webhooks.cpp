// Webhooks over real HTTP: the API (docs/api.md), events for each change, signed deliveries to a receiver on
// loopback, retries with backoff on a ManualClock (time is advanced, never waited for), hostile receivers, the target
// policy, pending deliveries across a restart, and a change and its event in one transaction. Bounds, more hostile
// receivers and disabling: tst_webhookhealth.
#include "instance/engine.h"
#include "webhookbench.h"

#include <QJsonDocument>
#include <QMessageAuthenticationCode>

using namespace Qt::StringLiterals;
using berth::test::TestReply;
using berth::test::WebhookReceiver;

class TestWebhooks : public QObject, private berth::test::WebhookBench
{
    Q_OBJECT

private:
    static QByteArray sign(const QByteArray &secret, const QByteArray &t, const QByteArray &body)
    {
        return QMessageAuthenticationCode::hash(t + '.' + body, secret, QCryptographicHash::Sha256).toHex();
    }
    QStringList receivedTypes() const
    {
        QStringList types;
        for (const auto &request : m_receiver->requests)
            types.append(QString::fromLatin1(request.header("berth-event")));
        return types;
    }

private Q_SLOTS:
    void init() { startBench(); }
    void cleanup() { stopBench(); }

    void aDeliveryCarriesEveryHeaderAndAValidSignature()
    {
        const TestReply added = addWebhook(m_key, m_receiver->url());
        QCOMPARE(added.status, 200);
        const QString id = added.json()[u"id"_s].toString();
        const QByteArray secret = added.json()[u"secret"_s].toString().toLatin1();
        QVERIFY(id.startsWith(u"wh_"_s));
        QVERIFY(secret.startsWith("whsec_"));
        QCOMPARE(added.json()[u"events"_s].toArray().size(), kAllEvents.size());

        // The secret is shown once.
        const TestReply listed = client().api("GET", u"/webhooks"_s, m_key);
        QCOMPARE(listed.status, 200);
        QCOMPARE(listed.json()[u"webhooks"_s].toArray().size(), 1);
        QVERIFY(!listed.body.contains(secret));
        QVERIFY(!listed.json()[u"webhooks"_s].toArray().at(0).toObject().contains(u"secret"_s));

        const TestReply ping = client().api("POST", u"/webhooks/%1/ping"_s.arg(id), m_key);
        QCOMPARE(ping.status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests.size(), 1, kWaitMs);
        const WebhookReceiver::Request &request = m_receiver->requests.first();
        QCOMPARE(request.method, "POST");
        QCOMPARE(request.path, "/hook");
        QCOMPARE(request.header("content-type"), "application/json");
        QCOMPARE(request.header("user-agent"), "Berth/" BERTH_VERSION);
        QCOMPARE(request.header("berth-event"), "ping");
        const QJsonObject event = QJsonDocument::fromJson(request.body).object();
        QCOMPARE(event[u"type"_s].toString(), u"ping"_s);
        QVERIFY(event[u"id"_s].toString().startsWith(u"evt_"_s));
        QCOMPARE(request.header("berth-delivery"), event[u"id"_s].toString().toLatin1());
        QCOMPARE(event[u"created_at"_s].toString(), u"2026-11-21T06:00:00Z"_s);
        QCOMPARE(event[u"data"_s].toObject()[u"webhook_id"_s].toString(), id);

        const QList<QByteArray> parts = request.header("berth-signature").split(',');
        QCOMPARE(parts.size(), 2);
        QVERIFY(parts.at(0).startsWith("t="));
        QVERIFY(parts.at(1).startsWith("v1="));
        const QByteArray t = parts.at(0).mid(2);
        QCOMPARE(t.toLongLong(), kStart.toSecsSinceEpoch());
        QCOMPARE(parts.at(1).mid(3), sign(secret, t, request.body));
        QVERIFY(parts.at(1).mid(3) != sign("whsec_other", t, request.body)); // the check can fail

        QTRY_COMPARE_WITH_TIMEOUT(delivery(id)[u"status"_s].toString(), u"delivered"_s, kWaitMs);
        const QJsonObject done = delivery(id);
        QCOMPARE(done[u"attempts"_s].toInt(), 1);
        QCOMPARE(done[u"response_status"_s].toInt(), 200);
        QCOMPARE(done[u"event_id"_s].toString(), event[u"id"_s].toString());
        QCOMPARE(done[u"type"_s].toString(), u"ping"_s);
        QCOMPARE(done[u"id"_s].toString(), ping.json()[u"id"_s].toString());
        QVERIFY(done[u"next_attempt_at"_s].isNull());
        QCOMPARE(done[u"delivered_at"_s].toString(), u"2026-11-21T06:00:00Z"_s);
    }

    void anEventArrivesForEachChangeInOrder()
    {
        QCOMPARE(addWebhook(m_key, m_receiver->url()).status, 200);
        const QString id = m_fixture->deploySite(
            m_key, u"hooked-site"_s, u"<form method=\"post\" action=\"/_submit\"><input name=\"x\"></form>"_s);
        QVERIFY(!id.isEmpty());
        QCOMPARE(client().api("PUT", u"/deploy/%1"_s.arg(id), m_key, QJsonObject {{u"html"_s, u"<p>two</p>"_s}}).status,
            200);
        QCOMPARE(
            client().api("POST", u"/deploy/%1/rollback"_s.arg(id), m_key, QJsonObject {{u"version"_s, 1}}).status, 200);
        QCOMPARE(client()
                     .api("PATCH", u"/deploy/%1/slug"_s.arg(id), m_key, QJsonObject {{u"slug"_s, u"hooked-renamed"_s}})
                     .status,
            200);
        const TestReply submitted = client().request("POST", m_fixture->siteHost(u"hooked-renamed"_s), u"/_submit"_s,
            "{\"zeta\":\"1\",\"alpha\":\"2\",\"mid\":\"3\"}", {{"Content-Type", "application/json"}});
        QVERIFY2(submitted.status == 200 || submitted.status == 303, submitted.body.constData());
        QCOMPARE(client().api("DELETE", u"/deploy/%1"_s.arg(id), m_key).status, 200);

        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests.size(), 6, kWaitMs);
        QCOMPARE(receivedTypes(),
            (QStringList {u"deployment.created"_s, u"deployment.updated"_s, u"deployment.updated"_s, // the rollback
                u"deployment.renamed"_s, u"submission.created"_s, u"deployment.deleted"_s}));
        QStringList slugs;
        for (const auto &request : m_receiver->requests) {
            const QJsonObject data = QJsonDocument::fromJson(request.body).object()[u"data"_s].toObject();
            QCOMPARE(data[u"deployment_id"_s].toString(), id);
            slugs.append(data[u"slug"_s].toString());
            QCOMPARE(data[u"url"_s].toString(),
                u"http://%1.localhost:%2"_s.arg(slugs.last()).arg(m_fixture->engine().port()));
        }
        QCOMPARE(slugs,
            (QStringList {u"hooked-site"_s, u"hooked-site"_s, u"hooked-site"_s, u"hooked-renamed"_s,
                u"hooked-renamed"_s, u"hooked-renamed"_s}));
        // The fields in the form's order, not sorted.
        const QByteArray submission = m_receiver->requests.at(4).body;
        QVERIFY2(
            submission.contains("\"fields\":{\"zeta\":\"1\",\"alpha\":\"2\",\"mid\":\"3\"}"), submission.constData());
        QVERIFY(submission.contains("\"submission_id\":\"sub_"));
        QVERIFY(m_receiver->requests.at(5).body.contains("\"reason\":\"deleted\""));
    }

    void aFilterAndTheEventListLimitWhatIsSent()
    {
        const QString first = m_fixture->deploySite(m_key, u"first-site"_s);
        const QString second = m_fixture->deploySite(m_key, u"second-site"_s);
        QCOMPARE(addWebhook(m_key, m_receiver->url(), {u"deployment.deleted"_s}, second).status, 200);
        QCOMPARE(client().api("DELETE", u"/deploy/%1"_s.arg(first), m_key).status, 200);
        QCOMPARE(client().api("DELETE", u"/deploy/%1"_s.arg(second), m_key).status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests.size(), 1, kWaitMs);
        QVERIFY(m_receiver->requests.first().body.contains(second.toLatin1()));
    }

    void aReceiverAnswering500TwiceGetsTheThirdAttempt()
    {
        m_receiver->statuses = {500, 500};
        const QString id = addWebhook(m_key, m_receiver->url()).json()[u"id"_s].toString();
        QCOMPARE(client().api("POST", u"/webhooks/%1/ping"_s.arg(id), m_key).status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(delivery(id)[u"attempts"_s].toInt(), 1, kWaitMs);
        QJsonObject pending = delivery(id);
        QCOMPARE(pending[u"status"_s].toString(), u"pending"_s);
        QCOMPARE(pending[u"response_status"_s].toInt(), 500);
        QCOMPARE(pending[u"error"_s].toString(), u"HTTP 500"_s);
        // About 30 s later, with jitter.
        const qint64 wait
            = kStart.msecsTo(QDateTime::fromString(pending[u"next_attempt_at"_s].toString(), Qt::ISODate));
        QVERIFY2(wait >= 26'000 && wait <= 34'000, QByteArray::number(wait).constData());
        QCOMPARE(m_receiver->requests.size(), 1);

        clock().advance(34'000);
        QTRY_COMPARE_WITH_TIMEOUT(delivery(id)[u"attempts"_s].toInt(), 2, kWaitMs);
        pending = delivery(id);
        QCOMPARE(pending[u"status"_s].toString(), u"pending"_s);
        const qint64 second
            = clock().now().msecsTo(QDateTime::fromString(pending[u"next_attempt_at"_s].toString(), Qt::ISODate));
        QVERIFY2(second >= 100'000 && second <= 135'000, QByteArray::number(second).constData());

        clock().advance(135'000);
        QTRY_COMPARE_WITH_TIMEOUT(delivery(id)[u"status"_s].toString(), u"delivered"_s, kWaitMs);
        QCOMPARE(delivery(id)[u"attempts"_s].toInt(), 3);
        QCOMPARE(m_receiver->requests.size(), 3);
        // The same event each time.
        QCOMPARE(
            m_receiver->requests.at(2).header("berth-delivery"), m_receiver->requests.at(0).header("berth-delivery"));
    }

    void aReceiverThatNeverAnswersIsCutOffAndRetried()
    {
        m_receiver->behaviour = WebhookReceiver::Behaviour::Silent;
        const QString id = addWebhook(m_key, m_receiver->url()).json()[u"id"_s].toString();
        QCOMPARE(client().api("POST", u"/webhooks/%1/ping"_s.arg(id), m_key).status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests.size(), 1, kWaitMs);
        QCOMPARE(delivery(id)[u"attempts"_s].toInt(), 0);
        clock().advance(9'000);
        QCOMPARE(delivery(id)[u"attempts"_s].toInt(), 0);
        clock().advance(1'000);
        QTRY_COMPARE_WITH_TIMEOUT(delivery(id)[u"attempts"_s].toInt(), 1, kWaitMs);
        QCOMPARE(delivery(id)[u"status"_s].toString(), u"pending"_s);
        QVERIFY(delivery(id)[u"error"_s].toString().contains(u"10 s"_s));
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->openConnections, 0, kWaitMs);

        m_receiver->behaviour = WebhookReceiver::Behaviour::Answer;
        clock().advance(34'000);
        QTRY_COMPARE_WITH_TIMEOUT(delivery(id)[u"status"_s].toString(), u"delivered"_s, kWaitMs);
        QCOMPARE(delivery(id)[u"attempts"_s].toInt(), 2);
    }

    void aHugeAnswerIsNotRead()
    {
        m_receiver->behaviour = WebhookReceiver::Behaviour::Huge;
        const QString id = addWebhook(m_key, m_receiver->url()).json()[u"id"_s].toString();
        QCOMPARE(client().api("POST", u"/webhooks/%1/ping"_s.arg(id), m_key).status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(delivery(id)[u"status"_s].toString(), u"delivered"_s, kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->openConnections, 0, kWaitMs);
        // What the sockets' buffers took, nowhere near the gigabyte announced.
        QVERIFY2(
            m_receiver->hugeBytesSent < 64 * 1024 * 1024, QByteArray::number(m_receiver->hugeBytesSent).constData());
    }

    void aRedirectIsNotFollowed()
    {
        m_receiver->statuses = {302};
        const QString id = addWebhook(m_key, m_receiver->url()).json()[u"id"_s].toString();
        QCOMPARE(client().api("POST", u"/webhooks/%1/ping"_s.arg(id), m_key).status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(delivery(id)[u"attempts"_s].toInt(), 1, kWaitMs);
        QCOMPARE(delivery(id)[u"status"_s].toString(), u"pending"_s);
        QCOMPARE(delivery(id)[u"response_status"_s].toInt(), 302);
        QCOMPARE(m_receiver->requests.size(), 1);
    }

    void anotherUsersWebhookIsNotFound()
    {
        const QString id = addWebhook(m_key, m_receiver->url()).json()[u"id"_s].toString();
        QCOMPARE(client().api("POST", u"/webhooks/%1/ping"_s.arg(id), m_key).status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(delivery(id)[u"status"_s].toString(), u"delivered"_s, kWaitMs);
        const QString deliveryId = delivery(id)[u"id"_s].toString();

        const QByteArray other = m_fixture->keyFor(u"other@example.com"_s);
        QCOMPARE(client().api("GET", u"/webhooks"_s, other).json()[u"webhooks"_s].toArray().size(), 0);
        QCOMPARE(client().api("GET", u"/webhooks/%1/deliveries"_s.arg(id), other).status, 404);
        QCOMPARE(client().api("POST", u"/webhooks/%1/ping"_s.arg(id), other).status, 404);
        QCOMPARE(client().api("POST", u"/webhooks/%1/deliveries/%2/retry"_s.arg(id, deliveryId), other).status, 404);
        QCOMPARE(client().api("DELETE", u"/webhooks/%1"_s.arg(id), other).status, 404);
        QCOMPARE(client().api("GET", u"/webhooks"_s, m_key).json()[u"webhooks"_s].toArray().size(), 1);

        // The owner's retry sends it again; the owner's delete removes it.
        QCOMPARE(client().api("POST", u"/webhooks/%1/deliveries/%2/retry"_s.arg(id, deliveryId), m_key).status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests.size(), 2, kWaitMs);
        QCOMPARE(client().api("DELETE", u"/webhooks/%1"_s.arg(id), m_key).status, 200);
        QCOMPARE(client().api("GET", u"/webhooks/%1/deliveries"_s.arg(id), m_key).status, 404);
    }

    void requestsAreChecked()
    {
        for (int i = 0; i < 20; ++i)
            QCOMPARE(addWebhook(m_key, m_receiver->url()).status, 200);
        const TestReply twentyFirst = addWebhook(m_key, m_receiver->url());
        QCOMPARE(twentyFirst.status, 403);
        QVERIFY(twentyFirst.error().contains(u"20"_s));

        const QByteArray other = m_fixture->keyFor(u"checked@example.com"_s);
        const TestReply unknown = addWebhook(other, m_receiver->url(), {u"submission.created"_s, u"site.exploded"_s});
        QCOMPARE(unknown.status, 400);
        QVERIFY(unknown.error().contains(u"site.exploded"_s));
        QCOMPARE(addWebhook(other, u"ftp://127.0.0.1/x"_s).status, 400);
        QCOMPARE(addWebhook(other, u"mailto:me@example.com,you@example.com"_s).status, 400); // one address only
        QCOMPARE(addWebhook(other, u"not a url"_s).status, 400);
        QCOMPARE(addWebhook(other, m_receiver->url(), {}).status, 400);
        const QString mine = m_fixture->deploySite(m_key, u"not-theirs"_s);
        QCOMPARE(addWebhook(other, m_receiver->url(), kAllEvents, mine).status, 400);
    }

    void thePublicPolicyRefusesLoopback()
    {
        setTargets(u"public"_s);
        const TestReply refused = addWebhook(m_key, m_receiver->url());
        QCOMPARE(refused.status, 400);
        QVERIFY(refused.error().contains(u"public"_s));
        QCOMPARE(addWebhook(m_key, u"http://localhost:%1/"_s.arg(m_receiver->port())).status, 400);
        QCOMPARE(addWebhook(m_key, u"http://10.1.2.3/"_s).status, 400);
        QCOMPARE(addWebhook(m_key, u"http://169.254.169.254/"_s).status, 400);
        setTargets(u"lan"_s);
        QCOMPARE(addWebhook(m_key, u"http://10.1.2.3/"_s).status, 200);
        QCOMPARE(addWebhook(m_key, m_receiver->url()).status, 400);

        // Added while allowed, then refused: not delivered to.
        setTargets(u"any"_s);
        const QString id = addWebhook(m_key, m_receiver->url()).json()[u"id"_s].toString();
        setTargets(u"public"_s);
        QCOMPARE(client().api("POST", u"/webhooks/%1/ping"_s.arg(id), m_key).status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(delivery(id)[u"attempts"_s].toInt(), 1, kWaitMs);
        QVERIFY(delivery(id)[u"error"_s].toString().contains(u"public"_s));
        QCOMPARE(m_receiver->requests.size(), 0);
    }

    // The event is written in the change's own transaction: when it cannot be stored, the change is not made either.
    void aChangeWhoseEventCannotBeStoredIsNotMade()
    {
        QCOMPARE(addWebhook(m_key, m_receiver->url()).status, 200);
        const QString form = m_fixture->deploySite(
            m_key, u"form-site"_s, u"<form method=\"post\" action=\"/_submit\"><input name=\"x\"></form>"_s);
        QVERIFY(!form.isEmpty());
        {
            const auto db = m_fixture->database();
            QVERIFY(db->open());
            QSqlQuery query(db->connection());
            QVERIFY(query.exec(u"ALTER TABLE events RENAME TO events_away"_s));
        }
        const TestReply deployed = client().api(
            "POST", u"/deploy"_s, m_key, QJsonObject {{u"slug"_s, u"lost-site"_s}, {u"html"_s, u"<p>x</p>"_s}});
        QCOMPARE(deployed.status, 500);
        QVERIFY(!deployed.body.contains("events")); // nothing of the database's words
        QCOMPARE(client().site(u"lost-site"_s).status, 404);
        const TestReply submitted = client().request("POST", m_fixture->siteHost(u"form-site"_s), u"/_submit"_s,
            "{\"x\":\"1\"}", {{"Content-Type", "application/json"}});
        QVERIFY2(submitted.status >= 500, submitted.body.constData());
        const TestReply stored = client().api("GET", u"/deploy/%1/submissions"_s.arg(form), m_key);
        QCOMPARE(stored.status, 200);
        QCOMPARE(stored.json()[u"total"_s].toInt(), 0);
        const QJsonArray deploys = client().api("GET", u"/deploys"_s, m_key).json()[u"deployments"_s].toArray();
        QCOMPARE(deploys.size(), 1);
    }

    void aPendingDeliveryGoesOutAfterARestart()
    {
        const QString id = addWebhook(m_key, m_receiver->url()).json()[u"id"_s].toString();
        m_receiver->close(); // refused: the delivery stays pending
        QCOMPARE(client().api("POST", u"/webhooks/%1/ping"_s.arg(id), m_key).status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(delivery(id)[u"attempts"_s].toInt(), 1, kWaitMs);
        QCOMPARE(delivery(id)[u"status"_s].toString(), u"pending"_s);

        QVERIFY(m_receiver->listen()); // the same port
        QVERIFY(m_fixture->restart());
        clock().advance(34'000);
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests.size(), 1, kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(delivery(id)[u"status"_s].toString(), u"delivered"_s, kWaitMs);
        QCOMPARE(delivery(id)[u"attempts"_s].toInt(), 2);
    }
};

QTEST_GUILESS_MAIN(TestWebhooks)
#include "tst_webhooks.moc"
