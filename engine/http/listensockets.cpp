#include "http/listensockets.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

struct SocketAddress
{
    sockaddr_storage storage {};
    socklen_t length = 0;
    int family = AF_INET;
    bool v6Only = false;
};

SocketAddress socketAddress(const QHostAddress &address, quint16 port)
{
    SocketAddress result;
    if (address.protocol() == QAbstractSocket::IPv4Protocol) {
        auto *in = reinterpret_cast<sockaddr_in *>(&result.storage);
        in->sin_family = AF_INET;
        in->sin_port = htons(port);
        in->sin_addr.s_addr = htonl(address.toIPv4Address());
        result.length = sizeof(sockaddr_in);
        return result;
    }
    // IPv6, or "any" as a dual-stack socket that also takes IPv4 clients (as QTcpServer does).
    auto *in6 = reinterpret_cast<sockaddr_in6 *>(&result.storage);
    in6->sin6_family = AF_INET6;
    in6->sin6_port = htons(port);
    const Q_IPV6ADDR bytes
        = address.protocol() == QAbstractSocket::AnyIPProtocol ? Q_IPV6ADDR {} : address.toIPv6Address();
    std::memcpy(&in6->sin6_addr, &bytes, sizeof(bytes));
    in6->sin6_scope_id = address.scopeId().toUInt();
    result.length = sizeof(sockaddr_in6);
    result.family = AF_INET6;
    result.v6Only = address.protocol() == QAbstractSocket::IPv6Protocol;
    return result;
}

Error unavailable(const QString &reason)
{
    return {Error::Kind::Unavailable, reason};
}

// A socket bound to address (not yet listening), or why not.
Result<int> boundSocket(const SocketAddress &address, bool reusePort)
{
    const int fd = ::socket(address.family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return unavailable(QString::fromLocal8Bit(std::strerror(errno)));
    const int on = 1;
    const int v6Only = address.v6Only ? 1 : 0;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on)); // restart while old connections linger
    if (reusePort)
        ::setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof(on));
    if (address.family == AF_INET6)
        ::setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6Only, sizeof(v6Only));
    if (::bind(fd, reinterpret_cast<const sockaddr *>(&address.storage), address.length) != 0) {
        const QString reason
            = errno == EADDRINUSE ? u"The address is already in use"_s : QString::fromLocal8Bit(std::strerror(errno));
        ::close(fd);
        return unavailable(reason);
    }
    return fd;
}

quint16 boundPort(int fd)
{
    sockaddr_storage storage {};
    socklen_t length = sizeof(storage);
    if (::getsockname(fd, reinterpret_cast<sockaddr *>(&storage), &length) != 0)
        return 0;
    if (storage.ss_family == AF_INET)
        return ntohs(reinterpret_cast<const sockaddr_in *>(&storage)->sin_port);
    return ntohs(reinterpret_cast<const sockaddr_in6 *>(&storage)->sin6_port);
}

} // namespace

Result<ListenSockets> ListenSockets::open(const QHostAddress &address, quint16 port, int count, int backlog)
{
    ListenSockets sockets;
    const bool reusePort = count > 1;
    if (reusePort && port != 0) {
        // A group of SO_REUSEPORT sockets would silently share the port with another server of the same user.
        const Result<int> probe = boundSocket(socketAddress(address, port), false);
        if (!probe)
            return probe.error();
        ::close(probe.value());
    }
    for (int i = 0; i < count; ++i) {
        const Result<int> bound = boundSocket(socketAddress(address, i == 0 ? port : sockets.port), reusePort);
        if (!bound) {
            sockets.closeAll();
            return bound.error();
        }
        const int fd = bound.value();
        if (::listen(fd, backlog) != 0) {
            const QString reason = QString::fromLocal8Bit(std::strerror(errno));
            ::close(fd);
            sockets.closeAll();
            return unavailable(reason);
        }
        if (i == 0)
            sockets.port = boundPort(fd);
        sockets.descriptors.append(fd);
    }
    return sockets;
}

void ListenSockets::closeAll()
{
    for (int fd : std::as_const(descriptors))
        ::close(fd);
    descriptors.clear();
}

} // namespace berth
