#include "rawclient.h"

#include <QDeadlineTimer>
#include <QTest>

namespace berth::test {

QByteArray RawResponse::header(QByteArrayView lowerName) const
{
    for (const auto &h : headers) {
        if (h.first.toLower() == lowerName)
            return h.second;
    }
    return {};
}

int RawResponse::count(QByteArrayView lowerName) const
{
    int n = 0;
    for (const auto &h : headers)
        n += h.first.toLower() == lowerName ? 1 : 0;
    return n;
}

bool RawClient::connectTo(quint16 port)
{
    m_socket.connectToHost(QHostAddress::LocalHost, port);
    return m_socket.waitForConnected(5000);
}

void RawClient::send(const QByteArray &bytes)
{
    m_socket.write(bytes);
    m_socket.flush();
}

void RawClient::pull()
{
    m_received += m_socket.readAll();
}

bool RawClient::takeResponse(RawResponse *response, bool noBody)
{
    pull();
    const qsizetype end = m_received.indexOf("\r\n\r\n");
    if (end < 0)
        return false;
    const QList<QByteArray> lines = m_received.first(end).split('\n');
    RawResponse r;
    const QByteArray statusLine = lines.first().trimmed();
    if (!statusLine.startsWith("HTTP/1.1 "))
        return false;
    r.status = statusLine.mid(9, 3).toInt();
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines.at(i).trimmed();
        const qsizetype colon = line.indexOf(':');
        r.headers.append({line.first(colon).toLower(), line.sliced(colon + 1).trimmed()});
    }
    qint64 length = 0;
    if (!noBody && r.status >= 200 && r.status != 204 && r.status != 304)
        length = r.header("content-length").toLongLong();
    if (m_received.size() < end + 4 + length)
        return false;
    r.body = m_received.mid(end + 4, length);
    m_received.remove(0, end + 4 + length);
    *response = r;
    return true;
}

bool RawClient::waitResponse(RawResponse *response, bool noBody, int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (!takeResponse(response, noBody)) {
        if (deadline.hasExpired())
            return false;
        QTest::qWait(1);
    }
    return true;
}

bool RawClient::waitClosed(int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (m_socket.state() != QAbstractSocket::UnconnectedState) {
        pull();
        if (deadline.hasExpired())
            return false;
        QTest::qWait(1);
    }
    pull();
    return true;
}

RawResponse siteRequest(quint16 port, const QString &slug, const QByteArray &target, const QByteArray &extraHeaders,
    const QByteArray &method)
{
    RawClient client;
    RawResponse response;
    if (!client.connectTo(port))
        return response;
    client.send(method + ' ' + target + " HTTP/1.1\r\nHost: " + slug.toLatin1()
        + ".localhost:" + QByteArray::number(port) + "\r\n" + extraHeaders + "\r\n");
    client.waitResponse(&response, method == "HEAD", 30000);
    return response;
}

} // namespace berth::test
