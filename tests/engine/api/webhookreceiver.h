#pragma once

#include <QByteArray>
#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QTcpServer>
#include <QTimer>

class QTcpSocket;

namespace berth::test {

// A webhook receiver on loopback (127.0.0.1, or another 127.x address for another host): records each request and
// answers as the test tells it, also as a hostile receiver would (never answering, never reading, trickling, or
// answering a huge body).
class WebhookReceiver final : public QObject
{
    Q_OBJECT

public:
    enum class Behaviour
    {
        Answer, // the next status of statuses (200 once they are used up)
        Silent, // reads the request, never answers
        Huge, // a 200 that announces 1 GB and keeps sending for as long as the connection lasts
        NeverReads, // accepts the connection and never reads from it
        Trickle, // a status line, then a header one byte every 100 ms, never ending
    };
    struct Request
    {
        QByteArray method;
        QByteArray path;
        QList<QPair<QByteArray, QByteArray>> headers; // names lower-cased
        QByteArray body;
        QByteArray header(const QByteArray &name) const;
    };

    WebhookReceiver();
    bool listen(const QHostAddress &address = QHostAddress(QHostAddress::LocalHost));
    quint16 port() const { return m_port; }
    QString url() const;
    void close() { m_server.close(); }

    Behaviour behaviour = Behaviour::Answer;
    QList<int> statuses;
    QList<Request> requests;
    qint64 hugeBytesSent = 0;
    int openConnections = 0;
    int acceptedConnections = 0;

private:
    void onConnection();
    void onReadable(QTcpSocket *socket);
    void answer(QTcpSocket *socket);
    void feedHuge(QTcpSocket *socket);
    void trickle(QTcpSocket *socket);

    QTcpServer m_server;
    QHostAddress m_address;
    quint16 m_port = 0; // kept across close() and listen()
};

} // namespace berth::test
