#include "webhookreceiver.h"

#include <QHostAddress>
#include <QTcpSocket>

using namespace Qt::StringLiterals;

namespace berth::test {

namespace {
constexpr qint64 kHugeBytes = qint64(1) << 30;
const QByteArray kChunk(64 * 1024, 'x');
} // namespace

QByteArray WebhookReceiver::Request::header(const QByteArray &name) const
{
    for (const auto &[key, value] : headers) {
        if (key == name.toLower())
            return value;
    }
    return {};
}

WebhookReceiver::WebhookReceiver()
{
    connect(&m_server, &QTcpServer::newConnection, this, &WebhookReceiver::onConnection);
}

bool WebhookReceiver::listen(const QHostAddress &address)
{
    m_address = address;
    if (!m_server.listen(address, m_port))
        return false;
    m_port = m_server.serverPort();
    return true;
}

QString WebhookReceiver::url() const
{
    return u"http://%1:%2/hook"_s.arg(m_address.toString()).arg(port());
}

void WebhookReceiver::onConnection()
{
    while (QTcpSocket *socket = m_server.nextPendingConnection()) {
        ++openConnections;
        ++acceptedConnections;
        if (behaviour != Behaviour::NeverReads)
            connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadable(socket); });
        connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
            --openConnections;
            socket->deleteLater();
        });
    }
}

void WebhookReceiver::onReadable(QTcpSocket *socket)
{
    QByteArray buffer = socket->property("buffer").toByteArray() + socket->readAll();
    socket->setProperty("buffer", buffer);
    const qsizetype end = buffer.indexOf("\r\n\r\n");
    if (end < 0)
        return;
    Request request;
    const QList<QByteArray> lines = buffer.left(end).split('\n');
    const QList<QByteArray> first = lines.first().trimmed().split(' ');
    request.method = first.value(0);
    request.path = first.value(1);
    qsizetype length = 0;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const qsizetype colon = lines.at(i).indexOf(':');
        const QByteArray name = lines.at(i).left(colon).trimmed().toLower();
        const QByteArray value = lines.at(i).mid(colon + 1).trimmed();
        request.headers.append({name, value});
        if (name == "content-length")
            length = value.toLongLong();
    }
    if (buffer.size() < end + 4 + length)
        return;
    request.body = buffer.mid(end + 4, length);
    socket->setProperty("buffer", buffer.mid(end + 4 + length));
    requests.append(request);
    answer(socket);
}

void WebhookReceiver::answer(QTcpSocket *socket)
{
    if (behaviour == Behaviour::Silent)
        return;
    if (behaviour == Behaviour::Trickle) {
        socket->write("HTTP/1.1 200 OK\r\nX-Trickle: ");
        auto *timer = new QTimer(socket);
        connect(timer, &QTimer::timeout, socket, [this, socket] { trickle(socket); });
        timer->start(100);
        return;
    }
    if (behaviour == Behaviour::Huge) {
        socket->write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + QByteArray::number(kHugeBytes)
            + "\r\n\r\n");
        connect(socket, &QTcpSocket::bytesWritten, this, [this, socket] { feedHuge(socket); });
        feedHuge(socket);
        return;
    }
    const int status = statuses.isEmpty() ? 200 : statuses.takeFirst();
    socket->write("HTTP/1.1 " + QByteArray::number(status) + " X\r\nContent-Length: 2\r\n\r\nok");
}

void WebhookReceiver::feedHuge(QTcpSocket *socket)
{
    // Keeps a little queued, so what was sent is what the client's side took.
    while (socket->state() == QAbstractSocket::ConnectedState && socket->bytesToWrite() < 2 * kChunk.size()
        && hugeBytesSent < kHugeBytes) {
        socket->write(kChunk);
        hugeBytesSent += kChunk.size();
    }
}

void WebhookReceiver::trickle(QTcpSocket *socket)
{
    if (socket->state() == QAbstractSocket::ConnectedState)
        socket->write("x");
}

} // namespace berth::test
