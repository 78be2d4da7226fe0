// berthd serve's access log options, with berthd as a child process: the log is in the data folder by default,
// private, and complete once berthd has stopped; '-' writes it to standard output; 'off' writes nothing.
#include "berthdprocess.h"
#include "httptestclient.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <sys/stat.h>

using namespace Qt::StringLiterals;
using berth::test::BerthdProcess;
using berth::test::HttpTestClient;

namespace {

int modeOf(const QString &path)
{
    struct stat status
    {
    };
    return ::stat(QFile::encodeName(path).constData(), &status) == 0 ? int(status.st_mode & 07777) : -1;
}

// Two requests to the API host, then a graceful stop: what was logged is written before berthd exits.
bool requestsThenStop(BerthdProcess &server)
{
    HttpTestClient client(server.port());
    if (client.request("GET", client.apiHost(), u"/openapi.json"_s).status != 200
        || client.request("GET", client.apiHost(), u"/nothing-here"_s).status != 404)
        return false;
    server.process().terminate();
    if (!server.waitForExit(30000))
        return false;
    return true;
}

const QRegularExpression kApiLine(
    u"^localhost:\\d+ 127\\.0\\.0\\.1 - - \\[[^\\]]+\\] \"GET /openapi\\.json HTTP/1\\.1\" 200 \\d+ "
    "\"-\" \"[^\"]*\"$"_s,
    QRegularExpression::MultilineOption);

} // namespace

class TestBerthdAccessLog final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void defaultLogIsPrivateInTheDataFolder()
    {
        QTemporaryDir dir;
        BerthdProcess server(dir.path());
        QVERIFY(server.start());
        const QString log = QDir(dir.path()).filePath(u"logs/access.log"_s);
        QVERIFY2(server.output().contains((u"Access log: "_s + log).toUtf8()), server.output().constData());
        QVERIFY(requestsThenStop(server));
        QFile file(log);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString lines = QString::fromLatin1(file.readAll());
        QCOMPARE(lines.count(u'\n'), 2);
        QVERIFY2(kApiLine.match(lines).hasMatch(), qPrintable(lines));
        QVERIFY(lines.contains(u"\"GET /nothing-here HTTP/1.1\" 404 "_s));
        QCOMPARE(modeOf(log), 0600);
        QCOMPARE(modeOf(QFileInfo(log).absolutePath()), 0700);
    }

    void dashWritesToStandardOutput()
    {
        QTemporaryDir dir;
        BerthdProcess server(dir.path());
        server.setExtraArguments({u"--access-log"_s, u"-"_s, u"--access-log-anonymize"_s});
        QVERIFY(server.start());
        QVERIFY(requestsThenStop(server));
        const QString output = QString::fromUtf8(server.output() + server.process().readAllStandardOutput());
        const QString anonymous = QString(output).replace(u" 127.0.0.0 "_s, u" 127.0.0.1 "_s);
        QVERIFY2(kApiLine.match(anonymous).hasMatch(), qPrintable(output));
        QVERIFY(!output.contains(u" 127.0.0.1 - - "_s)); // anonymised
        QVERIFY(!QFileInfo::exists(QDir(dir.path()).filePath(u"logs"_s)));
    }

    void offWritesNothing()
    {
        QTemporaryDir dir;
        BerthdProcess server(dir.path());
        server.setExtraArguments({u"--access-log"_s, u"off"_s});
        QVERIFY(server.start());
        QVERIFY(!server.output().contains("Access log"));
        QVERIFY(requestsThenStop(server));
        QVERIFY(!QFileInfo::exists(QDir(dir.path()).filePath(u"logs"_s)));
        QVERIFY(!server.output().contains("openapi"));
    }

    void badOptionsAreUsageErrors()
    {
        QTemporaryDir dir;
        for (const QStringList &options : {QStringList {u"--access-log-keep"_s, u"-1"_s},
                 QStringList {u"--access-log-keep"_s, u"x"_s}, QStringList {u"--access-log"_s, u""_s}}) {
            const BerthdProcess::Outcome outcome
                = BerthdProcess::run(QStringList {u"serve"_s, u"--data-dir"_s, dir.path()} + options);
            QCOMPARE(outcome.exitCode, 2);
            QVERIFY2(outcome.err.contains("--access-log"), outcome.err.constData());
        }
        // A log that cannot be opened stops the start, with the reason.
        const BerthdProcess::Outcome unwritable = BerthdProcess::run({u"serve"_s, u"--data-dir"_s, dir.path(),
            u"--listen"_s, u"127.0.0.1:0"_s, u"--access-log"_s, u"/proc/berth-no/access.log"_s});
        QCOMPARE(unwritable.exitCode, 1);
        QVERIFY2(unwritable.err.contains("access log"), unwritable.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestBerthdAccessLog)
#include "tst_berthdaccesslog.moc"
