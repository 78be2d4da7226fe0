// mailto: webhooks over real HTTP and a real SMTP server on loopback (Debian's aiosmtpd): a submission mailed with
// its fields as plain text in the form's order, nothing a visitor or an owner wrote in a header, at most one mail per
// minute per webhook (the rest of the minute grouped, on a ManualClock), and a failed mail retried.
#include "domain/accounts/signinpolicy.h"
#include "domain/common/clock.h"
#include "domain/events/deliveryscheduler.h"
#include "enginefixture.h"
#include "instance/engine.h"
#include "smtptestserver.h"

#include <QJsonArray>
#include <QTcpServer>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::EngineFixture;
using berth::test::SmtpTestServer;
using berth::test::TestReply;

namespace {
const QDateTime kStart(QDate(2026, 11, 21), QTime(6, 0), Qt::UTC);
constexpr int kWaitMs = 15'000; // real time, for the SMTP server and the scheduler's next poll
const QString kOwnerMail = u"owner@example.test"_s;
} // namespace

class TestWebhookMail : public QObject
{
    Q_OBJECT

    std::unique_ptr<EngineFixture> m_fixture;
    QByteArray m_key;

    berth::test::HttpTestClient &client() { return m_fixture->client(); }
    void useSmtp(quint16 port)
    {
        berth::SmtpConfig smtp;
        smtp.host = u"127.0.0.1"_s;
        smtp.port = port;
        smtp.from = u"berth@example.test"_s;
        smtp.security = berth::SmtpConfig::Security::None;
        QVERIFY(m_fixture->engine().signInPolicy().setSmtp(smtp));
    }
    QString addMailWebhook()
    {
        const TestReply added = client().api("POST", u"/webhooks"_s, m_key,
            QJsonObject {{u"url"_s, u"mailto:"_s + kOwnerMail}, {u"events"_s, QJsonArray {u"submission.created"_s}}});
        return added.status == 200 ? added.json()[u"id"_s].toString() : QString();
    }
    int submit(const QString &slug, const QByteArray &json)
    {
        return client()
            .request("POST", m_fixture->siteHost(slug), u"/_submit"_s, json, {{"Content-Type", "application/json"}})
            .status;
    }
    QJsonArray deliveries(const QString &webhookId)
    {
        return client()
            .api("GET", u"/webhooks/%1/deliveries"_s.arg(webhookId), m_key)
            .json()[u"deliveries"_s]
            .toArray();
    }
    // A printed message's header lines (up to the first empty line) and its body.
    static QPair<QStringList, QString> split(const QString &message)
    {
        const QStringList lines = message.split(u'\n');
        const qsizetype blank = lines.indexOf(QString());
        return {lines.mid(0, blank), lines.mid(blank + 1).join(u'\n')};
    }
    static QStringList headersNamed(const QStringList &headers, const QString &name)
    {
        QStringList found;
        for (const QString &line : headers) {
            if (line.startsWith(name + u':', Qt::CaseInsensitive))
                found.append(line);
        }
        return found;
    }

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<EngineFixture>();
        QVERIFY(m_fixture->startWithClock(kStart));
        m_key = m_fixture->keyFor(kOwnerMail);
    }
    void cleanup() { m_fixture.reset(); }

    void aSubmissionIsMailedWithNothingInTheHeadersAndGroupedPerMinute()
    {
        SmtpTestServer smtp;
        QVERIFY(smtp.start());
        useSmtp(smtp.port());
        const QString webhook = addMailWebhook();
        QVERIFY(!webhook.isEmpty());
        // An owner's title with a line break: it must not become a header either.
        const TestReply deployed = client().api("POST", u"/deploy"_s, m_key,
            QJsonObject {{u"slug"_s, u"mail-site"_s}, {u"title"_s, u"Site\r\nBcc: title@evil.test"_s},
                {u"html"_s, u"<form method=post action=/_submit><input name=zeta></form>"_s}});
        QCOMPARE(deployed.status, 200);

        QCOMPARE(submit(u"mail-site"_s,
                     R"({"zeta":"1","name":"Ada\r\nBcc: field@evil.test","alpha":"x\r\nSubject: hacked\r\n\r\nbody"})"),
            200);
        QTRY_COMPARE_WITH_TIMEOUT(smtp.messages().size(), 1, kWaitMs);
        const auto [headers, body] = split(smtp.messages().constFirst());
        QCOMPARE(headersNamed(headers, u"Subject"_s), QStringList {u"Subject: New submission on mail-site"_s});
        QVERIFY2(headersNamed(headers, u"Bcc"_s).isEmpty(), qPrintable(headers.join(u'\n')));
        QCOMPARE(headersNamed(headers, u"To"_s), QStringList {u"To: <owner@example.test>"_s});
        // Only Berth's own headers (and the one the test server adds).
        static const QStringList kNames {u"Date"_s, u"From"_s, u"To"_s, u"Subject"_s, u"Message-ID"_s,
            u"MIME-Version"_s, u"Content-Type"_s, u"Content-Transfer-Encoding"_s, u"X-Peer"_s};
        for (const QString &line : headers)
            QVERIFY2(kNames.contains(line.section(u':', 0, 0)), qPrintable(line));
        // The fields in the form's order, as plain text.
        const qsizetype zeta = body.indexOf(u"zeta: 1"_s);
        const qsizetype name = body.indexOf(u"name: Ada"_s);
        const qsizetype alpha = body.indexOf(u"alpha: x"_s);
        QVERIFY2(zeta >= 0 && zeta < name && name < alpha, qPrintable(body));

        // Two more within the minute: no mail until it is over, then one with both.
        m_fixture->clock().advance(10'000);
        QCOMPARE(submit(u"mail-site"_s, R"({"zeta":"2"})"), 200);
        QCOMPARE(submit(u"mail-site"_s, R"({"zeta":"3"})"), 200);
        QTest::qWait(2 * berth::DeliveryScheduler::kPollMs); // the scheduler's next looks: real time, no backoff
        QCOMPARE(smtp.messages().size(), 1);
        QCOMPARE(deliveries(webhook).at(0)[u"status"_s].toString(), u"pending"_s);
        m_fixture->clock().advance(50'000);
        QTRY_COMPARE_WITH_TIMEOUT(smtp.messages().size(), 2, kWaitMs);
        const auto [groupHeaders, groupBody] = split(smtp.messages().at(1));
        QCOMPARE(headersNamed(groupHeaders, u"Subject"_s), QStringList {u"Subject: 2 new submissions on mail-site"_s});
        QVERIFY2(groupBody.contains(u"zeta: 2"_s) && groupBody.contains(u"zeta: 3"_s), qPrintable(groupBody));
        QTRY_COMPARE_WITH_TIMEOUT(deliveries(webhook).at(0)[u"status"_s].toString(), u"delivered"_s, kWaitMs);
        for (const QJsonValue &delivery : deliveries(webhook)) {
            QCOMPARE(delivery[u"status"_s].toString(), u"delivered"_s);
            QCOMPARE(delivery[u"attempts"_s].toInt(), 1);
        }
    }

    void aMailThatFailsIsRetried()
    {
        QTcpServer closed; // a port with nothing listening once it is closed again
        QVERIFY(closed.listen(QHostAddress::LocalHost));
        const quint16 nothing = closed.serverPort();
        closed.close();
        useSmtp(nothing);
        const QString webhook = addMailWebhook();
        QVERIFY(!m_fixture->deploySite(m_key, u"retry-site"_s).isEmpty());
        QCOMPARE(submit(u"retry-site"_s, R"({"message":"hello"})"), 200);
        QTRY_COMPARE_WITH_TIMEOUT(deliveries(webhook).at(0)[u"attempts"_s].toInt(), 1, kWaitMs);
        QCOMPARE(deliveries(webhook).at(0)[u"status"_s].toString(), u"pending"_s);
        QVERIFY(!deliveries(webhook).at(0)[u"error"_s].toString().isEmpty());

        SmtpTestServer smtp;
        QVERIFY(smtp.start());
        useSmtp(smtp.port());
        m_fixture->clock().advance(60'000); // past the first backoff and the mail's minute
        QTRY_COMPARE_WITH_TIMEOUT(smtp.messages().size(), 1, kWaitMs);
        QVERIFY(smtp.messages().constFirst().contains(u"message: hello"_s));
        QTRY_COMPARE_WITH_TIMEOUT(deliveries(webhook).at(0)[u"status"_s].toString(), u"delivered"_s, kWaitMs);
        QCOMPARE(deliveries(webhook).at(0)[u"attempts"_s].toInt(), 2);
    }

    void onlyOneAddressIsAccepted()
    {
        for (const QString &url : {u"mailto:"_s, u"mailto:a@example.test,b@example.test"_s,
                 u"mailto:a@example.test?bcc=b@example.test"_s, u"mailto:a@example.test\r\nBcc: b@example.test"_s,
                 u"mailto:<a@example.test>"_s, u"mailto:a b@example.test"_s}) {
            const TestReply refused = client().api("POST", u"/webhooks"_s, m_key,
                QJsonObject {{u"url"_s, url}, {u"events"_s, QJsonArray {u"submission.created"_s}}});
            QVERIFY2(refused.status == 400, qPrintable(url));
        }
        QVERIFY(!addMailWebhook().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestWebhookMail)
#include "tst_webhookmail.moc"
