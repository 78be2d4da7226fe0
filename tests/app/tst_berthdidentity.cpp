// Who berthd's client commands act as, against a real berthd: the key of BERTH_API_KEY; never an agent because a key
// sits in a misnamed variable (BERTH_KEY, BERTH_TOKEN, ...: exit 2, nothing sent); and, with no key on this machine,
// an agent that the first line of standard error names, new or kept from the last command.
#include "berthdprocess.h"
#include "httptestclient.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::BerthdProcess;
using berth::test::HttpTestClient;

class TestBerthdIdentity : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_data;
    QTemporaryDir m_work;
    std::unique_ptr<BerthdProcess> m_server;
    std::unique_ptr<HttpTestClient> m_http;
    QByteArray m_key;
    QString m_page;

    QString url() const { return u"http://localhost:%1"_s.arg(m_server->port()); }
    QString configFolder() const { return m_work.filePath(u"config"_s); }
    // The environment of a user's shell: no BERTH_* but what a test sets, its own config folder.
    QProcessEnvironment environment(const QList<QPair<QString, QString>> &variables) const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const QString &name : env.keys()) {
            if (name.startsWith(u"BERTH"_s, Qt::CaseInsensitive))
                env.remove(name);
        }
        env.insert(u"XDG_CONFIG_HOME"_s, configFolder());
        for (const auto &variable : variables)
            env.insert(variable.first, variable.second);
        return env;
    }
    BerthdProcess::Outcome client(
        const QStringList &arguments, const QList<QPair<QString, QString>> &variables, const QString &at = {})
    {
        return BerthdProcess::run(
            arguments + QStringList {u"--url"_s, at.isEmpty() ? url() : at}, environment(variables));
    }
    static QByteArray firstLine(const QByteArray &text) { return text.left(text.indexOf('\n')); }
    int ownerDeployments()
    {
        const auto reply
            = m_http->request("GET", m_http->apiHost(), u"/deploys"_s, {}, {{"Authorization", "Bearer " + m_key}});
        return int(reply.json().value(u"deployments"_s).toArray().size());
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_data.isValid() && m_work.isValid());
        m_server = BerthdProcess::startWithOwnerKey(m_data.path(), &m_key);
        QVERIFY(m_server);
        m_http = std::make_unique<HttpTestClient>(m_server->port());
        m_page = m_work.filePath(u"page.html"_s);
        QFile page(m_page);
        QVERIFY(page.open(QIODevice::WriteOnly));
        page.write("<!doctype html><title>Page</title><p>page</p>");
    }

    void keyInAMisnamedVariable_data()
    {
        QTest::addColumn<QString>("variable");
        QTest::addColumn<QString>("command");
        for (const char *name :
            {"BERTH_KEY", "BERTH_APIKEY", "BERTH_TOKEN", "BERTH_API_TOKEN", "BERTHD_API_KEY", "berth_api_key"}) {
            QTest::addRow("deploy, %s", name) << QString::fromLatin1(name) << u"deploy"_s;
            QTest::addRow("list, %s", name) << QString::fromLatin1(name) << u"list"_s;
        }
    }
    void keyInAMisnamedVariable()
    {
        QFETCH(QString, variable);
        QFETCH(QString, command);
        const QStringList arguments = command == u"deploy"_s ? QStringList {command, m_page} : QStringList {command};
        for (const QString &at : {url(), u"http://berth.example.invalid"_s}) {
            for (const auto &apiKey : {std::optional<QString>(), std::optional<QString>(u""_s)}) {
                QList<QPair<QString, QString>> variables {{variable, QString::fromLatin1(m_key)}};
                if (apiKey)
                    variables.append({u"BERTH_API_KEY"_s, *apiKey}); // set, but empty: unset all the same
                const auto outcome = client(arguments, variables, at);
                QCOMPARE(outcome.exitCode, 2);
                QVERIFY2(firstLine(outcome.err)
                             .startsWith((
                                 u"berthd: %1 is set but BERTH_API_KEY is not; berthd reads the key from BERTH_API_KEY "
                                 "alone, so nothing was sent."_s)
                                             .arg(variable)
                                             .toUtf8()),
                    outcome.err.constData());
                QVERIFY(outcome.err.contains("--help"));
                QVERIFY(!outcome.err.contains("agent"));
                QVERIFY(outcome.out.isEmpty());
            }
        }
        QVERIFY(!QFile::exists(configFolder() + u"/berth/agents.json"_s)); // no agent was made
        QCOMPARE(ownerDeployments(), 0);
    }

    void misnamedVariableBesideTheRightOne()
    {
        const auto outcome
            = client({u"list"_s}, {{u"BERTH_API_KEY"_s, QString::fromLatin1(m_key)}, {u"BERTH_TOKEN"_s, u"x"_s}});
        QVERIFY2(outcome.exitCode == 0, outcome.err.constData());
        QVERIFY(outcome.err.isEmpty()); // the key's owner: nothing to say
    }

    void agentNamedOnTheFirstLine()
    {
        // No key at all: a new agent, said first.
        auto outcome = client({u"deploy"_s, m_page, u"--slug"_s, u"agent-page"_s}, {});
        QVERIFY2(outcome.exitCode == 0, outcome.err.constData());
        const QByteArray first = firstLine(outcome.err);
        QVERIFY2(first.startsWith("berthd: no BERTH_API_KEY: working as a new agent of this machine (usr_"),
            outcome.err.constData());
        const QByteArray agentId = first.mid(first.indexOf('(') + 1).chopped(2);
        QVERIFY2(outcome.err.split('\n').value(1).contains("/auth/login?claim=clm_"), outcome.err.constData());
        QVERIFY(outcome.out.contains("Published agent-page"));
        QCOMPARE(ownerDeployments(), 0); // the agent's, not the owner's

        // The next command is the same agent, and says so too (it did not before: a silent identity).
        for (const QStringList &arguments : {QStringList {u"list"_s}, QStringList {u"status"_s, u"agent-page"_s}}) {
            outcome = client(arguments, {});
            QVERIFY2(outcome.exitCode == 0, outcome.err.constData());
            QCOMPARE(
                firstLine(outcome.err), "berthd: no BERTH_API_KEY: working as agent " + agentId + " of this machine.");
            QVERIFY(!outcome.err.contains("new agent"));
        }
        QVERIFY(client({u"list"_s}, {}).out.contains("agent-page"));

        // With a key nothing is said about identity.
        outcome = client({u"list"_s}, {{u"BERTH_API_KEY"_s, QString::fromLatin1(m_key)}});
        QCOMPARE(outcome.exitCode, 0);
        QVERIFY(!outcome.err.contains("BERTH_API_KEY"));
        QVERIFY(!outcome.out.contains("agent-page"));
    }
};

QTEST_GUILESS_MAIN(TestBerthdIdentity)
#include "tst_berthdidentity.moc"
