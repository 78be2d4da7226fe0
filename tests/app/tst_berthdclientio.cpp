// berthd's commands where their input and output are the point, against real berthd processes: `berthd mcp`
// (stdio) across a restart of the server it talks to; `berthd deploy`'s upload progress, shown on a terminal (a
// pseudo-terminal here) and never written where no one watches (a pipe); the owner's first key shown by whichever
// command makes the owner of a fresh data folder.
#include "berthdprocess.h"
#include "httptestclient.h"

#include <QDeadlineTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <cerrno>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace Qt::StringLiterals;
using berth::test::BerthdProcess;
using berth::test::HttpTestClient;

namespace {

constexpr int kTimeoutMs = 30'000;

bool write(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

QByteArray randomBytes(int size)
{
    QByteArray bytes(size, Qt::Uninitialized);
    QRandomGenerator::global()->fillRange(reinterpret_cast<quint32 *>(bytes.data()), size / 4);
    return bytes;
}

struct TerminalRun
{
    int exitCode = -1;
    QByteArray screen; // standard output and error as the terminal showed them
};

// Runs berthd with a pseudo-terminal as its standard input, output and error, as in a person's shell; reads
// what it shows until it exits.
TerminalRun runOnTerminal(const QStringList &arguments, const QProcessEnvironment &environment)
{
    // Everything the child needs is made before the fork: after it, only exec.
    QList<QByteArray> argStorage {QByteArrayLiteral(BERTHD_PATH)};
    for (const QString &argument : arguments)
        argStorage.append(argument.toLocal8Bit());
    QList<QByteArray> envStorage;
    for (const QString &entry : environment.toStringList())
        envStorage.append(entry.toLocal8Bit());
    std::vector<char *> argv;
    for (QByteArray &arg : argStorage)
        argv.push_back(arg.data());
    argv.push_back(nullptr);
    std::vector<char *> envp;
    for (QByteArray &entry : envStorage)
        envp.push_back(entry.data());
    envp.push_back(nullptr);

    TerminalRun run;
    int master = -1;
    const pid_t child = forkpty(&master, nullptr, nullptr, nullptr);
    if (child < 0)
        return run;
    if (child == 0) {
        execve(argv[0], argv.data(), envp.data());
        _exit(127);
    }
    char buffer[4096];
    for (;;) {
        const ssize_t got = read(master, buffer, sizeof buffer);
        if (got > 0)
            run.screen.append(buffer, got);
        else if (got < 0 && errno == EINTR)
            continue;
        else
            break; // EIO: the child closed its side of the terminal
    }
    close(master);
    int status = 0;
    if (waitpid(child, &status, 0) == child && WIFEXITED(status))
        run.exitCode = WEXITSTATUS(status);
    return run;
}

} // namespace

class TestBerthdClientIo : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_data;
    QTemporaryDir m_work;
    std::unique_ptr<BerthdProcess> m_server;
    QByteArray m_key;

    QString url() const { return u"http://localhost:%1"_s.arg(m_server->port()); }
    QProcessEnvironment environment() const
    {
        QProcessEnvironment env = BerthdProcess::clientEnvironment(m_key, m_work.path());
        env.insert(u"TERM"_s, u"dumb"_s);
        return env;
    }

