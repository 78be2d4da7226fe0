// Several berthd processes on one PostgreSQL database: what holds across nodes, and what a node does while the
// database is away.
#include "berthdprocess.h"
#include "httptestclient.h"
#include "postgrescluster.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QRegularExpression>
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

} // namespace

class TestNodes : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The database stopped under a running node: the sites it has loaded are still served, whatever needs the
    // database (a key lookup, a write) answers 503 with a plain message (not 401, not the server's words), and the
    // node works on by itself once the database is back.
    void databaseOutage()
    {
        if (!QFile::exists(u"/usr/lib/postgresql/15/bin/initdb"_s))
            QSKIP("PostgreSQL 15 is not installed (postgresql-15)");
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
            client.api("POST", u"/deploy"_s, key, QJsonObject {{u"html"_s, u"<p>up</p>"_s}, {u"slug"_s, u"kept-site"_s}})
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
        QCOMPARE(
            client.api("POST", u"/deploy"_s, key, QJsonObject {{u"html"_s, u"<p>back</p>"_s}, {u"slug"_s, u"back-site"_s}})
                .status,
            200);
        QCOMPARE(client.api("GET", u"/deploys"_s, "bk_madeup").status, 401);
    }
};

QTEST_GUILESS_MAIN(TestNodes)
#include "tst_nodes.moc"
