// The owner's berthd subcommands as a user runs them: help and usage errors for each, and their effect on the data
// directory and on a running server (allow-list, sign-ups, pending codes, plans, keys, users, agents, SMTP).
#include "berthdprocess.h"
#include "httptestclient.h"
#include "postgrescluster.h"
#include "sourceclient.h"

#include <QJsonDocument>
#include <QList>
#include <QRegularExpression>
#include <QStringList>
#include <QTemporaryDir>
#include <QTemporaryFile>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::BerthdProcess;
using berth::test::HttpTestClient;

namespace {

const QList<QStringList> kCommands = {
    {u"users"_s, u"list"_s},
    {u"users"_s, u"plan"_s},
    {u"allow"_s, u"list"_s},
    {u"allow"_s, u"add"_s},
    {u"allow"_s, u"remove"_s},
    {u"signups"_s},
    {u"agents"_s},
    {u"signin-requests"_s},
    {u"keys"_s, u"list"_s},
    {u"keys"_s, u"revoke"_s},
    {u"smtp"_s, u"show"_s},
    {u"smtp"_s, u"set"_s},
    {u"smtp"_s, u"clear"_s},
    {u"smtp"_s, u"test"_s},
    {u"plans"_s, u"show"_s},
    {u"plans"_s, u"set"_s},
    {u"plans"_s, u"reset"_s},
};

} // namespace

class TestBerthdAdmin : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    BerthdProcess::Outcome admin(QStringList arguments)
    {
        return BerthdProcess::run(arguments << u"--data-dir"_s << m_dir.path());
    }
    // The one 6-digit code `berthd signin-requests` shows for this email.
    QString relayedCode(const QString &email)
    {
        const auto listed = admin({u"signin-requests"_s});
        for (const QByteArray &line : listed.out.split('\n')) {
            if (line.startsWith(email.toUtf8()))
                return QRegularExpression(u"\\b(\\d{6})$"_s).match(QString::fromUtf8(line.trimmed())).captured(1);
        }
        return {};
    }

