#pragma once

#include "http/connectionguard.h"

#include <QSslSocket>
#include <QTcpSocket>
#include <type_traits>

namespace berth {

class FrontDoor;

// A client connection: the socket class the door needs (QTcpSocket for plain HTTP; QSslSocket, with its extra
// buffering layer over an inner TCP socket, only for HTTPS) with its ConnectionGuard inside. The overrides only hand
// over to the guard, so both kinds share one guard. Used with QTcpSocket and QSslSocket only; FrontDoor creates
// them, QtHttpServer deletes them.
template<class Socket>
class GuardedSocket final : public Socket
{
    static constexpr bool kTls = std::is_same_v<Socket, QSslSocket>;
    static_assert(kTls || std::is_same_v<Socket, QTcpSocket>);

public:
    GuardedSocket(FrontDoor &door, QObject *parent)
        : Socket(parent)
        , m_guard(*this, tlsSocket(), door)
    {
    }
    ~GuardedSocket() override = default;
    Q_DISABLE_COPY_MOVE(GuardedSocket)

    ConnectionGuard &guard() { return m_guard; }

    qint64 bytesAvailable() const override
    {
        return m_guard.throttled() ? QIODevice::bytesAvailable() : Socket::bytesAvailable();
    }
    // Unsent bytes: with TLS, also those already encrypted but not yet taken by the kernel.
    qint64 bytesToWrite() const override
    {
        if constexpr (kTls)
            return Socket::bytesToWrite() + Socket::encryptedBytesToWrite();
        else
            return Socket::bytesToWrite();
    }

protected:
    qint64 readData(char *data, qint64 maxSize) override
    {
        return m_guard.throttled() ? 0 : Socket::readData(data, maxSize);
    }
    void timerEvent(QTimerEvent *event) override
    {
        if (!m_guard.timerEvent(event))
            Socket::timerEvent(event);
    }

private:
    QSslSocket *tlsSocket()
    {
        if constexpr (kTls)
            return this;
        else
            return nullptr;
    }

    ConnectionGuard m_guard; // destroyed before the socket, which aborts (and emits disconnected) as it goes
};

extern template class GuardedSocket<QTcpSocket>;
extern template class GuardedSocket<QSslSocket>;

} // namespace berth
