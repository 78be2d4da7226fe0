// Webhooks from two servers on one PostgreSQL database (the CTest fixture's cluster; those tests skip without it), on
// one ManualClock, with one receiver on loopback: each event is delivered once, in order per webhook, wherever it was
// recorded; a delivery claimed by a server that died goes from the other once the claim's lease has run out, and not
// before, nor anything queued behind it; one claimed by a server that stopped goes from the other at once; mail through
// a real SMTP server (aiosmtpd) stays at one a minute per webhook across both servers. And berthd as a child process:
// `webhooks list --json` and `deliveries --json` print what the API answers. Under it all, the claim rules of the
// repositories, on SQLite.
#include "berthdprocess.h"
#include "domain/accounts/signinpolicy.h"
#include "domain/common/clock.h"
#include "domain/events/deliverynode.h"
#include "domain/events/deliveryscheduler.h"
#include "enginefixture.h"
#include "instance/engine.h"
#include "postgrescluster.h"
#include "smtptestserver.h"
#include "storage/database.h"
#include "storage/eventrepository.h"
#include "storage/webhookrepository.h"
#include "webhookreceiver.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;
using namespace berth::test;

namespace {
const QDateTime kStart(QDate(2026, 11, 21), QTime(6, 0), Qt::UTC);
constexpr int kWaitMs = 30'000; // real time, for what the next looks of both schedulers do: never a backoff
const QString kSite = u"cluster-form"_s;
const QString kOwnerMail = u"hooks@example.test"_s;
// A server that died holding a claim: no live run is named so.
const QString kDeadRun = u"0123456789abcdef/dead"_s;
} // namespace

class TestWebhookCluster : public QObject
{
    Q_OBJECT

    std::unique_ptr<PostgresTestDatabase> m_database;
    std::unique_ptr<ManualClock> m_clock;
    std::unique_ptr<EngineFixture> m_a; // node A: takes the deploy before B starts
    std::unique_ptr<QTemporaryDir> m_folderB;
    std::unique_ptr<Engine> m_b;
    std::unique_ptr<HttpTestClient> m_clientB;
    std::unique_ptr<WebhookReceiver> m_receiver;
    QByteArray m_key;

    // Both nodes on a fresh database, the receiver listening; skips without a cluster (then m_b stays null).
    void startNodes()
    {
        BERTH_CREATE_FRESH_POSTGRES_DATABASE(m_database);
        m_clock = std::make_unique<ManualClock>(kStart);
        EngineSettings settings;
        settings.databaseUrl = m_database->url();
        settings.clock = m_clock.get();
        m_a = std::make_unique<EngineFixture>();
        QVERIFY(m_a->start(settings));
        m_key = m_a->keyFor(kOwnerMail);
        QVERIFY(!m_a->deploySite(m_key, kSite, u"<form method=post action=/_submit><input name=n></form>"_s).isEmpty());
        QVERIFY(run(u"INSERT INTO settings (key, value) VALUES ('webhook_targets', 'any') ON CONFLICT(key) DO UPDATE "
                    "SET value = excluded.value"_s));
        m_folderB = std::make_unique<QTemporaryDir>();
        settings.dataDir = m_folderB->path();
        settings.listenPort = 0;
        settings.servingThreads = 2;
        auto b = std::make_unique<Engine>(settings);
        const Result<void> started = b->start();
        QVERIFY2(started, started ? "" : qPrintable(started.error().message));
        m_clientB = std::make_unique<HttpTestClient>(b->port());
        m_b = std::move(b);
        m_receiver = std::make_unique<WebhookReceiver>();
        QVERIFY(m_receiver->listen());
    }
    HttpTestClient &client(int node) { return node == 0 ? m_a->client() : *m_clientB; }
    quint16 port(int node) const { return node == 0 ? m_a->engine().port() : m_b->port(); }

