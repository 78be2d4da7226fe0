#include "http/httpserveradapter.h"

#include "http/connectionguard.h"

namespace berth {

HttpServerAdapter::HttpServerAdapter(QObject *parent)
    : QAbstractHttpServer(parent)
{
}

bool HttpServerAdapter::handleRequest(const QHttpServerRequest &request, QTcpSocket *socket)
{
    // Every socket comes from the FrontDoor, which only creates guarded sockets.
    ConnectionGuard::of(socket).dispatch(request);
    return true;
}

void HttpServerAdapter::missingHandler(const QHttpServerRequest &, QTcpSocket *) { }

} // namespace berth
