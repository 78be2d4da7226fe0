// Webhook events survive berthd killed with SIGKILL: an event is written in the same transaction as the change that
// caused it, so a kill right after the commit keeps both, and a pending delivery goes out after the restart. A
// receiver on loopback sees each event id at least once.
#include "berthdprocess.h"
#include "engine/api/webhookreceiver.h"
#include "httptestclient.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::BerthdProcess;
using berth::test::HttpTestClient;
using berth::test::TestReply;
using berth::test::WebhookReceiver;

namespace {
constexpr int kWaitMs = 15'000; // real time: a delivery goes out at the scheduler's next look
} // namespace

class TestWebhooksDurable : public QObject
{
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_dir;
    QByteArray m_key;
    std::unique_ptr<WebhookReceiver> m_receiver;

    // A berthd on the data folder, killed where the deploy path reaches `faultPoint` (none: never).
    std::unique_ptr<BerthdProcess> start(const QByteArray &faultPoint = {})
    {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        if (!faultPoint.isEmpty())
            environment.insert(u"BERTH_FAULT_POINT"_s, QString::fromLatin1(faultPoint));
        auto server = std::make_unique<BerthdProcess>(m_dir->path());
        return server->start(environment) ? std::move(server) : nullptr;
    }
    static QString addWebhook(HttpTestClient &client, const QByteArray &key, const QString &url, const QString &event)
    {
        const TestReply added
            = client.api("POST", u"/webhooks"_s, key, QJsonObject {{u"url"_s, url}, {u"events"_s, QJsonArray {event}}});
        return added.status == 200 ? added.json()[u"id"_s].toString() : QString();
    }
    QJsonObject receivedEvent(int index) const
    {
        return QJsonDocument::fromJson(m_receiver->requests.at(index).body).object();
    }

private Q_SLOTS:
    void init()
    {
        BerthdProcess::setProgram(QStringLiteral(BERTHD_FAULTS_PATH));
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        m_key = BerthdProcess::run({u"key"_s, u"create"_s, u"--data-dir"_s, m_dir->path()}).out.trimmed();
        QVERIFY(m_key.startsWith("bk_"));
        // The receiver is on loopback, which only the owner's "any" allows.
        QCOMPARE(
            BerthdProcess::run({u"webhooks"_s, u"targets"_s, u"any"_s, u"--data-dir"_s, m_dir->path()}).exitCode, 0);
        m_receiver = std::make_unique<WebhookReceiver>();
        QVERIFY(m_receiver->listen());
    }
    void cleanup()
    {
        m_receiver.reset();
        m_dir.reset();
    }

    // Killed right after the deploy's commit, before it could answer: the event was committed with it.
    void aDeployKilledAfterItsCommitKeepsItsEvent()
    {
        {
            const auto server = start("after-commit");
            QVERIFY(server);
            HttpTestClient client(server->port());
            QVERIFY(!addWebhook(client, m_key, m_receiver->url(), u"deployment.created"_s).isEmpty());
            m_receiver->behaviour = WebhookReceiver::Behaviour::Silent; // nothing is delivered before the kill
            const TestReply deployed = client.api(
                "POST", u"/deploy"_s, m_key, QJsonObject {{u"slug"_s, u"kept-site"_s}, {u"html"_s, u"<p>kept</p>"_s}});
            QCOMPARE(deployed.status, 0); // no answer: the process died
            QVERIFY(server->waitForExit(kWaitMs));
        }
        m_receiver->behaviour = WebhookReceiver::Behaviour::Answer;
        m_receiver->requests.clear();

        const auto server = start();
        QVERIFY(server);
        HttpTestClient client(server->port());
        const QJsonArray deploys = client.api("GET", u"/deploys"_s, m_key).json()[u"deployments"_s].toArray();
        QCOMPARE(deploys.size(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(!m_receiver->requests.isEmpty(), kWaitMs);
        const QJsonObject event = receivedEvent(0);
        QCOMPARE(event[u"type"_s].toString(), u"deployment.created"_s);
        QCOMPARE(event[u"data"_s].toObject()[u"slug"_s].toString(), u"kept-site"_s);
        QCOMPARE(
            event[u"data"_s].toObject()[u"deployment_id"_s].toString(), deploys.at(0).toObject()[u"id"_s].toString());
    }

    // Killed while the receiver held the delivery unanswered: after the restart the same event id arrives again.
    void aSubmissionsDeliveryArrivesAfterAKill()
    {
        QString eventId;
        {
            const auto server = start();
            QVERIFY(server);
            HttpTestClient client(server->port());
            QVERIFY(client
                        .api("POST", u"/deploy"_s, m_key,
                            QJsonObject {{u"slug"_s, u"form-site"_s},
                                {u"html"_s, u"<form method=post action=/_submit></form>"_s}})
                        .status
                == 200);
            QVERIFY(!addWebhook(client, m_key, m_receiver->url(), u"submission.created"_s).isEmpty());
            m_receiver->behaviour = WebhookReceiver::Behaviour::Silent;
            const TestReply posted = client.request("POST", u"form-site.localhost:%1"_s.arg(server->port()),
                u"/_submit"_s, R"({"name":"Ada","message":"Hello"})", {{"Content-Type", "application/json"}});
            QCOMPARE(posted.status, 200);
            QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests.size(), 1, kWaitMs);
            eventId = QString::fromLatin1(m_receiver->requests.at(0).header("berth-delivery"));
            QVERIFY(eventId.startsWith(u"evt_"_s));
            server->kill();
        }
        m_receiver->behaviour = WebhookReceiver::Behaviour::Answer;

        const auto server = start();
        QVERIFY(server);
        QTRY_COMPARE_WITH_TIMEOUT(m_receiver->requests.size(), 2, kWaitMs);
        QCOMPARE(m_receiver->requests.at(1).header("berth-delivery"), eventId.toLatin1());
        const QJsonObject event = receivedEvent(1);
        QCOMPARE(event[u"type"_s].toString(), u"submission.created"_s);
        QCOMPARE(event[u"data"_s].toObject()[u"fields"_s].toObject()[u"name"_s].toString(), u"Ada"_s);
    }
};

QTEST_GUILESS_MAIN(TestWebhooksDurable)
#include "tst_webhooksdurable.moc"
