#include "http/guardedsocket.h"

namespace berth {

template class GuardedSocket<QTcpSocket>;
template class GuardedSocket<QSslSocket>;

ConnectionGuard &ConnectionGuard::of(QObject *socket)
{
    // The metaobject tells the two apart without RTTI: only HTTPS doors make QSslSockets.
    if (auto *tls = qobject_cast<QSslSocket *>(socket))
        return static_cast<GuardedSocket<QSslSocket> *>(tls)->guard();
    return static_cast<GuardedSocket<QTcpSocket> *>(static_cast<QTcpSocket *>(socket))->guard();
}

} // namespace berth
