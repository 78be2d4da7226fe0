// Private sites' password gates under attack, over real HTTP from several loopback addresses: a limit per site
// besides the one per address, bounded queues of checks, fair turns between sites, and no check for a client that
// has left before its turn.
#include "engine/http/rawclient.h"
#include "enginefixture.h"
#include "site/gatechecks.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QTest>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <vector>

using namespace Qt::StringLiterals;
using berth::GateChecks;
using berth::test::EngineFixture;
using berth::test::RawClient;
using berth::test::RawResponse;

namespace {

// Holds every password check on its worker until opened, so that the queues fill up deterministically.
struct WorkerHold
{
    std::mutex mutex;
    std::condition_variable opened;
    bool isOpen = false;
    std::atomic<int> entered {0};

    void wait()
    {
        entered.fetch_add(1);
        std::unique_lock<std::mutex> locker(mutex);
        opened.wait(locker, [this] { return isOpen; });
    }
    void open()
    {
        const std::lock_guard<std::mutex> locker(mutex);
        isOpen = true;
        opened.notify_all();
    }
};

QHostAddress loopback(int last)
{
    return QHostAddress(u"127.0.0.%1"_s.arg(last));
}

} // namespace

class TestGateFairness : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineFixture> m_fixture;
    std::shared_ptr<WorkerHold> m_hold;

    bool start(berth::EngineSettings settings = {})
    {
        m_fixture = std::make_unique<EngineFixture>();
        return m_fixture->startWithClock(QDateTime(QDate(2026, 11, 27), QTime(9, 0), Qt::UTC), settings);
    }
    void holdWorkers()
    {
        m_hold = std::make_shared<WorkerHold>();
        m_fixture->engine().gateChecks().setBeforeCheck([hold = m_hold] { hold->wait(); });
    }
    void deployGated(const QString &slug, const QString &password)
    {
        const QJsonArray files {QJsonObject {{u"path"_s, u"index.html"_s}, {u"content"_s, u"<h1>Inside</h1>"_s}}};
        const auto reply = m_fixture->client().api("POST", u"/deploy"_s, m_fixture->ownerKey(),
            QJsonObject {{u"slug"_s, slug}, {u"protect"_s, true}, {u"password"_s, password}, {u"files"_s, files}});
        QCOMPARE(reply.status, 200);
    }
    // Posts the gate's form from `source` and returns the client without waiting for the answer.
    std::unique_ptr<RawClient> post(
        const QString &slug, const QByteArray &body, const QHostAddress &source, const QByteArray &headers = {})
    {
        auto client = std::make_unique<RawClient>();
        client->socket().bind(source);
        if (!client->connectTo(m_fixture->client().port()))
            qWarning("cannot connect from %s", qPrintable(source.toString()));
        client->send("POST /_gate HTTP/1.1\r\nHost: " + slug.toLatin1()
            + ".localhost:" + QByteArray::number(m_fixture->client().port()) + "\r\n" + headers
            + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " + QByteArray::number(body.size())
            + "\r\n\r\n" + body);
        return client;
    }
    static RawResponse answer(RawClient &client)
    {
        RawResponse response;
        client.waitResponse(&response, false, 30000);
        return response;
    }
    RawResponse gate(
        const QString &slug, const QByteArray &body, const QHostAddress &source, const QByteArray &headers = {})
    {
        return answer(*post(slug, body, source, headers));
    }
    // Whether a new connection from `source` is let in: with one connection per address, only once the server has
    // seen that address's earlier connection close.
    int statusOfNewConnection(const QHostAddress &source)
    {
        RawClient client;
        client.socket().bind(source);
        if (!client.connectTo(m_fixture->client().port()))
            return 0;
        client.send("GET / HTTP/1.1\r\nHost: gated-site.localhost:" + QByteArray::number(m_fixture->client().port())
            + "\r\n\r\n");
        RawResponse response;
        client.waitResponse(&response, false, 5000);
        return response.status;
    }
    // Wrong guesses from `addresses` addresses from 127.0.0.<firstAddress> on, not waiting for their answers.
    std::vector<std::unique_ptr<RawClient>> flood(const QString &slug, int addresses, int guessesEach, int firstAddress)
    {
        std::vector<std::unique_ptr<RawClient>> clients;
        for (int address = 0; address < addresses; ++address) {
            for (int guess = 0; guess < guessesEach; ++guess)
                clients.push_back(post(slug, "password=guess-" + QByteArray::number(address * 100 + guess),
                    loopback(firstAddress + address)));
        }
        return clients;
    }