    // One JSON-RPC message to `berthd mcp`, and the line it answers (empty after the timeout).
    static QJsonObject exchange(QProcess &mcp, const QJsonObject &message)
    {
        mcp.write(QJsonDocument(message).toJson(QJsonDocument::Compact) + '\n');
        QDeadlineTimer deadline(kTimeoutMs);
        while (!mcp.canReadLine() && !deadline.hasExpired())
            mcp.waitForReadyRead(int(deadline.remainingTime()));
        return QJsonDocument::fromJson(mcp.readLine()).object();
    }
    static QJsonObject toolCall(int id, const QString &tool)
    {
        return {{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, id}, {u"method"_s, u"tools/call"_s},
            {u"params"_s, QJsonObject {{u"name"_s, tool}, {u"arguments"_s, QJsonObject()}}}};
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_data.isValid() && m_work.isValid());
        const auto key = BerthdProcess::run({u"key"_s, u"create"_s, u"--data-dir"_s, m_data.path()});
        QCOMPARE(key.exitCode, 0);
        m_key = key.out.trimmed();
        m_server = std::make_unique<BerthdProcess>(m_data.path());
        QVERIFY(m_server->start());
    }

    // Berth restarts under a connected desktop AI client: the request sent while it is down gets an error answer,
    // the next ones work in a new session that `berthd mcp` opened by itself, the client none the wiser.
    void mcpOverStdioOutlivesAServerRestart()
    {
        QProcess mcp;
        mcp.setProcessEnvironment(environment());
        mcp.start(QStringLiteral(BERTHD_PATH), {u"mcp"_s, u"--url"_s, url()});
        QVERIFY(mcp.waitForStarted());
        const QJsonObject initialized = exchange(mcp,
            {{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, 1}, {u"method"_s, u"initialize"_s},
                {u"params"_s,
                    QJsonObject {{u"protocolVersion"_s, u"2025-06-18"_s}, {u"capabilities"_s, QJsonObject()},
                        {u"clientInfo"_s, QJsonObject {{u"name"_s, u"test"_s}, {u"version"_s, u"1"_s}}}}}});
        QCOMPARE(initialized[u"result"_s][u"serverInfo"_s][u"name"_s].toString(), u"berth"_s);
        mcp.write(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
                  "\n");
        QJsonObject answer = exchange(mcp, toolCall(2, u"whoami"_s));
        QCOMPARE(answer[u"id"_s].toInt(), 2);
        QVERIFY2(answer.contains(u"result"_s) && !answer[u"result"_s][u"isError"_s].toBool(),
            QJsonDocument(answer).toJson());

        const quint16 port = m_server->port();
        m_server->process().terminate();
        QVERIFY(m_server->waitForExit(kTimeoutMs));
        answer = exchange(mcp, toolCall(3, u"list_deploys"_s));
        QCOMPARE(answer[u"id"_s].toInt(), 3);
        QVERIFY2(answer[u"error"_s][u"message"_s].toString().startsWith(u"Cannot reach Berth at"_s),
            QJsonDocument(answer).toJson());

        m_server = std::make_unique<BerthdProcess>(m_data.path());
        QVERIFY(m_server->start(QProcessEnvironment::systemEnvironment(), port));
        answer = exchange(mcp, toolCall(4, u"list_deploys"_s));
        QCOMPARE(answer[u"id"_s].toInt(), 4);
        QVERIFY2(answer.contains(u"result"_s) && !answer[u"result"_s][u"isError"_s].toBool(),
            QJsonDocument(answer).toJson());
        QVERIFY(answer[u"result"_s][u"structuredContent"_s].toObject().contains(u"deployments"_s));
        answer = exchange(mcp, toolCall(5, u"whoami"_s)); // and the session after it too
        QCOMPARE(answer[u"id"_s].toInt(), 5);
        QVERIFY(answer.contains(u"result"_s));

        mcp.closeWriteChannel();
        QVERIFY(mcp.waitForFinished(kTimeoutMs));
        QCOMPARE(mcp.exitCode(), 0);
        const QByteArray errors = mcp.readAllStandardError();
        QCOMPARE(errors.count("continuing in a new MCP session"), 1);
    }

    // An owner subcommand as the first thing to touch a fresh data folder makes the owner: it shows the first key
    // (on standard error, its own output unchanged), and that key works once the server runs.
    void theFirstKeyReachesTheOwnerWhicheverCommandComesFirst()
    {
        QTemporaryDir fresh;
        const auto plans = BerthdProcess::run({u"plans"_s, u"show"_s, u"--data-dir"_s, fresh.path()});
        QCOMPARE(plans.exitCode, 0);
        QVERIFY(plans.out.startsWith("PLAN"));
        QVERIFY(!plans.out.contains("bk_"));
        const auto match
            = QRegularExpression(u"Owner API key[^\n]*\n(bk_[A-Za-z0-9]+)\n"_s).match(QString::fromLatin1(plans.err));
        QVERIFY2(match.hasMatch(), plans.err.constData());
        const QByteArray key = match.captured(1).toLatin1();
        QVERIFY(!BerthdProcess::run({u"plans"_s, u"show"_s, u"--data-dir"_s, fresh.path()}).err.contains("bk_"));

        BerthdProcess server(fresh.path());
        QVERIFY(server.start());
        QVERIFY(!server.output().contains("bk_")); // shown once
        QCOMPARE(HttpTestClient(server.port()).api("GET", u"/deploys"_s, key).status, 200);
    }

    // On a terminal an upload over 1 MB shows its percentage as it goes, on one line, ending at 100%.
    void deployShowsUploadProgressOnATerminal()
    {
        const QString site = m_work.filePath(u"progress-site"_s);
        QVERIFY(write(site + u"/index.html"_s, "<p>big</p>"));
        QVERIFY(write(site + u"/media/a.bin"_s, randomBytes(3 * 1024 * 1024)));
        const TerminalRun run
            = runOnTerminal({u"deploy"_s, site, u"--slug"_s, u"progress-site"_s, u"--url"_s, url()}, environment());
        QVERIFY2(run.exitCode == 0, run.screen.constData());

        static const QRegularExpression step(u"\\rUploading (\\d+)% \\((\\d+) of (\\d+) KiB\\)"_s);
        QList<int> percents;
        for (auto it = step.globalMatch(QString::fromUtf8(run.screen)); it.hasNext();)
            percents.append(it.next().captured(1).toInt());
        QVERIFY2(percents.size() >= 2, run.screen.constData()); // it moves, not only a last line
        QVERIFY(std::is_sorted(percents.cbegin(), percents.cend()));
        QCOMPARE(percents.constLast(), 100);
        QVERIFY2(run.screen.contains("100% ("), run.screen.constData());
        QVERIFY2(run.screen.contains("http://progress-site.localhost:"), run.screen.constData());
        QCOMPARE(HttpTestClient(m_server->port()).site(u"progress-site"_s).status, 200);
    }

    // Without a terminal (a pipe, a log file, CI) there is no progress noise at all, and nothing for small uploads.
    void deployIsQuietWithoutATerminal()
    {
        const QString site = m_work.filePath(u"quiet-site"_s);
        QVERIFY(write(site + u"/index.html"_s, "<p>quiet</p>"));
        QVERIFY(write(site + u"/media/a.bin"_s, randomBytes(3 * 1024 * 1024)));
        auto outcome
            = BerthdProcess::run({u"deploy"_s, site, u"--slug"_s, u"quiet-site"_s, u"--url"_s, url()}, environment());
        QVERIFY2(outcome.exitCode == 0, outcome.err.constData());
        QVERIFY2(!outcome.err.contains("Uploading") && !outcome.out.contains("Uploading"), outcome.err.constData());

        const QString small = m_work.filePath(u"small.html"_s);
        QVERIFY(write(small, "<p>small</p>"));
        const TerminalRun run
            = runOnTerminal({u"deploy"_s, small, u"--slug"_s, u"small-site"_s, u"--url"_s, url()}, environment());
        QVERIFY2(run.exitCode == 0, run.screen.constData());
        QVERIFY2(!run.screen.contains("Uploading"), run.screen.constData());
    }
};

QTEST_GUILESS_MAIN(TestBerthdClientIo)
#include "tst_berthdclientio.moc"
