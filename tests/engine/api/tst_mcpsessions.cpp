// MCP sessions over real HTTP, bounded per key and per user: a key that opens many sessions loses only its own
// oldest ones, never another key's; a user over its share across keys is refused (429) rather than ending anyone's.
#include "api/mcpsessions.h"
#include "enginefixture.h"

#include <QJsonDocument>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::McpSessions;
using berth::test::EngineFixture;
using berth::test::TestReply;

namespace {
const QDateTime kStart(QDate(2026, 11, 21), QTime(6, 0), Qt::UTC);
} // namespace

class TestMcpSessions : public QObject
{
    Q_OBJECT

private:
    EngineFixture m_fixture;

    TestReply post(const QByteArray &body, const QByteArray &key, const QByteArray &session = {})
    {
        m_fixture.clock().advance(1); // every use at a time of its own: "least recently used" is exact
        QList<QPair<QByteArray, QByteArray>> headers {{"content-type", "application/json"}};
        if (!key.isEmpty())
            headers.append({"authorization", "Bearer " + key});
        if (!session.isEmpty())
            headers.append({"mcp-session-id", session});
        auto &client = m_fixture.client();
        return client.request("POST", client.apiHost(), u"/mcp"_s, body, headers);
    }
    TestReply initialize(const QByteArray &key)
    {
        return post(R"({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}})", key);
    }
    QByteArray open(const QByteArray &key)
    {
        const TestReply reply = initialize(key);
        return reply.status == 200 ? reply.header("mcp-session-id") : QByteArray();
    }
    int ping(const QByteArray &key, const QByteArray &session)
    {
        return post(R"({"jsonrpc": "2.0", "id": 2, "method": "ping"})", key, session).status;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_fixture.startWithClock(kStart)); }

    void oneKeyCannotEndAnothersSessions()
    {
        const QByteArray ann = m_fixture.keyFor(u"ann@example.com"_s);
        const QByteArray bob = m_fixture.keyFor(u"bob@example.com"_s);
        const QByteArray annSecond = m_fixture.keyFor(u"ann@example.com"_s);
        const QByteArray bobSession = open(bob);
        const QByteArray annOtherKeySession = open(annSecond);
        QVERIFY(!bobSession.isEmpty());
        const QByteArray annFirst = open(ann);
        QByteArray annLast;
        for (int i = 0; i < 1000; ++i) {
            const TestReply reply = initialize(ann);
            QCOMPARE(reply.status, 200);
            annLast = reply.header("mcp-session-id");
        }
        QCOMPARE(ping(bob, bobSession), 200);
        QCOMPARE(ping(annSecond, annOtherKeySession), 200); // the same user's other key too
        QCOMPARE(ping(ann, annLast), 200);
        QCOMPARE(ping(ann, annFirst), 404); // the key's own oldest made room
    }

    void aKeyKeepsItsNewestSessions()
    {
        const QByteArray key = m_fixture.keyFor(u"cid@example.com"_s);
        QList<QByteArray> sessions;
        for (int i = 0; i < McpSessions::kMaxPerKey + 1; ++i)
            sessions.append(open(key));
        QCOMPARE(ping(key, sessions.at(0)), 404);
        for (int i = 1; i < sessions.size(); ++i)
            QCOMPARE(ping(key, sessions.at(i)), 200);
    }

    void aUserOverItsShareIsRefused()
    {
        const int keysAtShare = McpSessions::kMaxPerUser / McpSessions::kMaxPerKey;
        QList<QByteArray> keys;
        QList<QByteArray> firsts;
        QList<QByteArray> seconds; // every session but the firsts, in order
        for (int k = 0; k < keysAtShare; ++k) {
            keys.append(m_fixture.keyFor(u"dan@example.com"_s));
            for (int i = 0; i < McpSessions::kMaxPerKey; ++i) {
                const QByteArray session = open(keys.last());
                QVERIFY(!session.isEmpty());
                (i == 0 ? firsts : seconds).append(session);
            }
        }
        const QByteArray extra = m_fixture.keyFor(u"dan@example.com"_s);
        const TestReply refused = initialize(extra);
        QCOMPARE(refused.status, 429);
        QVERIFY(refused.header("retry-after").toInt() >= 1);
        QVERIFY(refused.error().startsWith(u"Too many MCP sessions for this account"_s));
        for (int k = 0; k < keysAtShare; ++k)
            QCOMPARE(ping(keys.at(k), firsts.at(k)), 200); // nobody's session went for it
        // A key with sessions of its own still gets a new one, in place of its own least recently used (the firsts
        // were just used).
        QVERIFY(!open(keys.at(0)).isEmpty());
        QCOMPARE(ping(keys.at(0), seconds.at(0)), 404);
        QCOMPARE(ping(keys.at(0), firsts.at(0)), 200);
        QCOMPARE(ping(keys.at(1), seconds.at(McpSessions::kMaxPerKey - 1)), 200); // key 1's second
    }
};

QTEST_GUILESS_MAIN(TestMcpSessions)
#include "tst_mcpsessions.moc"
