#pragma once

#include "httpconfig.h"
#include "responsewriter.h"

#include <QByteArray>
#include <QPointer>
#include <QTcpServer>

namespace berth {

class RequestHandler;

// The guard in front of QtHttpServer: the QTcpServer handed to QAbstractHttpServer::bind(). It wraps every accepted
// socket in an HttpConnection (whose readyRead slot is connected before QtHttpServer's), caps live connections
// (503 beyond), keeps accepting after accept errors such as EMFILE, and holds what the connections share: the
// handler, the limits, the response writer and the count of large uploads.
class FrontDoor final : public QTcpServer
{
    Q_OBJECT

public:
    FrontDoor(RequestHandler &handler, const HttpConfig &config, QObject *parent = nullptr);
    ~FrontDoor() override;
    Q_DISABLE_COPY_MOVE(FrontDoor)

    // The QAbstractHttpServer whose readyRead slots a connection detaches before it refuses or closes.
    void setParser(QObject *parser) { m_parser = parser; }
    QObject *parser() const { return m_parser; }

    RequestHandler &handler() const { return m_handler; }
    const HttpConfig &config() const { return m_config; }
    ResponseWriter &writer() { return m_writer; }
    QByteArray &scratch() { return m_scratch; } // head bytes are peeked here; one thread, one buffer

    int liveConnections() const { return m_live; }
    int acceptErrors() const { return m_acceptErrors; }
    qint64 peakUnsentBytes() const { return m_peakUnsent; }

    bool acquireUploadSlot();
    void releaseUploadSlot();
    void connectionClosed();
    void noteUnsent(qint64 bytes) { m_peakUnsent = qMax(m_peakUnsent, bytes); }

protected:
    void incomingConnection(qintptr descriptor) override;

private:
    void onAcceptError(QAbstractSocket::SocketError error);

    RequestHandler &m_handler;
    const HttpConfig m_config;
    ResponseWriter m_writer;
    QByteArray m_scratch;
    QPointer<QObject> m_parser;
    int m_live = 0;
    int m_largeUploads = 0;
    int m_acceptErrors = 0;
    qint64 m_peakUnsent = 0;
    bool m_retryScheduled = false;
};

} // namespace berth
