#include "sourceclient.h"

#include <QDeadlineTimer>
#include <QEventLoop>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace berth::test {

SourceConnection::SourceConnection(quint16 port, const QHostAddress &source)
    : m_port(port)
    , m_source(source)
{
    connect(&m_socket, &QTcpSocket::readyRead, this, [this] {
        m_received += m_socket.readAll();
        parse();
    });
}

void SourceConnection::send(const QList<QByteArray> &requests)
{
    m_expected += int(requests.size());
    if (m_socket.state() == QAbstractSocket::UnconnectedState) {
        if (!m_socket.bind(m_source, 0))
            qWarning("cannot bind %s: %s", qPrintable(m_source.toString()), qPrintable(m_socket.errorString()));
        m_socket.connectToHost(QHostAddress(QHostAddress::LocalHost), m_port);
    }
    for (const QByteArray &request : requests)
        m_socket.write(request); // buffered until connected
}

void SourceConnection::parse()
{
    while (true) {
        const qsizetype headerEnd = m_received.indexOf("\r\n\r\n");
        if (headerEnd < 0)
            return;
        TestReply reply;
        const QList<QByteArray> lines = m_received.first(headerEnd).split('\n');
        reply.status = lines.value(0).split(' ').value(1).toInt();
        qint64 length = 0;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QByteArray line = lines.at(i).trimmed();
            const qsizetype colon = line.indexOf(':');
            if (colon <= 0)
                continue;
            const QByteArray name = line.first(colon).trimmed().toLower();
            const QByteArray value = line.sliced(colon + 1).trimmed();
            reply.headers.append({name, value});
            if (name == "content-length")
                length = value.toLongLong();
        }
        if (m_received.size() < headerEnd + 4 + length)
            return;
        reply.body = m_received.mid(headerEnd + 4, length);
        m_received.remove(0, headerEnd + 4 + length);
        m_replies.append(reply);
    }
}

bool SourceConnection::waitAll(const QList<SourceConnection *> &connections, int timeoutMs)
{
    const auto done = [&connections] {
        return std::all_of(connections.cbegin(), connections.cend(), [](auto *c) { return c->isDone(); });
    };
    const QDeadlineTimer deadline(timeoutMs);
    while (!done() && !deadline.hasExpired()) {
        QEventLoop loop;
        QTimer::singleShot(10, &loop, &QEventLoop::quit); // a tick to recheck; progress comes from the sockets
        for (SourceConnection *connection : connections)
            connect(&connection->m_socket, &QTcpSocket::readyRead, &loop, &QEventLoop::quit, Qt::QueuedConnection);
        loop.exec();
    }
    return done();
}

QByteArray SourceConnection::request(const QByteArray &method, const QString &host, const QString &path,
    const QByteArray &body, const QList<QPair<QByteArray, QByteArray>> &headers)
{
    QByteArray bytes = method + ' ' + path.toUtf8() + " HTTP/1.1\r\nHost: " + host.toUtf8() + "\r\n";
    for (const auto &header : headers)
        bytes += header.first + ": " + header.second + "\r\n";
    if (!body.isEmpty() || method == "POST" || method == "PUT")
        bytes += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
    return bytes + "\r\n" + body;
}

TestReply SourceClient::request(const QByteArray &method, const QString &host, const QString &path,
    const QByteArray &body, const QList<QPair<QByteArray, QByteArray>> &headers)
{
    SourceConnection connection(m_port, m_source);
    connection.send({SourceConnection::request(method, host, path, body, headers)});
    if (!SourceConnection::waitAll({&connection}))
        return {};
    return connection.replies().constFirst();
}

TestReply SourceClient::site(const QByteArray &method, const QString &slug, const QString &path, const QByteArray &body,
    const QList<QPair<QByteArray, QByteArray>> &headers)
{
    return request(method, siteHost(slug), path, body, headers);
}

QString SourceClient::siteHost(const QString &slug) const
{
    return u"%1.localhost:%2"_s.arg(slug).arg(m_port);
}

} // namespace berth::test
