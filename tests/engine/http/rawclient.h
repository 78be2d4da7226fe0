#pragma once

#include <QByteArray>
#include <QList>
#include <QTcpSocket>

namespace berth::test {

// One parsed HTTP response as the client saw it on the wire.
struct RawResponse
{
    int status = 0;
    QList<QPair<QByteArray, QByteArray>> headers; // names lower-cased, as sent
    QByteArray body;

    QByteArray header(QByteArrayView lowerName) const;
    int count(QByteArrayView lowerName) const;
};

// A raw-socket HTTP/1.1 client for tests: sends exact bytes and parses exactly what comes back.
class RawClient final
{
public:
    RawClient() = default;
    Q_DISABLE_COPY_MOVE(RawClient)

    bool connectTo(quint16 port);
    void send(const QByteArray &bytes);
    // Parses the next complete response from what has arrived; false while incomplete. noBody: a response to HEAD.
    bool takeResponse(RawResponse *response, bool noBody = false);
    // Waits (processing events) for the next response.
    bool waitResponse(RawResponse *response, bool noBody = false, int timeoutMs = 5000);
    bool waitClosed(int timeoutMs = 5000);
    QByteArray &received() { return m_received; }
    QTcpSocket &socket() { return m_socket; }

private:
    void pull();

    QTcpSocket m_socket;
    QByteArray m_received;
};

// One request to a site on a fresh connection ("<slug>.localhost:<port>" as Host), extraHeaders as whole lines
// ("Name: value\r\n"); a status of 0 when no response came within 30 s.
RawResponse siteRequest(quint16 port, const QString &slug, const QByteArray &target,
    const QByteArray &extraHeaders = {}, const QByteArray &method = "GET");

} // namespace berth::test