    QString addWebhook(int node, const QString &url, const QString &event = u"submission.created"_s)
    {
        const TestReply added = client(node).api(
            "POST", u"/webhooks"_s, m_key, QJsonObject {{u"url"_s, url}, {u"events"_s, QJsonArray {event}}});
        return added.status == 200 ? added.json()[u"id"_s].toString() : QString();
    }
    int submit(int node, const QByteArray &json)
    {
        return client(node)
            .request("POST", u"%1.localhost:%2"_s.arg(kSite).arg(port(node)), u"/_submit"_s, json,
                {{"Content-Type", "application/json"}})
            .status;
    }
    int ping(int node, const QString &webhookId)
    {
        return client(node).api("POST", u"/webhooks/%1/ping"_s.arg(webhookId), m_key).status;
    }

    // One statement on the shared database: the first column of each row it gave, as text; *ran whether it ran.
    QStringList column(const QString &statement, const QVariantList &values = {}, bool *ran = nullptr)
    {
        const auto db = m_a->database();
        QStringList found;
        if (!db->open())
            return found;
        QSqlQuery query(db->connection());
        query.prepare(statement);
        for (const QVariant &value : values)
            query.addBindValue(value);
        const bool executed = query.exec();
        if (!executed)
            qWarning("%s", qPrintable(query.lastError().text()));
        if (ran)
            *ran = executed;
        while (query.next())
            found.append(query.value(0).toString());
        return found;
    }
    bool run(const QString &statement, const QVariantList &values = {})
    {
        bool ran = false;
        column(statement, values, &ran);
        return ran;
    }
    // The events of a webhook's deliveries in the order they were recorded.
    QStringList recordedEvents(const QString &webhookId)
    {
        return column(u"SELECT event_id FROM webhook_deliveries WHERE webhook_id = ? ORDER BY seq"_s, {webhookId});
    }
    // What the receiver was sent on `path`, in the order it arrived.
    QStringList receivedEvents(const QByteArray &path = "/hook") const
    {
        QStringList events;
        for (const WebhookReceiver::Request &request : m_receiver->requests) {
            if (request.path == path)
                events.append(QString::fromLatin1(request.header("berth-delivery")));
        }
        return events;
    }
    static QString storageTime(const QDateTime &time) { return time.toUTC().toString(Qt::ISODateWithMs); }

private Q_SLOTS:
    void cleanup()
    {
        m_clientB.reset();
        m_b.reset();
        m_folderB.reset();
        m_a.reset();
        m_database.reset();
        m_receiver.reset();
    }

