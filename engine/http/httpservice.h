#pragma once

#include "httpconfig.h"

#include <QHostAddress>
#include <QObject>

namespace berth {

class FrontDoor;
class HttpServerAdapter;
class RequestHandler;

// The HTTP/1.1 server others use: QtHttpServer behind the front door, answering through one RequestHandler.
class HttpService final : public QObject
{
    Q_OBJECT

public:
    explicit HttpService(RequestHandler &handler, HttpConfig config = {}, QObject *parent = nullptr);
    ~HttpService() override;
    Q_DISABLE_COPY_MOVE(HttpService)

    bool listen(const QHostAddress &address, quint16 port, QString *error = nullptr); // port 0 picks a free one
    quint16 serverPort() const;
    int liveConnections() const;

    // Diagnostics (and test hooks).
    int acceptErrors() const;
    qint64 peakUnsentBytes() const; // the most a streamed response ever left queued in a socket

private:
    HttpServerAdapter *m_adapter;
    FrontDoor *m_door;
};

} // namespace berth
