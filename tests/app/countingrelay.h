#pragma once

#include <QEventLoop>
#include <QHostAddress>
#include <QProcess>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>
#include <utility>

namespace berth::test {

// Relays loopback connections to a server and counts the bytes clients send through it: what an upload really
// sent. It relays on the thread's event loop, so the client it counts runs in the background (QProcess).
class CountingRelay final : public QObject
{
public:
    explicit CountingRelay(quint16 target)
        : m_target(target)
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *client = m_server.nextPendingConnection()) {
                auto *upstream = new QTcpSocket(client);
                upstream->connectToHost(QHostAddress::LocalHost, m_target);
                connect(client, &QTcpSocket::readyRead, upstream, [this, client, upstream] {
                    const QByteArray bytes = client->readAll();
                    m_sent += bytes.size();
                    upstream->write(bytes);
                });
                connect(upstream, &QTcpSocket::readyRead, client,
                    [client, upstream] { client->write(upstream->readAll()); });
                connect(upstream, &QTcpSocket::disconnected, client, &QTcpSocket::disconnectFromHost);
                connect(client, &QTcpSocket::disconnected, client, &QObject::deleteLater);
            }
        });
        m_server.listen(QHostAddress::LocalHost);
    }
    quint16 port() const { return m_server.serverPort(); }
    qint64 takeSent()
    {
        const qint64 sent = m_sent;
        m_sent = 0;
        return sent;
    }

private:
    QTcpServer m_server;
    quint16 m_target;
    qint64 m_sent = 0;
};

// Runs program to its end on this thread's event loop, so that a CountingRelay here keeps relaying for it: its exit
// status (-1 when it did not end within a minute), then its standard output followed by its standard error.
inline std::pair<int, QByteArray> runWhileRelaying(
    const QString &program, const QStringList &arguments, const QProcessEnvironment &environment)
{
    QProcess process;
    process.setProcessEnvironment(environment);
    QEventLoop loop;
    QObject::connect(&process, &QProcess::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(60000, &loop, &QEventLoop::quit);
    process.start(program, arguments);
    loop.exec();
    return {process.state() == QProcess::NotRunning ? process.exitCode() : -1,
        process.readAllStandardOutput() + process.readAllStandardError()};
}

} // namespace berth::test
