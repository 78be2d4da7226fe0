#include "berthdprocess.h"

#include <QDeadlineTimer>
#include <QDebug>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace berth::test {

namespace {
constexpr int kStartTimeoutMs = 30'000;

QString &program()
{
    static QString path = QStringLiteral(BERTHD_PATH);
    return path;
}
} // namespace

void BerthdProcess::setProgram(const QString &path)
{
    program() = path;
}

BerthdProcess::Outcome BerthdProcess::run(const QStringList &arguments)
{
    return run(arguments, QProcessEnvironment::systemEnvironment());
}

BerthdProcess::Outcome BerthdProcess::run(
    const QStringList &arguments, const QProcessEnvironment &environment, const QByteArray &input)
{
    QProcess process;
    process.setProcessEnvironment(environment);
    process.start(program(), arguments);
    process.write(input);
    process.closeWriteChannel();
    Outcome outcome;
    if (!process.waitForFinished(kStartTimeoutMs))
        return outcome;
    outcome.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    outcome.out = process.readAllStandardOutput();
    outcome.err = process.readAllStandardError();
    return outcome;
}

QProcessEnvironment BerthdProcess::clientEnvironment(const QByteArray &key, const QString &workDir)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(u"BERTH_URL"_s);
    if (key.isEmpty())
        env.remove(u"BERTH_API_KEY"_s);
    else
        env.insert(u"BERTH_API_KEY"_s, QString::fromLatin1(key));
    env.insert(u"XDG_CONFIG_HOME"_s, workDir + u"/config"_s);
    env.insert(u"XDG_CACHE_HOME"_s, workDir + u"/cache"_s); // the digest cache of deploy
    return env;
}

BerthdProcess::Outcome BerthdProcess::runClient(
    QStringList arguments, const QByteArray &key, const QString &workDir) const
{
    arguments << u"--url"_s << u"http://localhost:%1"_s.arg(m_port);
    return run(arguments, clientEnvironment(key, workDir));
}

std::unique_ptr<BerthdProcess> BerthdProcess::startWithOwnerKey(const QString &dataDir, QByteArray *ownerKey)
{
    const Outcome key = run({u"key"_s, u"create"_s, u"--data-dir"_s, dataDir});
    if (key.exitCode != 0) {
        qWarning().noquote() << "berthd key create failed:" << key.err;
        return nullptr;
    }
    *ownerKey = key.out.trimmed();
    auto server = std::make_unique<BerthdProcess>(dataDir);
    if (!server->start()) {
        qWarning().noquote() << "berthd serve did not start:" << server->output();
        return nullptr;
    }
    return server;
}

BerthdProcess::BerthdProcess(const QString &dataDir)
    : m_dataDir(dataDir)
{
}

BerthdProcess::~BerthdProcess()
{
    kill();
}

bool BerthdProcess::start(const QProcessEnvironment &environment, quint16 port)
{
    m_process.setProcessEnvironment(environment);
    m_process.start(program(),
        QStringList {u"serve"_s, u"--listen"_s, u"127.0.0.1:%1"_s.arg(port), u"--data-dir"_s, m_dataDir}
            + m_extraArguments);
    static const QRegularExpression listening(u"Listening on 127\\.0\\.0\\.1:(\\d+)"_s);
    QDeadlineTimer deadline(kStartTimeoutMs);
    while (!deadline.hasExpired()) {
        if (!m_process.waitForReadyRead(int(deadline.remainingTime())))
            return false;
        m_output += m_process.readAllStandardOutput();
        const auto match = listening.match(QString::fromUtf8(m_output));
        if (match.hasMatch() && m_output.contains("Ctrl+C")) { // the banner is complete
            m_port = quint16(match.captured(1).toUInt());
            return true;
        }
    }
    return false;
}

bool BerthdProcess::waitForExit(int timeoutMs)
{
    return m_process.state() == QProcess::NotRunning || m_process.waitForFinished(timeoutMs);
}

void BerthdProcess::kill()
{
    if (m_process.state() != QProcess::NotRunning) {
        m_process.kill();
        m_process.waitForFinished();
    }
}

} // namespace berth::test