private Q_SLOTS:
    void init() { QVERIFY(m_dir.isValid()); }
    void cleanup() { QDir(m_dir.path()).removeRecursively(); }

    void everyCommandHasHelp()
    {
        const auto overview = BerthdProcess::run({u"--help"_s});
        QCOMPARE(overview.exitCode, 0);
        for (const QStringList &command : kCommands) {
            QVERIFY2(overview.out.contains(command.join(u' ').toUtf8()), qPrintable(command.join(u' ')));
            const auto help = BerthdProcess::run(QStringList(command) << u"--help"_s);
            QCOMPARE(help.exitCode, 0);
            QVERIFY2(help.out.contains("--data-dir"), qPrintable(command.join(u' ')));
        }
        const auto smtpSet = BerthdProcess::run({u"smtp"_s, u"set"_s, u"--help"_s});
        for (const char *option : {"--host", "--port", "--user", "--password", "--password-file", "--from", "--tls"})
            QVERIFY2(smtpSet.out.contains(option), option);
        const auto plansSet = BerthdProcess::run({u"plans"_s, u"set"_s, u"--help"_s});
        for (const char *option : {"--deployments", "--submissions-per-day", "--submissions-stored", "--counters"})
            QVERIFY2(plansSet.out.contains(option), option);
        QCOMPARE(BerthdProcess::run({u"users"_s, u"--help"_s}).exitCode, 0);
    }

    void badUsageExitsWith2_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QByteArray>("message");
        QTest::newRow("group alone") << QStringList {u"users"_s} << QByteArray("list, plan");
        QTest::newRow("unknown sub") << QStringList {u"allow"_s, u"grant"_s} << QByteArray("grant");
        QTest::newRow("key alone") << QStringList {u"key"_s} << QByteArray("create, list, revoke");
        QTest::newRow("missing args") << QStringList {u"users"_s, u"plan"_s, u"a@example.com"_s}
                                      << QByteArray("USER PLAN");
        QTest::newRow("bad plan") << QStringList {u"users"_s, u"plan"_s, u"a@example.com"_s, u"gold"_s}
                                  << QByteArray("PLAN");
        QTest::newRow("bad email") << QStringList {u"allow"_s, u"add"_s, u"nobody"_s} << QByteArray("email");
        QTest::newRow("extra arg") << QStringList {u"signin-requests"_s, u"now"_s} << QByteArray("now");
        QTest::newRow("bad state") << QStringList {u"signups"_s, u"maybe"_s} << QByteArray("open or close");
        QTest::newRow("bad scope") << QStringList {u"agents"_s, u"everywhere"_s} << QByteArray("loopback, lan");
        QTest::newRow("revoke nothing") << QStringList {u"keys"_s, u"revoke"_s} << QByteArray("KEY_ID");
        QTest::newRow("smtp no from") << QStringList {u"smtp"_s, u"set"_s, u"--host"_s, u"mail.example.com"_s}
                                      << QByteArray("--from");
        QTest::newRow("smtp bad tls") << QStringList {u"smtp"_s, u"set"_s, u"--host"_s, u"h"_s, u"--from"_s,
            u"b@example.com"_s, u"--tls"_s, u"ssl"_s}
                                      << QByteArray("--tls");
        QTest::newRow("smtp bad port") << QStringList {u"smtp"_s, u"set"_s, u"--host"_s, u"h"_s, u"--from"_s,
            u"b@example.com"_s, u"--port"_s, u"99999"_s}
                                       << QByteArray("port");
        QTest::newRow("smtp test no to") << QStringList {u"smtp"_s, u"test"_s} << QByteArray("--to");
        QTest::newRow("plans bad plan") << QStringList {u"plans"_s, u"set"_s, u"gold"_s, u"--deployments"_s, u"1"_s}
                                        << QByteArray("PLAN");
        QTest::newRow("plans nothing") << QStringList {u"plans"_s, u"set"_s, u"free"_s} << QByteArray("at least one");
        QTest::newRow("plans negative") << QStringList {u"plans"_s, u"set"_s, u"free"_s, u"--counters"_s, u"-1"_s}
                                        << QByteArray("--counters");
        QTest::newRow("unknown option") << QStringList {u"users"_s, u"list"_s, u"--frob"_s} << QByteArray("frob");
        QTest::newRow("bad database") << QStringList {u"users"_s, u"list"_s, u"--database"_s,
            u"postgresql://ann:hunter2@db.lan"_s}
                                      << QByteArray("--database");
        QTest::newRow("key bad database")
            << QStringList {u"key"_s, u"create"_s, u"--database"_s, u"mysql://ann:hunter2@db.lan/berth"_s}
            << QByteArray("--database");
    }
    void badUsageExitsWith2()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QByteArray, message);
        const auto outcome = admin(arguments);
        QCOMPARE(outcome.exitCode, 2);
        QVERIFY2(outcome.err.contains(message), outcome.err.constData());
        QVERIFY(outcome.out.isEmpty());
        QVERIFY2(!outcome.err.contains("hunter2"), outcome.err.constData()); // a URL's password is never echoed
    }

    // A database that cannot be reached: the command fails (1) and says so, without the URL's password.
    void unreachableDatabaseFails()
    {
        QTemporaryDir nowhere; // a socket folder with no server in it
        const QString url = u"postgresql://berth:hunter2@localhost/berth?host="_s + nowhere.path();
        for (const QStringList &command : {QStringList {u"users"_s, u"list"_s}, QStringList {u"key"_s, u"create"_s}}) {
            const auto outcome = admin(QStringList(command) << u"--database"_s << url);
            QCOMPARE(outcome.exitCode, 1);
            QVERIFY2(
                outcome.err.contains("cannot connect to postgresql://berth@/berth?host="), outcome.err.constData());
            QVERIFY2(!outcome.err.contains("hunter2"), outcome.err.constData());
            QVERIFY(outcome.out.isEmpty());
        }
    }

    // Every admin command with --database (or BERTH_DATABASE) works on the PostgreSQL database that a server on
    // another data folder uses: the owner's first key, plans, users' plans, the allow-list, keys.
    void adminCommandsOnPostgresql()
    {
        BERTH_FRESH_POSTGRES_DATABASE(database);
        // With a password, which the test cluster (trusting its role) never asks for: it must never be printed.
        QString url = database.url();
        url.replace(u"postgresql://berth@"_s, u"postgresql://berth:hunter2@"_s);
        QByteArray printed;
        const auto onDatabase = [&](QStringList arguments) {
            const auto outcome = admin(arguments << u"--database"_s << url);
            printed += outcome.out + outcome.err;
            return outcome;
        };

        // A fresh database: the owner is made there, and `key create` prints the owner's first key.
        const auto owner = onDatabase({u"key"_s, u"create"_s});
        QCOMPARE(owner.exitCode, 0);
        QVERIFY2(owner.out.startsWith("bk_"), owner.err.constData());
        const auto bot = onDatabase(
            {u"key"_s, u"create"_s, u"--user"_s, u"bot@example.com"_s, u"--plan"_s, u"agent"_s, u"--label"_s, u"ci"_s});
        QCOMPARE(bot.exitCode, 0);
        QCOMPARE(onDatabase({u"users"_s, u"plan"_s, u"bot@example.com"_s, u"free"_s}).out,
            QByteArray("bot@example.com is on plan free\n"));
        QVERIFY(onDatabase({u"users"_s, u"list"_s}).out.contains("bot@example.com  free"));
        QCOMPARE(onDatabase({u"plans"_s, u"set"_s, u"agent"_s, u"--deployments"_s, u"1"_s}).exitCode, 0);
        QCOMPARE(onDatabase({u"allow"_s, u"add"_s, u"ann@example.com"_s}).exitCode, 0);
        QVERIFY(onDatabase({u"allow"_s, u"list"_s}).out.contains("ann@example.com"));
        QVERIFY(!QFile::exists(m_dir.filePath(u"berth.sqlite"_s))); // nothing went to SQLite

        // A server on the same database (from BERTH_DATABASE) and a data folder of its own finds all of it.
        QTemporaryDir serverDir;
        BerthdProcess server(serverDir.path());
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(u"BERTH_DATABASE"_s, url);
        QVERIFY(server.start(environment));
        printed += server.output();
        QVERIFY(!server.output().contains("Owner API key")); // made by `key create`
        HttpTestClient client(server.port());
        QCOMPARE(client.api("GET", u"/deploys"_s, owner.out.trimmed()).status, 200);
        const QByteArray botKey = bot.out.trimmed();
        for (const char *page : {"<p>1</p>", "<p>2</p>"}) // free: 5 sites, where agent would stop at 1
            QCOMPARE(
                client.api("POST", u"/deploy"_s, botKey, QJsonObject {{u"html"_s, QLatin1String(page)}}).status, 200);
        const QByteArray agentKey
            = client.api("POST", u"/auth/session"_s, {}).json()[u"api_key"_s].toString().toLatin1();
        QCOMPARE(client.api("POST", u"/deploy"_s, agentKey, QJsonObject {{u"html"_s, u"<p>1</p>"_s}}).status, 200);
        QCOMPARE(client.api("POST", u"/deploy"_s, agentKey, QJsonObject {{u"html"_s, u"<p>2</p>"_s}}).status, 403);

        // The allow-list lets Ann have a code, which the owner relays from the same database.
        QCOMPARE(client.api("POST", u"/auth/otp"_s, {}, QJsonObject {{u"email"_s, u"ann@example.com"_s}}).status, 200);
        const auto requests = onDatabase({u"signin-requests"_s});
        QVERIFY2(
            QRegularExpression(u"ann@example\\.com.*\\b\\d{6}\\n"_s).match(QString::fromUtf8(requests.out)).hasMatch(),
            requests.out.constData());

        // A key revoked through the database stops working on the server at once.
        const auto listed = onDatabase({u"keys"_s, u"list"_s, u"--user"_s, u"bot@example.com"_s});
        const QString keyId = QRegularExpression(u"(key_\\w+)\\s+bot@example\\.com\\s+ci"_s)
                                  .match(QString::fromUtf8(listed.out))
                                  .captured(1);
        QVERIFY2(!keyId.isEmpty(), listed.out.constData());
        QCOMPARE(onDatabase({u"keys"_s, u"revoke"_s, keyId}).exitCode, 0);
        QCOMPARE(client.api("GET", u"/deploys"_s, botKey).status, 401);
        QVERIFY2(!printed.contains("hunter2"), printed.constData());
    }

    void ownerControlsARunningServer()
    {
        BerthdProcess server(m_dir.path());
        QVERIFY(server.start());
        HttpTestClient client(server.port());
        int source = 10; // each request from its own loopback address: three a minute each is plenty
        auto otp = [&](const QString &email) {
            berth::test::SourceClient from(server.port(), QHostAddress(u"127.0.0.%1"_s.arg(source++)));
            const QByteArray body = QJsonDocument(QJsonObject {{u"email"_s, email}}).toJson();
            return from.request("POST", client.apiHost(), u"/auth/otp"_s, body, {{"Content-Type", "application/json"}})
                .status;
        };

        // Closed sign-ups: only the allow-list gets a code, and the owner relays it.
        QCOMPARE(admin({u"allow"_s, u"add"_s, u"Ann@Example.com"_s}).out, QByteArray("ann@example.com may sign in\n"));
        QVERIFY(admin({u"allow"_s, u"list"_s}).out.contains("ann@example.com"));
        QCOMPARE(otp(u"ann@example.com"_s), 200);
        QCOMPARE(otp(u"eve@example.com"_s), 200);
        QVERIFY(admin({u"signin-requests"_s}).out.contains("refused (not on the allow-list)"));
        QVERIFY(relayedCode(u"eve@example.com"_s).isEmpty());
        const QString code = relayedCode(u"ann@example.com"_s);
        QCOMPARE(code.size(), 6);
        const auto verified = client.api(
            "POST", u"/auth/verify"_s, {}, QJsonObject {{u"email"_s, u"ann@example.com"_s}, {u"code"_s, code}});
        QCOMPARE(verified.status, 200);
        const QByteArray key = verified.json().value(u"api_key"_s).toString().toLatin1();
        QCOMPARE(client.api("POST", u"/deploy"_s, key, QJsonObject {{u"html"_s, u"<p>hi</p>"_s}}).status, 200);

        // Users with their usage; plans; keys.
        const auto users = admin({u"users"_s, u"list"_s});
        QCOMPARE(users.exitCode, 0);
        QVERIFY(QRegularExpression(u"ann@example\\.com\\s+free\\s+1\\s+1\\s+0\\s+20"_s)
                    .match(QString::fromUtf8(users.out))
                    .hasMatch());
        QVERIFY(users.out.contains("(owner)"));
        QCOMPARE(admin({u"users"_s, u"plan"_s, u"ann@example.com"_s, u"pro"_s}).exitCode, 0);
        QVERIFY(admin({u"users"_s, u"list"_s}).out.contains("ann@example.com  pro"));
        QCOMPARE(admin({u"users"_s, u"plan"_s, u"zed@example.com"_s, u"pro"_s}).exitCode, 1);

        const auto listed = admin({u"keys"_s, u"list"_s, u"--user"_s, u"ann@example.com"_s});
        const QString keyId = QRegularExpression(u"(key_\\w+)\\s+ann@example\\.com\\s+sign-in"_s)
                                  .match(QString::fromUtf8(listed.out))
                                  .captured(1);
        QVERIFY2(!keyId.isEmpty(), listed.out.constData());
        QVERIFY(!listed.out.contains(key)); // no secrets
        QCOMPARE(admin({u"keys"_s, u"revoke"_s, keyId}).exitCode, 0);
        QCOMPARE(client.api("GET", u"/deploys"_s, key).status, 401); // at once, on the running server
        QVERIFY(admin({u"key"_s, u"list"_s}).out.contains("revoked"));
        QCOMPARE(admin({u"keys"_s, u"revoke"_s, u"key_missing"_s}).exitCode, 1);

        // Open sign-ups let anyone have a code; closed again, they do not.
        QVERIFY(admin({u"signups"_s}).out.contains("closed"));
        QCOMPARE(admin({u"signups"_s, u"open"_s}).out, QByteArray("Sign-ups are open\n"));
        QCOMPARE(otp(u"zoe@example.com"_s), 200);
        QCOMPARE(relayedCode(u"zoe@example.com"_s).size(), 6);
        QCOMPARE(admin({u"signups"_s, u"close"_s}).exitCode, 0);

        // Taken off the list: no more codes.
        QCOMPARE(admin({u"allow"_s, u"remove"_s, u"ann@example.com"_s}).exitCode, 0);
        QCOMPARE(admin({u"allow"_s, u"remove"_s, u"ann@example.com"_s}).exitCode, 1);
        QCOMPARE(otp(u"ann@example.com"_s), 200);
        QVERIFY(relayedCode(u"ann@example.com"_s).isEmpty());

        const QByteArray never = "Agents' sites expire: never\n";
        QCOMPARE(
            admin({u"agents"_s}).out, QByteArray("Agent sessions: loopback\nNew agents: at most 60 an hour\n") + never);
        QCOMPARE(admin({u"agents"_s, u"lan"_s}).out,
            QByteArray("Agent sessions: lan\nNew agents: at most 60 an hour\n") + never);
        QCOMPARE(admin({u"agents"_s, u"limit"_s, u"5"_s}).out,
            QByteArray("Agent sessions: lan\nNew agents: at most 5 an hour\n") + never);
        QCOMPARE(admin({u"agents"_s, u"limit"_s, u"-1"_s}).exitCode, 2);
        QCOMPARE(admin({u"agents"_s, u"limit"_s}).exitCode, 2);
        QVERIFY(admin({u"agents"_s}).out.contains("at most 5 an hour"));
        // How long agents' sites live: set on the running server's database, shown, refused when malformed.
        QVERIFY(admin({u"agents"_s, u"expire"_s, u"24h"_s}).out.endsWith("Agents' sites expire: after 24h\n"));
        QVERIFY(admin({u"agents"_s}).out.endsWith("Agents' sites expire: after 24h\n"));
        QCOMPARE(admin({u"agents"_s, u"expire"_s, u"soon"_s}).exitCode, 2);
        QCOMPARE(admin({u"agents"_s, u"expire"_s}).exitCode, 2);
        QVERIFY(admin({u"agents"_s, u"expire"_s, u"never"_s}).out.endsWith(never));
    }

    void plansApplyAtTheNextStart()
    {
        const auto set = admin({u"plans"_s, u"set"_s, u"agent"_s, u"--deployments"_s, u"1"_s, u"--counters"_s, u"3"_s});
        QCOMPARE(set.exitCode, 0);
        QVERIFY2(QRegularExpression(u"agent\\s+1\\s+50\\s+200\\s+3"_s).match(QString::fromUtf8(set.out)).hasMatch(),
            set.out.constData());
        QVERIFY(admin({u"plans"_s, u"show"_s}).out.contains("pro    50"));
        {
            BerthdProcess server(m_dir.path());
            QVERIFY(server.start());
            HttpTestClient client(server.port());
            const QJsonObject agent = client.api("POST", u"/auth/session"_s, {}).json();
            const QByteArray key = agent[u"api_key"_s].toString().toLatin1();
            QCOMPARE(client.api("POST", u"/deploy"_s, key, QJsonObject {{u"html"_s, u"<p>1</p>"_s}}).status, 200);
            QCOMPARE(client.api("POST", u"/deploy"_s, key, QJsonObject {{u"html"_s, u"<p>2</p>"_s}}).status, 403);
        }
        const auto reset = admin({u"plans"_s, u"reset"_s});
        QCOMPARE(reset.exitCode, 0);
        QVERIFY(QRegularExpression(u"agent\\s+5\\s+50\\s+200\\s+10"_s).match(QString::fromUtf8(reset.out)).hasMatch());
    }

    void smtpSettings()
    {
        QVERIFY(admin({u"smtp"_s, u"show"_s}).out.contains("not configured"));
        QTemporaryFile passwordFile;
        QVERIFY(passwordFile.open());
        passwordFile.write("s3cret\n");
        passwordFile.close();
        // A port nobody listens on.
        const auto set = admin({u"smtp"_s, u"set"_s, u"--host"_s, u"127.0.0.1"_s, u"--port"_s, u"9"_s, u"--user"_s,
            u"berth"_s, u"--password-file"_s, passwordFile.fileName(), u"--from"_s, u"berth@example.test"_s, u"--tls"_s,
            u"none"_s});
        QCOMPARE(set.exitCode, 0);
        const auto shown = admin({u"smtp"_s, u"show"_s});
        for (const char *row :
            {"host\\s+127\\.0\\.0\\.1\n", "security\\s+none\n", "user\\s+berth\n", "from\\s+berth@example\\.test\n"})
            QVERIFY2(QRegularExpression(QString::fromLatin1(row)).match(QString::fromUtf8(shown.out)).hasMatch(), row);
        QVERIFY(shown.out.contains("(set)"));
        QVERIFY(!shown.out.contains("s3cret"));
        const auto test = admin({u"smtp"_s, u"test"_s, u"--to"_s, u"ann@example.com"_s});
        QCOMPARE(test.exitCode, 1);
        QVERIFY2(test.err.contains("connect"), test.err.constData());
        QCOMPARE(admin({u"smtp"_s, u"clear"_s}).exitCode, 0);
        QVERIFY(admin({u"smtp"_s, u"show"_s}).out.contains("not configured"));
        QCOMPARE(admin({u"smtp"_s, u"set"_s, u"--host"_s, u"h"_s, u"--from"_s, u"nobody"_s}).exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestBerthdAdmin)
#include "tst_berthdadmin.moc"