    // The rules of a claim, on the repositories over a real SQLite file: what the servers above rely on.
    void aClaimIsTakenOnceOnlyForTheHeadAndOnlyItsHolderSettles()
    {
        QTemporaryDir folder;
        Database db(QDir(folder.path()).filePath(u"berth.sqlite"_s));
        QVERIFY(db.open());
        QVERIFY(
            QSqlQuery(db.connection())
                .exec(u"INSERT INTO users (id, email, plan, is_owner, created_at) VALUES ('usr_1', NULL, 'free', 0, "
                      "'2026-11-21T06:00:00.000Z')"_s));
        WebhookRepository webhooks(db);
        EventRepository events(db);
        Webhook webhook;
        webhook.id = u"wh_1"_s;
        webhook.userId = u"usr_1"_s;
        webhook.url = u"mailto:a@example.test"_s;
        webhook.events = QStringList {u"ping"_s};
        webhook.secret = "whsec_x";
        webhook.createdAt = kStart;
        QVERIFY(webhooks.insert(webhook, 20));
        for (const QString &n : {u"1"_s, u"2"_s}) {
            WebhookDelivery delivery;
            delivery.id = u"dlv_"_s + n;
            delivery.webhookId = u"wh_1"_s;
            delivery.nextAttemptAt = kStart;
            QVERIFY(events.record({u"evt_"_s + n, u"ping"_s, "{}", kStart}, {delivery}));
        }
        const QDateTime until = kStart.addMSecs(DeliveryScheduler::kLeaseMs);
        const QDateTime later = until.addMSecs(DeliveryScheduler::kLeaseMs);
        QCOMPARE(events.claim(u"dlv_2"_s, u"a/1"_s, kStart, until).value(), false); // not the head
        QCOMPARE(events.claim(u"dlv_1"_s, u"a/1"_s, kStart, until).value(), true);
        QCOMPARE(events.claim(u"dlv_1"_s, u"b/1"_s, kStart, until).value(), false); // held
        QVERIFY(events.due(kStart, {}, 10).value().isEmpty()); // its whole webhook waits
        QCOMPARE(events.renew(u"dlv_1"_s, u"a/1"_s, until.addMSecs(-1)).value(), true);
        QCOMPARE(events.claim(u"dlv_1"_s, u"b/1"_s, until.addMSecs(-2), later).value(), false);

        // Once the lease has run out another takes it over, and only the new holder stores an outcome.
        QCOMPARE(events.due(until, {}, 10).value().size(), 1);
        QCOMPARE(events.claim(u"dlv_1"_s, u"b/1"_s, until, later).value(), true);
        QCOMPARE(events.renew(u"dlv_1"_s, u"a/1"_s, later).value(), false);
        WebhookDelivery delivered = events.findDelivery(u"wh_1"_s, u"dlv_1"_s).value().value();
        delivered.status = u"delivered"_s;
        delivered.attempts = 1;
        delivered.deliveredAt = until;
        QCOMPARE(events.settle({delivered}, u"a/1"_s).value(), false);
        QCOMPARE(events.findDelivery(u"wh_1"_s, u"dlv_1"_s).value()->status, u"pending"_s);
        QCOMPARE(events.settle({delivered}, u"b/1"_s).value(), true);
        QCOMPARE(events.findDelivery(u"wh_1"_s, u"dlv_1"_s).value()->status, u"delivered"_s);

        // The next is the head now. A later run of "a" gives up what its earlier runs held, never what "b" holds.
        QCOMPARE(events.claim(u"dlv_2"_s, u"a/1"_s, until, later).value(), true);
        QCOMPARE(events.releaseEarlierRuns(u"a"_s, u"a/2"_s).value(), 1);
        QCOMPARE(events.claim(u"dlv_2"_s, u"b/1"_s, until, later).value(), true);
        QCOMPARE(events.releaseEarlierRuns(u"a"_s, u"a/2"_s).value(), 0);
        QVERIFY(events.release({u"dlv_2"_s}, u"b/1"_s));
        QCOMPARE(events.claim(u"dlv_2"_s, u"a/2"_s, until, later).value(), true);

        // One mail a minute, whoever asks.
        QCOMPARE(webhooks.takeMailTurn(u"wh_1"_s, kStart, 60'000).value(), true);
        QCOMPARE(webhooks.takeMailTurn(u"wh_1"_s, kStart.addMSecs(59'999), 60'000).value(), false);
        QCOMPARE(webhooks.takeMailTurn(u"wh_1"_s, kStart.addMSecs(60'000), 60'000).value(), true);
        QCOMPARE(webhooks.find(u"wh_1"_s).value()->lastMailAt, kStart.addMSecs(60'000));
    }

    void eachEventIsDeliveredOnceAndInOrder()
    {
        startNodes();
        if (!m_b)
            return;
        const QString first = addWebhook(0, m_receiver->url() + u"?first"_s);
        const QString second = addWebhook(1, m_receiver->url() + u"?second"_s);
        QVERIFY(!first.isEmpty() && !second.isEmpty());
        constexpr int kSubmissions = 12;
        for (int i = 0; i < kSubmissions; ++i)
            QCOMPARE(submit(i % 2, R"({"n":")" + QByteArray::number(i) + R"("})"), 200);
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests.size(), 2 * kSubmissions, kWaitMs);
        QTest::qWait(3 * DeliveryScheduler::kPollMs); // both schedulers' next looks: nothing goes twice
        QCOMPARE(m_receiver->requests.size(), 2 * kSubmissions);
        const QList<std::pair<QString, QByteArray>> webhooks {{first, "/hook?first"}, {second, "/hook?second"}};
        for (const auto &[webhook, path] : webhooks) {
            QCOMPARE(recordedEvents(webhook).size(), kSubmissions);
            QCOMPARE(receivedEvents(path), recordedEvents(webhook));
            QCOMPARE(column(u"SELECT COUNT(*) FROM webhook_deliveries WHERE webhook_id = ? AND status = 'delivered' "
                            "AND attempts = 1 AND claimed_by IS NULL"_s,
                         {webhook}),
                QStringList {QString::number(kSubmissions)});
        }
    }

    void aDeadServersClaimHoldsItsWebhookUntilTheLeaseRunsOut()
    {
        startNodes();
        if (!m_b)
            return;
        const QString webhook = addWebhook(0, m_receiver->url(), u"ping"_s);
        QVERIFY(!webhook.isEmpty());
        m_receiver->close(); // refused: the first attempt fails, the delivery stays pending
        QCOMPARE(ping(0, webhook), 200);
        QTRY_COMPARE_WITH_TIMEOUT(column(u"SELECT attempts FROM webhook_deliveries WHERE webhook_id = ?"_s, {webhook}),
            QStringList {u"1"_s}, kWaitMs);
        QCOMPARE(ping(1, webhook), 200); // queued behind the first
        const QStringList events = recordedEvents(webhook);
        QCOMPARE(events.size(), 2);
        // A server took the first again, due now, and died holding it: its lease lasts kLeaseMs from now.
        const QDateTime now = m_clock->now();
        QVERIFY(run(u"UPDATE webhook_deliveries SET claimed_by = ?, claimed_until = ?, next_attempt_at = ? WHERE "
                    "event_id = ?"_s,
            {kDeadRun, storageTime(now.addMSecs(DeliveryScheduler::kLeaseMs)), storageTime(now), events.first()}));
        QVERIFY(m_receiver->listen()); // the same port, answering now

        QTest::qWait(3 * DeliveryScheduler::kPollMs);
        QCOMPARE(m_receiver->requests.size(), 0); // neither the claimed one nor the one behind it
        m_clock->advance(DeliveryScheduler::kLeaseMs - 1);
        QTest::qWait(3 * DeliveryScheduler::kPollMs);
        QCOMPARE(m_receiver->requests.size(), 0);
        m_clock->advance(1); // the lease has run out: either server takes it over
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests.size(), 2, kWaitMs);
        QTest::qWait(3 * DeliveryScheduler::kPollMs);
        QCOMPARE(receivedEvents(), events);
        QCOMPARE(column(u"SELECT attempts FROM webhook_deliveries WHERE webhook_id = ? AND status = 'delivered' AND "
                        "claimed_by IS NULL ORDER BY seq"_s,
                     {webhook}),
            (QStringList {u"2"_s, u"1"_s}));
    }

    void aStoppedServersClaimGoesFromTheOtherAtOnce()
    {
        startNodes();
        if (!m_b)
            return;
        const QString webhook = addWebhook(0, m_receiver->url(), u"ping"_s);
        m_receiver->behaviour = WebhookReceiver::Behaviour::Silent; // held in flight by whichever server took it
        QCOMPARE(ping(0, webhook), 200);
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests.size(), 1, kWaitMs);
        const QStringList holder
            = column(u"SELECT claimed_by FROM webhook_deliveries WHERE webhook_id = ?"_s, {webhook});
        QCOMPARE(holder.size(), 1);
        const bool heldByA = holder.first().startsWith(DeliveryNode::forDataFolder(m_a->dataDir()).name + u'/');
        QVERIFY2(heldByA || holder.first().startsWith(DeliveryNode::forDataFolder(m_folderB->path()).name + u'/'),
            qPrintable(holder.first()));

        m_receiver->behaviour = WebhookReceiver::Behaviour::Answer;
        if (heldByA) // stopped long before its lease or the attempt's time would end: the clock stands still
            m_a->stop();
        else
            m_b.reset();
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests.size(), 2, kWaitMs);
        QCOMPARE(
            m_receiver->requests.at(1).header("berth-delivery"), m_receiver->requests.at(0).header("berth-delivery"));
        QTRY_COMPARE_WITH_TIMEOUT(column(u"SELECT status FROM webhook_deliveries WHERE webhook_id = ?"_s, {webhook}),
            QStringList {u"delivered"_s}, kWaitMs);
    }

    // berthd killed with SIGKILL while its delivery is in flight: it gives nothing up, and another server sends the
    // delivery again once the lease has run out by its clock, which starts at the real time the killed one used.
    void aKilledServersDeliveryGoesFromAnotherOnceItsLeaseRunsOut()
    {
        BERTH_CREATE_FRESH_POSTGRES_DATABASE(m_database);
        QTemporaryDir folderA;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(u"BERTH_DATABASE"_s, m_database->url());
        const QByteArray key
            = BerthdProcess::run({u"key"_s, u"create"_s, u"--data-dir"_s, folderA.path()}, environment).out.trimmed();
        QVERIFY(key.startsWith("bk_"));
        QCOMPARE(
            BerthdProcess::run({u"webhooks"_s, u"targets"_s, u"any"_s, u"--data-dir"_s, folderA.path()}, environment)
                .exitCode,
            0);
        m_receiver = std::make_unique<WebhookReceiver>();
        QVERIFY(m_receiver->listen());
        m_receiver->behaviour = WebhookReceiver::Behaviour::Silent;
        BerthdProcess killed(folderA.path());
        QVERIFY(killed.start(environment));
        HttpTestClient client(killed.port());
        const TestReply added = client.api("POST", u"/webhooks"_s, key,
            QJsonObject {{u"url"_s, m_receiver->url()}, {u"events"_s, QJsonArray {u"ping"_s}}});
        QCOMPARE(added.status, 200);
        QCOMPARE(client.api("POST", u"/webhooks/%1/ping"_s.arg(added.json()[u"id"_s].toString()), key).status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests.size(), 1, kWaitMs);
        killed.kill();
        QVERIFY(killed.waitForExit(kWaitMs));
        m_receiver->behaviour = WebhookReceiver::Behaviour::Answer;

        ManualClock clock(QDateTime::currentDateTimeUtc());
        QTemporaryDir folderB;
        EngineSettings settings;
        settings.dataDir = folderB.path();
        settings.databaseUrl = m_database->url();
        settings.listenPort = 0;
        settings.clock = &clock;
        Engine other(settings);
        const Result<void> started = other.start();
        QVERIFY2(started, started ? "" : qPrintable(started.error().message));
        QTest::qWait(3 * DeliveryScheduler::kPollMs);
        QCOMPARE(m_receiver->requests.size(), 1); // still the dead server's
        clock.advance(DeliveryScheduler::kLeaseMs);
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests.size(), 2, kWaitMs);
        QCOMPARE(
            m_receiver->requests.at(1).header("berth-delivery"), m_receiver->requests.at(0).header("berth-delivery"));
    }

    void mailAcrossServersIsOneAMinute()
    {
        startNodes();
        if (!m_b)
            return;
        SmtpTestServer smtp;
        QVERIFY(smtp.start());
        SmtpConfig config;
        config.host = u"127.0.0.1"_s;
        config.port = smtp.port();
        config.from = u"berth@example.test"_s;
        config.security = SmtpConfig::Security::None;
        QVERIFY(m_a->engine().signInPolicy().setSmtp(config)); // in the database: both servers mail through it
        QVERIFY(!addWebhook(0, u"mailto:"_s + kOwnerMail).isEmpty());

        QCOMPARE(submit(0, R"({"n":"1"})"), 200);
        QTRY_COMPARE_WITH_TIMEOUT(smtp.messages().size(), 1, kWaitMs);
        // Within the minute, one on each server: neither mails before the minute is over, then one mails both.
        m_clock->advance(10'000);
        QCOMPARE(submit(1, R"({"n":"2"})"), 200);
        QCOMPARE(submit(0, R"({"n":"3"})"), 200);
        QTest::qWait(3 * DeliveryScheduler::kPollMs);
        QCOMPARE(smtp.messages().size(), 1);
        m_clock->advance(50'000);
        QTRY_COMPARE_WITH_TIMEOUT(smtp.messages().size(), 2, kWaitMs);
        QTest::qWait(3 * DeliveryScheduler::kPollMs);
        QCOMPARE(smtp.messages().size(), 2);
        const QString grouped = smtp.messages().at(1);
        QVERIFY2(grouped.contains(u"Subject: 2 new submissions on %1"_s.arg(kSite)), qPrintable(grouped));
        QVERIFY2(grouped.contains(u"n: 2"_s) && grouped.contains(u"n: 3"_s), qPrintable(grouped));
    }

    // On SQLite, berthd serving and berthd as its client: the command line's JSON is the API's.
    void theCommandLinePrintsTheApisJson()
    {
        QTemporaryDir folder;
        QCOMPARE(
            BerthdProcess::run({u"webhooks"_s, u"targets"_s, u"any"_s, u"--data-dir"_s, folder.path()}).exitCode, 0);
        QByteArray key;
        const auto server = BerthdProcess::startWithOwnerKey(folder.path(), &key);
        QVERIFY(server);
        HttpTestClient client(server->port());
        WebhookReceiver receiver;
        QVERIFY(receiver.listen());
        const TestReply added = client.api("POST", u"/webhooks"_s, key,
            QJsonObject {{u"url"_s, receiver.url()}, {u"events"_s, QJsonArray {u"deployment.created"_s}}});
        QCOMPARE(added.status, 200);
        const QString id = added.json()[u"id"_s].toString();
        QCOMPARE(client.api("POST", u"/webhooks/%1/ping"_s.arg(id), key).status, 200);
        const QString deliveriesPath = u"/webhooks/%1/deliveries"_s.arg(id);
        QTRY_COMPARE_WITH_TIMEOUT(
            client.api("GET", deliveriesPath, key).json()[u"deliveries"_s].toArray().at(0)[u"status"_s].toString(),
            u"delivered"_s, kWaitMs);

        QTemporaryDir work;
        const QList<std::pair<QStringList, QString>> commands {
            {{u"webhooks"_s, u"list"_s}, u"/webhooks"_s}, {{u"webhooks"_s, u"deliveries"_s, id}, deliveriesPath}};
        for (const auto &[arguments, path] : commands) {
            const BerthdProcess::Outcome printed
                = server->runClient(arguments + QStringList {u"--json"_s}, key, work.path());
            QVERIFY2(printed.exitCode == 0, printed.err.constData());
            QJsonParseError error;
            const QJsonDocument document = QJsonDocument::fromJson(printed.out, &error);
            QVERIFY2(error.error == QJsonParseError::NoError, printed.out.constData());
            QCOMPARE(document.object(), client.api("GET", path, key).json());
            QVERIFY(!document.object().isEmpty());
            // Without --json, a table for people.
            const BerthdProcess::Outcome table = server->runClient(arguments, key, work.path());
            QVERIFY2(table.exitCode == 0 && table.out.startsWith("ID "), table.out.constData());
        }
    }
};

QTEST_GUILESS_MAIN(TestWebhookCluster)
#include "tst_webhookcluster.moc"
