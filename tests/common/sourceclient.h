#pragma once

#include "httptestclient.h"

#include <QHostAddress>
#include <QObject>
#include <QTcpSocket>

namespace berth::test {

// One HTTP/1.1 connection from a chosen loopback source address (127.0.0.2, 127.0.0.3, ...), so that tests of
// per-IP limits can be several clients at once. Requests are written at once (pipelined) and the responses
// collected as they come; waiting runs the event loop, so an in-process server keeps serving.
class SourceConnection final : public QObject
{
    Q_OBJECT

public:
    SourceConnection(quint16 port, const QHostAddress &source);
    Q_DISABLE_COPY_MOVE(SourceConnection)

    // Connects (bound to the source address) and writes the requests.
    void send(const QList<QByteArray> &requests);
    bool isDone() const { return m_replies.size() >= m_expected; }
    const QList<TestReply> &replies() const { return m_replies; }

    // Runs the event loop until every connection has all its responses; false on timeout.
    static bool waitAll(const QList<SourceConnection *> &connections, int timeoutMs = 30'000);

    // The bytes of one request: Host, Content-Length, and the given headers.
    static QByteArray request(const QByteArray &method, const QString &host, const QString &path,
        const QByteArray &body = {}, const QList<QPair<QByteArray, QByteArray>> &headers = {});

private:
    void parse();

    quint16 m_port;
    QHostAddress m_source;
    QTcpSocket m_socket;
    QByteArray m_received;
    QList<TestReply> m_replies;
    int m_expected = 0;
};

// One request at a time from a source address, each on its own connection.
class SourceClient final
{
public:
    SourceClient(quint16 port, const QHostAddress &source)
        : m_port(port)
        , m_source(source)
    {
    }

    TestReply request(const QByteArray &method, const QString &host, const QString &path, const QByteArray &body = {},
        const QList<QPair<QByteArray, QByteArray>> &headers = {});
    // On http://<slug>.localhost:<port>.
    TestReply site(const QByteArray &method, const QString &slug, const QString &path, const QByteArray &body = {},
        const QList<QPair<QByteArray, QByteArray>> &headers = {});
    QString siteHost(const QString &slug) const;

private:
    quint16 m_port;
    QHostAddress m_source;
};

} // namespace berth::test
