#include "smtptestserver.h"

#include <QDeadlineTimer>
#include <QTcpServer>
#include <QTcpSocket>

using namespace Qt::StringLiterals;

namespace berth::test {

namespace {
constexpr int kStartTimeoutMs = 10'000;
constexpr int kProbeTimeoutMs = 200;
constexpr char kMessageStart[] = "---------- MESSAGE FOLLOWS ----------";
constexpr char kMessageEnd[] = "------------ END MESSAGE ------------";
} // namespace

SmtpTestServer::~SmtpTestServer()
{
    if (m_process.state() != QProcess::NotRunning) {
        m_process.kill();
        m_process.waitForFinished();
    }
}

bool SmtpTestServer::start()
{
    QTcpServer probe; // a free port: taken, then handed to aiosmtpd
    if (!probe.listen(QHostAddress::LocalHost))
        return false;
    m_port = probe.serverPort();
    probe.close();

    // Debian's own interpreter: python3-aiosmtpd is installed for it, not for another python3 first on PATH.
    m_process.setProcessChannelMode(QProcess::MergedChannels);
    m_process.start(
        u"/usr/bin/python3"_s, {u"-u"_s, u"-m"_s, u"aiosmtpd"_s, u"-n"_s, u"-l"_s, u"127.0.0.1:%1"_s.arg(m_port)});
    if (!m_process.waitForStarted()) {
        qWarning("cannot run /usr/bin/python3 -m aiosmtpd: %s", qPrintable(m_process.errorString()));
        return false;
    }
    const QDeadlineTimer deadline(kStartTimeoutMs);
    while (!deadline.hasExpired() && m_process.state() == QProcess::Running) {
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, m_port);
        if (socket.waitForConnected(kProbeTimeoutMs))
            return true;
        m_process.waitForReadyRead(kProbeTimeoutMs); // a bounded wait for the server to come up
    }
    qWarning("aiosmtpd did not start: %s", m_process.readAll().constData());
    return false;
}

QStringList SmtpTestServer::messages()
{
    m_output += m_process.readAll();
    QStringList messages;
    qsizetype from = 0;
    while (true) {
        const qsizetype start = m_output.indexOf(kMessageStart, from);
        const qsizetype end = start < 0 ? -1 : m_output.indexOf(kMessageEnd, start);
        if (end < 0)
            break;
        const qsizetype body = start + qsizetype(sizeof(kMessageStart)) - 1;
        messages.append(QString::fromUtf8(m_output.mid(body, end - body)).trimmed());
        from = end;
    }
    return messages;
}

} // namespace berth::test
