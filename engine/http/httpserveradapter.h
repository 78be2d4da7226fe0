#pragma once

#include <QAbstractHttpServer>

namespace berth {

// The QtHttpServer end: it parses the requests the front door approved and hands each to its connection, which
// writes the response itself (no QHttpServerResponder, no routing here).
class HttpServerAdapter final : public QAbstractHttpServer
{
    Q_OBJECT

public:
    explicit HttpServerAdapter(QObject *parent = nullptr);
    Q_DISABLE_COPY_MOVE(HttpServerAdapter)

protected:
    bool handleRequest(const QHttpServerRequest &request, QTcpSocket *socket) override;
    void missingHandler(const QHttpServerRequest &request, QTcpSocket *socket) override;
};

} // namespace berth
