// A whole Engine on four serving threads: counters and per-IP limits stay exact when clients land on different
// threads, a page that is slow to render delays nobody else, and an upload without a valid key is refused from
// its head, before its body is read.
#include "domain/visitors/counterservice.h"
#include "enginefixture.h"
#include "sourceclient.h"

#include <QElapsedTimer>
#include <QTcpSocket>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::EngineFixture;
using berth::test::SourceConnection;
using berth::test::TestReply;

class TestConcurrentServing final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<EngineFixture>();
        berth::EngineSettings settings;
        settings.servingThreads = 4;
        settings.maxConnectionsPerAddress = 0;
        QVERIFY(m_fixture->startWithClock(QDateTime(QDate(2026, 11, 23), QTime(9, 0), Qt::UTC), settings));
        QCOMPARE(m_fixture->engine().servingThreads(), 4);
        m_id = m_fixture->deploySite(m_fixture->ownerKey(), m_slug);
        QVERIFY(!m_id.isEmpty());
    }
    void cleanup() { m_fixture.reset(); }

    void countersExactAcrossThreads()
    {
        // 8 clients from 8 addresses, 40 increments each (under the per-IP limit), all pipelined at once.
        std::vector<std::unique_ptr<SourceConnection>> connections;
        const QByteArray increment
            = SourceConnection::request("POST", m_fixture->siteHost(m_slug), u"/_counter/hits/increment"_s);
        for (int i = 0; i < 8; ++i) {
            connections.push_back(std::make_unique<SourceConnection>(
                m_fixture->engine().port(), QHostAddress(u"127.0.0.%1"_s.arg(10 + i))));
            connections.back()->send(QList<QByteArray>(40, increment));
        }
        QVERIFY(SourceConnection::waitAll(raw(connections)));
        for (const auto &connection : connections) {
            for (const TestReply &reply : connection->replies())
                QCOMPARE(reply.status, 200);
        }
        const TestReply read = m_fixture->client().request("GET", m_fixture->siteHost(m_slug), u"/_counter/hits"_s);
        QCOMPARE(read.json()[u"value"_s].toInteger(), 320);
    }

    void perIpLimitExactAcrossThreads()
    {
        // One address on 10 connections (so on several threads): exactly the limit of 60 per minute gets through.
        std::vector<std::unique_ptr<SourceConnection>> connections;
        const QByteArray increment
            = SourceConnection::request("POST", m_fixture->siteHost(m_slug), u"/_counter/hits/increment"_s);
        for (int i = 0; i < 10; ++i) {
            connections.push_back(
                std::make_unique<SourceConnection>(m_fixture->engine().port(), QHostAddress(u"127.0.0.2"_s)));
            connections.back()->send(QList<QByteArray>(10, increment));
        }
        QVERIFY(SourceConnection::waitAll(raw(connections)));
        int allowed = 0;
        int limited = 0;
        for (const auto &connection : connections) {
            for (const TestReply &reply : connection->replies()) {
                allowed += reply.status == 200 ? 1 : 0;
                limited += reply.status == 429 ? 1 : 0;
            }
        }
        QCOMPARE(allowed, 60);
        QCOMPARE(limited, 40);
    }

    void slowPageDelaysNobodyElse()
    {
        // A document built to be slow for a naive metadata scanner: rendered off the serving threads, so another
        // site is answered meanwhile, and the page itself renders with its title.
        QByteArray hostile = "<title>t</title>";
        while (hostile.size() < 220 * 1024)
            hostile += "<meta ";
        const QString hostileId
            = m_fixture->deploySite(m_fixture->ownerKey(), u"slow-page"_s, QString::fromLatin1(hostile));
        QVERIFY(!hostileId.isEmpty());

        QTcpSocket slow;
        slow.connectToHost(QHostAddress::LocalHost, m_fixture->engine().port());
        QVERIFY(slow.waitForConnected(5000));
        slow.write("GET / HTTP/1.1\r\nHost: " + m_fixture->siteHost(u"slow-page"_s).toLatin1() + "\r\n\r\n");
        slow.flush();

        QElapsedTimer timer;
        timer.start();
        const TestReply other = m_fixture->client().site(m_slug);
        QCOMPARE(other.status, 200);
        QVERIFY2(timer.elapsed() < 1000, qPrintable(QString::number(timer.elapsed())));

        QByteArray answer;
        QTRY_VERIFY_WITH_TIMEOUT((answer += slow.readAll()).contains("<title>t</title>"), 30000);
        QVERIFY(answer.startsWith("HTTP/1.1 200"));
    }

    void uploadWithoutKeyRefusedFromItsHead()
    {
        QTcpSocket client;
        client.connectToHost(QHostAddress::LocalHost, m_fixture->engine().port());
        QVERIFY(client.waitForConnected(5000));
        // 10 MB announced, nothing of it sent: the answer must come from the head alone.
        client.write("POST /deploy HTTP/1.1\r\nHost: " + m_fixture->client().apiHost().toLatin1()
            + "\r\nAuthorization: Bearer bk_not_a_key\r\nContent-Type: application/json\r\n"
              "Content-Length: 10485760\r\n\r\n");
        client.flush();
        QByteArray answer;
        QTRY_VERIFY_WITH_TIMEOUT((answer += client.readAll()).contains("\r\n\r\n{"), 5000);
        QVERIFY2(answer.startsWith("HTTP/1.1 401"), answer.constData());
        QVERIFY(answer.contains("Unauthorized"));
    }

    void deployBodyOverTheCapSaysSo()
    {
        QTcpSocket client;
        client.connectToHost(QHostAddress::LocalHost, m_fixture->engine().port());
        QVERIFY(client.waitForConnected(5000));
        client.write("POST /deploy HTTP/1.1\r\nHost: " + m_fixture->client().apiHost().toLatin1()
            + "\r\nAuthorization: Bearer " + m_fixture->ownerKey()
            + "\r\nContent-Type: application/json\r\nContent-Length: 83886080\r\n\r\n");
        client.flush();
        QByteArray answer;
        QTRY_VERIFY_WITH_TIMEOUT((answer += client.readAll()).contains("}"), 5000);
        QVERIFY2(answer.startsWith("HTTP/1.1 413"), answer.constData());
        QVERIFY(answer.contains("Request body exceeds the 72 MB limit"));
    }

private:
    static QList<SourceConnection *> raw(const std::vector<std::unique_ptr<SourceConnection>> &connections)
    {
        QList<SourceConnection *> list;
        for (const auto &connection : connections)
            list.append(connection.get());
        return list;
    }

    std::unique_ptr<EngineFixture> m_fixture;
    const QString m_slug = u"busy-site"_s;
    QString m_id;
};

QTEST_GUILESS_MAIN(TestConcurrentServing)
#include "tst_concurrentserving.moc"
