// The built-in endpoints of a site (/_submit, /_counter) against hostile and careless clients, over real HTTP:
// Upgrade requests run nothing, form posts redirect only within the site, and form posts that are refused get a
// page, not JSON. Time is a ManualClock.
#include "engine/http/rawclient.h"
#include "enginefixture.h"

#include <QtTest>

using namespace Qt::StringLiterals;
using berth::test::EngineFixture;
using berth::test::RawClient;
using berth::test::RawResponse;
using berth::test::TestReply;

namespace {
const QDateTime kStart(QDate(2026, 11, 23), QTime(9, 0), Qt::UTC);
const QString kSlug = u"endpoint-site"_s;
} // namespace

class TestBuiltinEndpoints : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineFixture> m_fixture;
    QString m_id;

    QByteArray head(const QByteArray &method, const QByteArray &target, const QByteArray &headers = {},
        const QByteArray &body = {}) const
    {
        return method + ' ' + target + " HTTP/1.1\r\nHost: " + m_fixture->siteHost(kSlug).toLatin1() + "\r\n" + headers
            + "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
    }
    qint64 counterValue()
    {
        return m_fixture->client()
            .request("GET", m_fixture->siteHost(kSlug), u"/_counter/x"_s)
            .json()[u"value"_s]
            .toInteger(-1);
    }
    int submissionCount()
    {
        return m_fixture->client()
            .api("GET", u"/deploy/%1/submissions"_s.arg(m_id), m_fixture->ownerKey())
            .json()[u"total"_s]
            .toInt(-1);
    }

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<EngineFixture>();
        QVERIFY(m_fixture->startWithClock(kStart));
        m_id = m_fixture->deploySite(m_fixture->ownerKey(), kSlug);
        QVERIFY(!m_id.isEmpty());
    }
    void cleanup() { m_fixture.reset(); }

    // QtHttpServer 6.4 replays a request that asks for an upgrade: it must never get that far.
    void upgradeRequestRunsNothing_data()
    {
        QTest::addColumn<QByteArray>("upgradeHeaders");
        QTest::newRow("websocket") << QByteArray("Connection: Upgrade\r\nUpgrade: websocket\r\n");
        QTest::newRow("h2c") << QByteArray("Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
                                           "HTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n");
        QTest::newRow("upgrade only") << QByteArray("Upgrade: anything\r\n");
    }
    void upgradeRequestRunsNothing()
    {
        QFETCH(QByteArray, upgradeHeaders);
        RawClient client;
        QVERIFY(client.connectTo(m_fixture->client().port()));
        client.send(head("POST", "/_counter/x/increment", upgradeHeaders)
            + head("POST", "/_submit", upgradeHeaders + "Content-Type: application/json\r\n", R"({"a":"b"})")
            + head("POST", "/_counter/x/increment"));
        RawResponse response;
        QVERIFY(client.waitResponse(&response));
        QCOMPARE(response.status, 501);
        QVERIFY(response.body.contains("Upgrade"));
        QCOMPARE(response.header("connection"), QByteArray("close"));
        // Nothing after the refusal is read: the connection closes cleanly, with no second answer.
        QVERIFY(client.waitClosed());
        QVERIFY(!client.takeResponse(&response));
        QCOMPARE(counterValue(), 0);
        QCOMPARE(submissionCount(), 0);

        // The same request without Upgrade counts once, and what follows it on the connection is answered.
        RawClient plain;
        QVERIFY(plain.connectTo(m_fixture->client().port()));
        plain.send(head("POST", "/_counter/x/increment") + head("GET", "/_counter/x"));
        QVERIFY(plain.waitResponse(&response));
        QCOMPARE(response.status, 200);
        QVERIFY(plain.waitResponse(&response));
        QCOMPARE(response.status, 200);
        QVERIFY(response.body.contains("\"value\":1"));
        QCOMPARE(counterValue(), 1);
    }
};

QTEST_GUILESS_MAIN(TestBuiltinEndpoints)
#include "tst_builtinendpoints.moc"