private Q_SLOTS:
    void cleanup()
    {
        if (m_hold)
            m_hold->open(); // the engine waits for its workers as it stops
        m_fixture.reset();
        m_hold.reset();
    }

    void floodOfOneSiteLeavesAnotherSitesGateFast()
    {
        QVERIFY(start());
        deployGated(u"flooded-site"_s, u"right"_s);
        deployGated(u"other-site"_s, u"other"_s);
        QElapsedTimer quiet;
        quiet.start();
        QCOMPARE(gate(u"other-site"_s, "password=other", loopback(3)).status, 303);
        const qint64 quietMs = quiet.elapsed();
        qInfo("a right password without a flood: %lld ms", quietMs);
        // 150 wrong guesses from 15 addresses, each address within its own limit of 10 a minute.
        std::vector<std::unique_ptr<RawClient>> guesses = flood(u"flooded-site"_s, 15, 10, 10);
        std::vector<std::optional<RawResponse>> answers(guesses.size());
        // The flood is being checked: its first wrong guess has been answered.
        QVERIFY(QTest::qWaitFor(
            [&] {
                bool checked = false;
                for (size_t i = 0; i < guesses.size(); ++i) {
                    RawResponse response;
                    if (!answers[i] && guesses[i]->takeResponse(&response))
                        answers[i] = response;
                    checked = checked || (answers[i] && answers[i]->status == 401);
                }
                return checked;
            },
            30000));

        QElapsedTimer timer;
        timer.start();
        const RawResponse passed = gate(u"other-site"_s, "password=other&next=%2F", loopback(2));
        const qint64 elapsedMs = timer.elapsed();
        qInfo("another site's right password answered in %lld ms during the flood", elapsedMs);
        QCOMPARE(passed.status, 303);
        // Within 1 s; where a lone check is itself slow (sanitizers, a loaded machine), within four lone checks. Queued
        // behind the flood it would take tens of seconds.
        const qint64 boundMs = qMax<qint64>(1000, 4 * quietMs);
        QVERIFY2(elapsedMs < boundMs, qPrintable(u"%1 ms, bound %2 ms"_s.arg(elapsedMs).arg(boundMs)));

        // Of the flood, only the site's 30 attempts a minute were let through to a check (or found the queue full);
        // every other guess was refused at once.
        int limited = 0;
        int checkedOrBusy = 0;
        for (size_t i = 0; i < guesses.size(); ++i) {
            const RawResponse response = answers[i] ? *answers[i] : answer(*guesses[i]);
            if (response.status == 429) {
                ++limited;
                QVERIFY(response.header("retry-after").toInt() > 0);
            } else {
                QVERIFY2(
                    response.status == 401 || response.status == 503, qPrintable(QString::number(response.status)));
                ++checkedOrBusy;
            }
        }
        QCOMPARE(checkedOrBusy, 30);
        QCOMPARE(limited, 120);
    }

    void attemptsAreLimitedPerSite()
    {
        QVERIFY(start());
        deployGated(u"gated-site"_s, u"right"_s);
        deployGated(u"other-site"_s, u"other"_s);
        // Three addresses spend the site's 30 attempts a minute, each within its own 10.
        for (int address = 0; address < 3; ++address) {
            for (int attempt = 0; attempt < 10; ++attempt)
                QCOMPARE(gate(u"gated-site"_s, "password=nope", loopback(10 + address)).status, 401);
        }
        // A fourth address, with the right password, is refused too: the page says when to try again.
        const RawResponse page = gate(u"gated-site"_s, "password=right&next=%2F", loopback(20));
        QCOMPARE(page.status, 429);
        const int retryAfter = page.header("retry-after").toInt();
        QVERIFY(retryAfter > 0 && retryAfter <= 60);
        QVERIFY(page.header("content-type").startsWith("text/html"));
        QVERIFY(page.body.contains("Too many tries"));
        QVERIFY(page.body.contains("Try again in"));
        QVERIFY(page.header("set-cookie").isEmpty());
        const RawResponse json = gate(u"gated-site"_s, "password=right", loopback(20), "Accept: application/json\r\n");
        QCOMPARE(json.status, 429);
        QVERIFY(json.header("content-type").startsWith("application/json"));
        QVERIFY(json.header("retry-after").toInt() > 0);
        QVERIFY(json.body.contains("this site"));

        // Another site's gate is not affected, from the same address.
        QCOMPARE(gate(u"other-site"_s, "password=other", loopback(20)).status, 303);
        // Once the minute has passed, the site lets attempts through again.
        m_fixture->clock().advance(61'000);
        QCOMPARE(gate(u"gated-site"_s, "password=right", loopback(21)).status, 303);
    }

    void aFloodedSiteLeavesAWorkerToOthers()
    {
        QVERIFY(start());
        deployGated(u"flooded-site"_s, u"right"_s);
        deployGated(u"other-site"_s, u"other"_s);
        holdWorkers();
        GateChecks &checks = m_fixture->engine().gateChecks();
        // The flooded site's checks run one at a time: the rest wait, though a worker is free.
        std::vector<std::unique_ptr<RawClient>> guesses = flood(u"flooded-site"_s, 1, 9, 10);
        QTRY_COMPARE(m_hold->entered.load(), 1);
        QTRY_COMPARE(checks.waiting(), 8);
        // Another site's check starts at once on the other worker.
        std::unique_ptr<RawClient> other = post(u"other-site"_s, "password=other", loopback(2));
        QTRY_COMPARE(m_hold->entered.load(), 2);
        QCOMPARE(checks.waiting(), 8);
        m_hold->open();
        QCOMPARE(answer(*other).status, 303);
        for (std::unique_ptr<RawClient> &guess : guesses)
            QCOMPARE(answer(*guess).status, 401);
    }

    void sitesTakeTurns()
    {
        QVERIFY(start());
        for (const QString &slug : {u"first-flooded"_s, u"second-flooded"_s, u"other-site"_s})
            deployGated(slug, u"right"_s);
        holdWorkers();
        GateChecks &checks = m_fixture->engine().gateChecks();
        // Two flooded sites hold both workers, with five more checks each waiting; then another site's check.
        std::vector<std::unique_ptr<RawClient>> guesses = flood(u"first-flooded"_s, 1, 6, 10);
        for (std::unique_ptr<RawClient> &guess : flood(u"second-flooded"_s, 1, 6, 11))
            guesses.push_back(std::move(guess));
        QTRY_COMPARE(checks.waiting(), 10);
        QTRY_COMPARE(m_hold->entered.load(), 2);
        std::unique_ptr<RawClient> other = post(u"other-site"_s, "password=right", loopback(2));
        QTRY_COMPARE(checks.waiting(), 11);

        // The other site's check takes the first worker to come free: behind the two checks under way and at most
        // the one the other worker takes next, not behind the ten waiting.
        m_hold->open();
        int answeredBefore = 0;
        int wrongAnswers = 0;
        RawResponse passed;
        QVERIFY(QTest::qWaitFor(
            [&] {
                for (std::unique_ptr<RawClient> &guess : guesses) {
                    RawResponse response;
                    if (guess && guess->takeResponse(&response)) {
                        wrongAnswers += response.status == 401 ? 0 : 1;
                        ++answeredBefore;
                        guess.reset();
                    }
                }
                return other->takeResponse(&passed);
            },
            30000));
        QCOMPARE(passed.status, 303);
        QCOMPARE(wrongAnswers, 0);
        QVERIFY2(answeredBefore <= 3, qPrintable(QString::number(answeredBefore)));
    }

    void fullQueuesAnswer503()
    {
        QVERIFY(start());
        for (int site = 0; site < 5; ++site)
            deployGated(u"site-%1"_s.arg(site), u"right"_s);
        holdWorkers();
        GateChecks &checks = m_fixture->engine().gateChecks();
        // One check of each of two sites under way.
        std::vector<std::unique_ptr<RawClient>> waiting = flood(u"site-0"_s, 1, 1, 10);
        waiting.push_back(post(u"site-1"_s, "password=wrong", loopback(10)));
        QTRY_COMPARE(m_hold->entered.load(), 2);
        // Eight checks wait for each of four sites: 32, all the queues may hold.
        for (int site = 0; site < 4; ++site) {
            for (std::unique_ptr<RawClient> &queued : flood(u"site-%1"_s.arg(site), 1, 8, 11 + site))
                waiting.push_back(std::move(queued));
        }
        QTRY_COMPARE(checks.waiting(), 32);

        // A site whose queue is full: a page for the form, JSON for a script; both say when to try again.
        const RawResponse sitePage = gate(u"site-0"_s, "password=right&next=%2F", loopback(20));
        QCOMPARE(sitePage.status, 503);
        QCOMPARE(sitePage.header("retry-after"), QByteArray("2"));
        QVERIFY(sitePage.header("content-type").startsWith("text/html"));
        QVERIFY(sitePage.body.contains("try again in a few seconds"));
        const RawResponse siteJson = gate(u"site-0"_s, "password=right", loopback(20), "Accept: application/json\r\n");
        QCOMPARE(siteJson.status, 503);
        QVERIFY(siteJson.body.contains("for this site"));
        // A site with nothing queued, when all queues together are full.
        const RawResponse allJson = gate(u"site-4"_s, "password=right", loopback(20), "Accept: application/json\r\n");
        QCOMPARE(allJson.status, 503);
        QCOMPARE(allJson.header("retry-after"), QByteArray("2"));
        QVERIFY(!allJson.body.contains("for this site"));
        QCOMPARE(checks.waiting(), 32);

        // The refused attempts were never checked; the queued ones all are, and then the site lets one in again.
        m_hold->open();
        for (std::unique_ptr<RawClient> &client : waiting)
            QCOMPARE(answer(*client).status, 401);
        QCOMPARE(checks.checksRun(), 34);
        QCOMPARE(gate(u"site-4"_s, "password=right", loopback(21)).status, 303);
    }

    void checkOfAClientThatLeftIsNotRun()
    {
        berth::EngineSettings settings;
        settings.maxConnectionsPerAddress = 1; // shows when the server has seen a client go
        QVERIFY(start(settings));
        deployGated(u"gated-site"_s, u"right"_s);
        holdWorkers();
        GateChecks &checks = m_fixture->engine().gateChecks();
        std::unique_ptr<RawClient> first = post(u"gated-site"_s, "password=a", loopback(10));
        QTRY_COMPARE(m_hold->entered.load(), 1);
        std::unique_ptr<RawClient> second = post(u"gated-site"_s, "password=b", loopback(11));
        QTRY_COMPARE(checks.waiting(), 1);
        std::unique_ptr<RawClient> leaving = post(u"gated-site"_s, "password=c", loopback(12));
        QTRY_COMPARE(checks.waiting(), 2);

        leaving->socket().abort();
        leaving.reset();
        // Its connection is closed on the server too. (Each probe is one connection: evaluated once each time.)
        QVERIFY(QTest::qWaitFor([&] { return statusOfNewConnection(loopback(12)) == 401; }, 10000));

        m_hold->open();
        QCOMPARE(answer(*first).status, 401);
        QCOMPARE(answer(*second).status, 401);
        QTRY_COMPARE(checks.checksDropped(), 1);
        QCOMPARE(checks.waiting(), 0);
        QCOMPARE(checks.checksRun(), 2);
        // The worker its turn had taken went on to the next check.
        QCOMPARE(gate(u"gated-site"_s, "password=right", loopback(13)).status, 303);
        QCOMPARE(checks.checksRun(), 3);
    }
};

QTEST_GUILESS_MAIN(TestGateFairness)
#include "tst_gatefairness.moc"
