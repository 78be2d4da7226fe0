// Several berthd processes on one PostgreSQL database: what holds across nodes, and what a node does while the
// database is away.
#include "berthdprocess.h"
#include "httptestclient.h"
#include "postgrescluster.h"
#include "storage/database.h"

#include <QDeadlineTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRegularExpression>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

using namespace Qt::StringLiterals;
using berth::test::BerthdProcess;
using berth::test::HttpTestClient;
using berth::test::PostgresCluster;
using berth::test::PostgresTestDatabase;

namespace {

QByteArray ownerKey(const BerthdProcess &server)
{
    const auto match
        = QRegularExpression(u"Owner API key[^\n]*\n(bk_[A-Za-z0-9]+)\n"_s).match(QString::fromLatin1(server.output()));
    return match.hasMatch() ? match.captured(1).toLatin1() : QByteArray();
}

QProcessEnvironment withDatabase(const QString &url)
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(u"BERTH_DATABASE"_s, url);
    return environment;
}

// One request of a batch sent all at once.
struct Call
{
    quint16 port = 0;
    QByteArray method;
    QString host; // "localhost:<port>" for the API, "<slug>.localhost:<port>" for a site
    QString path;
    QByteArray key; // empty: none
    QByteArray body;
};

// Sends every call at once (each on a connection of its own) and waits for every answer: the statuses in order, 0
// for a call that got none within the deadline.
QList<int> concurrently(const QList<Call> &calls)
{
    QNetworkAccessManager manager;
    QList<int> statuses(calls.size(), 0);
    QList<QNetworkReply *> replies;
    for (const Call &call : calls) {
        QNetworkRequest request(QUrl(u"http://127.0.0.1:%1%2"_s.arg(call.port).arg(call.path)));
        request.setRawHeader("Host", call.host.toUtf8());
        request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
        if (!call.key.isEmpty())
            request.setRawHeader("Authorization", "Bearer " + call.key);
        if (!call.body.isEmpty())
            request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
        replies.append(manager.sendCustomRequest(request, call.method, call.body));
    }
    QEventLoop loop;
    int pending = int(replies.size());
    for (QNetworkReply *reply : std::as_const(replies))
        QObject::connect(reply, &QNetworkReply::finished, &loop, [&pending, &loop] {
            if (--pending == 0)
                loop.quit();
        });
    QTimer::singleShot(60'000, &loop, &QEventLoop::quit);
    if (pending > 0)
        loop.exec();
    for (qsizetype i = 0; i < replies.size(); ++i)
        statuses[i] = replies.at(i)->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    qDeleteAll(replies);
    return statuses;
}

// Polls a node until `path` on the site answers `status` or the deadline passes (each request runs an event loop of
// its own until its answer: no sleeping). The status last seen.
int statusWithin(quint16 port, const QString &slug, const QString &path, int status, int ms)
{
    HttpTestClient client(port);
    const QDeadlineTimer deadline(ms);
    int seen = 0;
    do
        seen = client.site(slug, path).status;
    while (seen != status && !deadline.hasExpired());
    return seen;
}

QByteArray json(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

} // namespace

class TestNodes : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        if (QByteArray(QTest::currentTestFunction()) == "databaseOutage")
            return;
        BERTH_CREATE_FRESH_POSTGRES_DATABASE(m_database);
        m_a = std::make_unique<BerthdProcess>(m_dirA.path());
        QVERIFY(m_a->start(withDatabase(m_database->url())));
        m_key = ownerKey(*m_a);
        QVERIFY2(!m_key.isEmpty(), m_a->output().constData());
        // Started second, on the same database: it finds the owner and prints no key.
        m_b = std::make_unique<BerthdProcess>(m_dirB.path());
        QVERIFY(m_b->start(withDatabase(m_database->url())));
        QVERIFY(ownerKey(*m_b).isEmpty());
    }
    void cleanup()
    {
        m_a.reset();
        m_b.reset();
        m_database.reset();
    }

    // A change through one node is served by the other within 1 s: a deploy (files fetched from the database), an
    // update, a rename (the old address 404) and a delete.
    void changesReachTheOtherNode()
    {
        HttpTestClient a(m_a->port());
        HttpTestClient b(m_b->port());
        const auto deployed
            = a.api("POST", u"/deploy"_s, m_key, json({{u"html"_s, u"<p>first</p>"_s}, {u"slug"_s, u"shared-site"_s}}));
        QCOMPARE(deployed.status, 200);
        const QString id = deployed.json()[u"id"_s].toString();
        QCOMPARE(statusWithin(m_b->port(), u"shared-site"_s, u"/"_s, 200, 1000), 200);
        QVERIFY(b.site(u"shared-site"_s).body.contains("<p>first</p>"));

        QCOMPARE(a.api("PUT", u"/deploy/"_s + id, m_key, json({{u"html"_s, u"<p>second</p>"_s}})).status, 200);
        QDeadlineTimer deadline(1000);
        QByteArray body;
        do
            body = b.site(u"shared-site"_s).body;
        while (!body.contains("<p>second</p>") && !deadline.hasExpired());
        QVERIFY2(body.contains("<p>second</p>"), body.constData());

        QCOMPARE(
            a.api("PATCH", u"/deploy/"_s + id + u"/slug"_s, m_key, json({{u"slug"_s, u"moved-site"_s}})).status, 200);
        QCOMPARE(statusWithin(m_b->port(), u"moved-site"_s, u"/"_s, 200, 1000), 200);
        QCOMPARE(b.site(u"shared-site"_s).status, 404);
        // B's API reads the same database: the new slug at once.
        QCOMPARE(b.api("GET", u"/deploy/"_s + id, m_key).json()[u"slug"_s].toString(), u"moved-site"_s);

        QCOMPARE(a.api("DELETE", u"/deploy/"_s + id, m_key).status, 200);
        QCOMPARE(statusWithin(m_b->port(), u"moved-site"_s, u"/"_s, 404, 1000), 404);
    }

    // 8 clients, half of them through each node, increment one counter: the database adds, so the sum is exact.
    void countersAreExactAcrossNodes()
    {
        HttpTestClient a(m_a->port());
        const auto deployed
            = a.api("POST", u"/deploy"_s, m_key, json({{u"html"_s, u"hi"_s}, {u"slug"_s, u"counted-site"_s}}));
        QCOMPARE(deployed.status, 200);
        // Node B loads the site at its start (what the change notification does is tested on its own below).
        m_b = std::make_unique<BerthdProcess>(m_dirB.path());
        QVERIFY(m_b->start(withDatabase(m_database->url())));
        // (Its files are in node A's blob store: the counter endpoints do not need them.)
        QCOMPARE(statusWithin(m_b->port(), u"counted-site"_s, u"/_counter/visits"_s, 200, 1000), 200);
        constexpr int kClients = 8;
        constexpr int kRounds = 6; // 24 per node: within the per-address limit of 60 a minute
        QList<Call> calls;
        for (int round = 0; round < kRounds; ++round)
            for (int client = 0; client < kClients; ++client) {
                const quint16 port = client % 2 ? m_b->port() : m_a->port();
                calls.append(
                    {port, "POST", u"counted-site.localhost:%1"_s.arg(port), u"/_counter/visits/increment"_s, {}, {}});
            }
        // The first increment creates the counter: both nodes at once must not both insert it.
        const QList<int> statuses = concurrently(calls);
        QCOMPARE(statuses.count(200), kClients * kRounds);
        for (BerthdProcess *node : {m_a.get(), m_b.get()}) {
            HttpTestClient client(node->port());
            const auto read = client.site(u"counted-site"_s, u"/_counter/visits"_s);
            QCOMPARE(read.status, 200);
            QCOMPARE(read.json()[u"value"_s].toInteger(), kClients * kRounds);
        }
    }

    // The agent plan allows 5 sites; with 4 deployed, 8 creates race for the last slot through both nodes: one wins.
    void planLimitHoldsAcrossNodes()
    {
        HttpTestClient a(m_a->port());
        const auto session = a.request("POST", a.apiHost(), u"/auth/session"_s);
        QCOMPARE(session.status, 200);
        const QByteArray agent = session.json()[u"api_key"_s].toString().toLatin1();
        for (int i = 0; i < 4; ++i)
            QCOMPARE(a.api("POST", u"/deploy"_s, agent, json({{u"html"_s, u"<p>%1</p>"_s.arg(i)}})).status, 200);
        QList<Call> calls;
        for (int i = 0; i < 8; ++i) {
            const quint16 port = i % 2 ? m_b->port() : m_a->port();
            calls.append({port, "POST", u"localhost:%1"_s.arg(port), u"/deploy"_s, agent,
                json({{u"html"_s, u"<p>race %1</p>"_s.arg(i)}})});
        }
        const QList<int> statuses = concurrently(calls);
        QCOMPARE(statuses.count(200), 1);
        QCOMPARE(statuses.count(403), 7);
        HttpTestClient b(m_b->port());
        QCOMPARE(b.api("GET", u"/deploys"_s, agent).json()[u"deployments"_s].toArray().size(), 5);
    }

    // A claim counts the claimer's sites under her row lock, as a create does: a site of hers that commits while the
    // claim waits for that lock is counted. Made deterministic by holding the lock here: Ann (free: 5 sites) has 4,
    // the agent 1; while the claim through node B waits, a fifth site of Ann's commits (as through a third node), so
    // the claim would take her to 6: 403, and nothing moves.
    void claimCountsUnderTheClaimersLock()
    {
        QTemporaryDir adminDir;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(u"BERTH_DATABASE"_s, m_database->url());
        const auto created = BerthdProcess::run(
            {u"key"_s, u"create"_s, u"--user"_s, u"ann@example.com"_s, u"--data-dir"_s, adminDir.path()}, environment);
        QCOMPARE(created.exitCode, 0);
        const QByteArray ann = created.out.trimmed();
        HttpTestClient a(m_a->port());
        for (int i = 0; i < 4; ++i)
            QCOMPARE(a.api("POST", u"/deploy"_s, ann, json({{u"html"_s, u"<p>%1</p>"_s.arg(i)}})).status, 200);
        const QJsonObject agent = a.request("POST", a.apiHost(), u"/auth/session"_s).json();
        const QByteArray agentKey = agent[u"api_key"_s].toString().toLatin1();
        QCOMPARE(a.api("POST", u"/deploy"_s, agentKey, json({{u"html"_s, u"<p>agent</p>"_s}})).status, 200);

        berth::Database database(QString(), m_database->url());
        QVERIFY(database.open());
        QSqlDatabase holder = database.connection();
        QVERIFY(holder.transaction());
        QSqlQuery query(holder);
        QVERIFY(query.exec(u"SELECT id, pg_backend_pid() FROM users WHERE email = 'ann@example.com' FOR UPDATE"_s));
        QVERIFY(query.next());
        const QString annId = query.value(0).toString();
        const int holderPid = query.value(1).toInt();

        QNetworkAccessManager manager;
        QNetworkRequest request(QUrl(u"http://127.0.0.1:%1/auth/claim"_s.arg(m_b->port())));
        request.setRawHeader("Host", u"localhost:%1"_s.arg(m_b->port()).toUtf8());
        request.setRawHeader("Authorization", "Bearer " + ann);
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
        std::unique_ptr<QNetworkReply> claim(
            manager.post(request, json({{u"claim_token"_s, agent[u"claim_token"_s].toString()}})));
        // Another connection sees the claim's statement wait for this one.
        berth::Database observer(QString(), m_database->url());
        QVERIFY(observer.open());
        QSqlQuery waiting(observer.connection());
        waiting.prepare(u"SELECT COUNT(*) FROM pg_stat_activity WHERE ? = ANY(pg_blocking_pids(pid))"_s);
        const auto claimWaits = [&] {
            waiting.addBindValue(holderPid);
            return waiting.exec() && waiting.next() && waiting.value(0).toInt() > 0;
        };
        QTRY_VERIFY_WITH_TIMEOUT(claimWaits(), 10'000);
        QVERIFY(!claim->isFinished());

        QVERIFY(
            query.exec(u"INSERT INTO deployments (id, user_id, slug, storage_type, is_spa, title, favicon, og_image, "
                       "protected, created_at, updated_at) VALUES ('dep_raced', '%1', 'raced-site', 'html', 0, '', "
                       "'', '', 0, '2026-11-25T12:00:00.000Z', '2026-11-25T12:00:00.000Z')"_s.arg(annId)));
        QVERIFY(holder.commit());
        QTRY_VERIFY_WITH_TIMEOUT(claim->isFinished(), 10'000);
        QCOMPARE(claim->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 403);
        QVERIFY(query.exec(u"SELECT COUNT(*) FROM deployments WHERE user_id = '%1'"_s.arg(annId)));
        QVERIFY(query.next());
        QCOMPARE(query.value(0).toInt(), 5);
        QCOMPARE(
            a.api("GET", u"/deploys"_s, agentKey).json()[u"deployments"_s].toArray().size(), 1); // still the agent's
    }

    // Two nodes create the same slug at once: the database's unique index decides, one 200 and one 409.
    void slugRaceAcrossNodes()
    {
        const QList<int> statuses = concurrently({
            {m_a->port(), "POST", u"localhost:%1"_s.arg(m_a->port()), u"/deploy"_s, m_key,
                json({{u"html"_s, u"<p>a</p>"_s}, {u"slug"_s, u"wanted-site"_s}})},
            {m_b->port(), "POST", u"localhost:%1"_s.arg(m_b->port()), u"/deploy"_s, m_key,
                json({{u"html"_s, u"<p>b</p>"_s}, {u"slug"_s, u"wanted-site"_s}})},
        });
        QCOMPARE(statuses.count(200), 1);
        QCOMPARE(statuses.count(409), 1);
        HttpTestClient b(m_b->port());
        const QJsonArray sites = b.api("GET", u"/deploys"_s, m_key).json()[u"deployments"_s].toArray();
        QCOMPARE(sites.size(), 1);
        QCOMPARE(sites.at(0)[u"slug"_s].toString(), u"wanted-site"_s);
    }

    // POST /auth/session allows 5 a minute per client address. Twelve at once from one address, half through each
    // node: each node counts on its own by default (5 + 5 through); with --shared-rate-limits both count in the
    // database, and exactly 5 get through in all, however the two processes' requests interleave.
    void sharedRateLimitsAcrossNodes()
    {
        const auto sessions = [this] {
            QList<Call> calls;
            for (int i = 0; i < 12; ++i) {
                const quint16 port = i % 2 ? m_b->port() : m_a->port();
                calls.append({port, "POST", u"localhost:%1"_s.arg(port), u"/auth/session"_s, {}, {}});
            }
            return concurrently(calls);
        };
        QList<int> statuses = sessions();
        QCOMPARE(statuses.count(200), 10);
        QCOMPARE(statuses.count(429), 2);

        for (auto *node : {&m_a, &m_b}) {
            const QString folder = node == &m_a ? m_dirA.path() : m_dirB.path();
            node->reset(); // a fresh node forgets its counts
            *node = std::make_unique<BerthdProcess>(folder);
            (*node)->setExtraArguments({u"--shared-rate-limits"_s});
            QVERIFY((*node)->start(withDatabase(m_database->url())));
            QVERIFY2((*node)->output().contains("Rate limits: shared"), (*node)->output().constData());
        }
        statuses = sessions();
        QCOMPARE(statuses.count(200), 5);
        QCOMPARE(statuses.count(429), 7);
    }

    // The database stopped under a running node: the sites it has loaded are still served, whatever needs the
    // database (a key lookup, a write) answers 503 with a plain message (not 401, not the server's words), and the
    // node works on by itself once the database is back.
    void databaseOutage()
    {
        if (!PostgresCluster::binariesAvailable())
            QSKIP("PostgreSQL is not installed (no initdb in BERTH_POSTGRESQL_BINDIR)");
        PostgresCluster cluster; // a private one: the shared cluster must not stop under other tests
        QString error;
        QVERIFY2(cluster.start(&error), qPrintable(error));
        PostgresTestDatabase database(cluster.socketFolder());
        QVERIFY2(database.create(&error), qPrintable(error));

        QTemporaryDir dir;
        BerthdProcess server(dir.path());
        QVERIFY(server.start(withDatabase(database.url())));
        const QByteArray key = ownerKey(server);
        QVERIFY2(!key.isEmpty(), server.output().constData());
        HttpTestClient client(server.port());
        QCOMPARE(
            client
                .api("POST", u"/deploy"_s, key, QJsonObject {{u"html"_s, u"<p>up</p>"_s}, {u"slug"_s, u"kept-site"_s}})
                .status,
            200);
        QVERIFY(client.site(u"kept-site"_s).body.contains("<p>up</p>"));

        cluster.stop();
        const auto served = client.site(u"kept-site"_s);
        QCOMPARE(served.status, 200);
        QVERIFY(served.body.contains("<p>up</p>"));
        for (const auto &reply : {client.api("GET", u"/deploys"_s, key),
                 client.api("POST", u"/deploy"_s, key, QJsonObject {{u"html"_s, u"<p>new</p>"_s}}),
                 client.api("GET", u"/auth/me"_s, key)}) {
            QCOMPARE(reply.status, 503);
            QVERIFY2(reply.error().contains(u"database is unavailable"_s), reply.body.constData());
            QVERIFY2(!reply.body.contains(cluster.socketFolder().toUtf8()), reply.body.constData());
        }
        // MCP with a key: the same 503, not a 401.
        const auto mcp = client.request("POST", client.apiHost(), u"/mcp"_s,
            QJsonDocument(QJsonObject {{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, 1}, {u"method"_s, u"initialize"_s},
                              {u"params"_s, QJsonObject {{u"protocolVersion"_s, u"2025-03-26"_s}}}})
                .toJson(),
            {{"Authorization", "Bearer " + key}, {"Content-Type", "application/json"},
                {"Accept", "application/json, text/event-stream"}});
        QCOMPARE(mcp.status, 503);
        QVERIFY2(mcp.error().contains(u"database is unavailable"_s), mcp.body.constData());
        // A visitor's write too: a counter increment.
        const auto increment
            = client.request("POST", u"kept-site.localhost:%1"_s.arg(server.port()), u"/_counter/visits/increment"_s);
        QCOMPARE(increment.status, 503);
        QVERIFY2(increment.error().contains(u"database is unavailable"_s), increment.body.constData());
        // A made-up key cannot be told from a real one either while the database is away: 503 as well.
        QCOMPARE(client.api("GET", u"/deploys"_s, "bk_madeup").status, 503);

        QVERIFY2(cluster.restart(&error), qPrintable(error));
        // The node connects again by itself (at most once a second): poll, with a deadline.
        QDeadlineTimer deadline(10'000);
        int status = 0;
        do // each request runs an event loop of its own until its answer: no sleeping
            status = client.api("GET", u"/deploys"_s, key).status;
        while (status != 200 && !deadline.hasExpired());
        QCOMPARE(status, 200);
        // The first deploy after the database came back succeeds: the blob store's connection (on a worker thread,
        // opened before the outage) learns of the restart at its first statement, which fails, and that call is
        // tried once more on a new connection.
        const auto back = client.api(
            "POST", u"/deploy"_s, key, QJsonObject {{u"html"_s, u"<p>back</p>"_s}, {u"slug"_s, u"back-site"_s}});
        QVERIFY2(back.status == 200, back.body.constData());
        QVERIFY(client.site(u"back-site"_s).body.contains("<p>back</p>"));
        QCOMPARE(client.api("GET", u"/deploys"_s, "bk_madeup").status, 401);
    }

private:
    QTemporaryDir m_dirA;
    QTemporaryDir m_dirB;
    std::unique_ptr<PostgresTestDatabase> m_database;
    std::unique_ptr<BerthdProcess> m_a;
    std::unique_ptr<BerthdProcess> m_b;
    QByteArray m_key;
};

QTEST_GUILESS_MAIN(TestNodes)
#include "tst_nodes.moc"
