// A hostile client against a node's cold cache: a node that has not cached a site's files fetches each
// from the database on a small fetch pool. One address asks for 200 distinct uncached files at once, pipelined over
// as many connections as the per-address cap allows: every answer carries the right bytes, in order; a connection
// beyond the cap is refused with 503 at once (so one address can queue at most one fetch per admitted connection);
// and another client's request for a cached site is answered meanwhile.
#include "common/deployfiles.h"
#include "common/enginefixture.h"
#include "common/postgrescluster.h"
#include "common/sourceclient.h"
#include "common/twonodes.h"
#include "instance/engine.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <memory>
#include <vector>

using namespace Qt::StringLiterals;
using namespace berth;
using namespace berth::test;

namespace {

constexpr int kColdFiles = 200;
constexpr int kFileBytes = 16 * 1024; // random bytes: not worth a gzip variant, so one blob per file
constexpr int kRefusedConnections = 8; // opened beyond the per-address cap
constexpr int kBystanderMs = 1000; // a loose bound for a cached answer on a busy 2-core machine

QByteArray randomBytes(quint32 seed, int size)
{
    QByteArray bytes(size, Qt::Uninitialized);
    for (char &byte : bytes) {
        seed = seed * 1664525u + 1013904223u;
        byte = char(seed >> 24);
    }
    return bytes;
}

QList<SourceConnection *> raw(const std::vector<std::unique_ptr<SourceConnection>> &connections)
{
    QList<SourceConnection *> list;
    for (const auto &connection : connections)
        list.append(connection.get());
    return list;
}

} // namespace

class TestColdFetches final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_nodes.createDatabase(&error), qPrintable(error));
    }

    void manyColdFilesFromOneAddress()
    {
        // Node A takes the deploys: a site of 200 files, and a small one that node B will have cached.
        QVERIFY(m_nodes.startA());
        QJsonArray coldFiles;
        for (int i = 0; i < kColdFiles; ++i)
            coldFiles.append(base64File(u"f/%1.bin"_s.arg(i), randomBytes(quint32(i + 1), kFileBytes)));
        auto deployed = m_nodes.deployThroughA(u"cold-site"_s, coldFiles);
        QVERIFY2(deployed.status == 200, deployed.body.constData());
        const QByteArray warmBytes = randomBytes(7777, 4096);
        deployed = m_nodes.deployThroughA(u"warm-site"_s, QJsonArray {base64File(u"warm.bin"_s, warmBytes)});
        QVERIFY2(deployed.status == 200, deployed.body.constData());

        // Node B: an empty folder of its own, the default per-address cap, two serving threads.
        QTemporaryDir folderB;
        const EngineSettings settingsB = m_nodes.nodeSettings(folderB.path());
        const int cap = settingsB.maxConnectionsPerAddress;
        QVERIFY(cap > 0 && cap < kColdFiles);
        const std::unique_ptr<Engine> startedB = TwoNodes::startNode(settingsB);
        QVERIFY(startedB);
        Engine &nodeB = *startedB;
        const QString blobsB = folderB.filePath(u"blobs"_s);
        const QString warmHost = u"warm-site.localhost:%1"_s.arg(nodeB.port());
        const QString coldHost = u"cold-site.localhost:%1"_s.arg(nodeB.port());

        // A bystander from another address has the small site in B's cache; nothing of the big one is there.
        SourceClient bystander(nodeB.port(), QHostAddress(u"127.0.0.2"_s));
        TestReply warm = bystander.request("GET", warmHost, u"/warm.bin"_s);
        QCOMPARE(warm.status, 200);
        QCOMPARE(warm.body, warmBytes);
        QCOMPARE(filesUnder(blobsB), 1);

        // The hostile address: `cap` connections, each with a cached file first (so that its admission shows at
        // once), then its share of the cold files, all pipelined.
        const QHostAddress hostile(u"127.0.0.5"_s);
        const QByteArray warmRequest = SourceConnection::request("GET", warmHost, u"/warm.bin"_s);
        std::vector<std::unique_ptr<SourceConnection>> connections;
        QList<QList<int>> shares(cap);
        for (int i = 0; i < kColdFiles; ++i)
            shares[i % cap].append(i);
        QElapsedTimer burst;
        burst.start();
        for (int c = 0; c < cap; ++c) {
            QList<QByteArray> requests {warmRequest};
            for (const int i : std::as_const(shares[c]))
                requests.append(SourceConnection::request("GET", coldHost, u"/f/%1.bin"_s.arg(i)));
            connections.push_back(std::make_unique<SourceConnection>(nodeB.port(), hostile));
            connections.back()->send(requests);
        }
        QTRY_VERIFY_WITH_TIMEOUT(std::all_of(connections.cbegin(), connections.cend(),
                                     [](const auto &connection) { return !connection->replies().isEmpty(); }),
            10000);

        // Every admitted connection is open: the same address's next ones are refused at once, whatever they ask.
        std::vector<std::unique_ptr<SourceConnection>> refused;
        for (int c = 0; c < kRefusedConnections; ++c) {
            refused.push_back(std::make_unique<SourceConnection>(nodeB.port(), hostile));
            refused.back()->send({SourceConnection::request("GET", coldHost, u"/f/%1.bin"_s.arg(c))});
        }
        // Meanwhile the bystander's cached file comes at once.
        QElapsedTimer bystanderTimer;
        bystanderTimer.start();
        warm = bystander.request("GET", warmHost, u"/warm.bin"_s);
        const qint64 bystanderMs = bystanderTimer.elapsed();
        QCOMPARE(warm.status, 200);
        QCOMPARE(warm.body, warmBytes);
        QVERIFY2(bystanderMs < kBystanderMs, qPrintable(u"%1 ms"_s.arg(bystanderMs)));
        const int stillBusy = int(std::count_if(
            connections.cbegin(), connections.cend(), [](const auto &connection) { return !connection->isDone(); }));
        QVERIFY(stillBusy > 0); // it was answered while the cold fetches were under way, not after them

        QVERIFY(SourceConnection::waitAll(raw(refused)));
        for (const auto &connection : refused) {
            QCOMPARE(connection->replies().size(), 1);
            const TestReply &reply = connection->replies().constFirst();
            QCOMPARE(reply.status, 503);
            QCOMPARE(reply.error(), u"Too many connections from your address; retry later"_s);
        }

        QVERIFY(SourceConnection::waitAll(raw(connections), 60000));
        const qint64 burstMs = burst.elapsed();
        for (int c = 0; c < cap; ++c) {
            const QList<TestReply> &replies = connections[size_t(c)]->replies();
            QCOMPARE(replies.size(), shares[c].size() + 1);
            QCOMPARE(replies.constFirst().body, warmBytes);
            for (qsizetype r = 1; r < replies.size(); ++r) {
                const int i = shares[c].at(r - 1);
                QVERIFY2(replies.at(r).status == 200, qPrintable(u"file %1: %2"_s.arg(i).arg(replies.at(r).status)));
                QVERIFY2(
                    replies.at(r).body == randomBytes(quint32(i + 1), kFileBytes), qPrintable(u"file %1"_s.arg(i)));
            }
        }
        QCOMPARE(filesUnder(blobsB), kColdFiles + 1); // each fetched once into B's cache, nothing else
        qInfo("%d cold files over %d connections in %lld ms; the bystander waited %lld ms, %d connections still busy",
            kColdFiles, cap, burstMs, bystanderMs, stillBusy);
    }

private:
    TwoNodes m_nodes;
};

QTEST_GUILESS_MAIN(TestColdFetches)
#include "tst_coldfetches.moc"
