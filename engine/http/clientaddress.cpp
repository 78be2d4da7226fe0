#include "http/clientaddress.h"

namespace berth {

namespace {
bool isTrusted(const QHostAddress &address, const QList<QHostAddress> &trustedProxies)
{
    for (const QHostAddress &proxy : trustedProxies) {
        if (HttpRequest::normalisedPeer(proxy).isEqual(address))
            return true;
    }
    return false;
}
} // namespace

QHostAddress clientAddress(const HttpRequest &request, const QList<QHostAddress> &trustedProxies)
{
    const QHostAddress peer = HttpRequest::normalisedPeer(request.peer);
    if (trustedProxies.isEmpty() || !isTrusted(peer, trustedProxies))
        return peer;
    // Several X-Forwarded-For headers arrive joined in order; each proxy appends the address it saw.
    QByteArrayList hops;
    for (const auto &field : request.headers) {
        if (field.first == "x-forwarded-for")
            hops += field.second.split(',');
    }
    QHostAddress client = peer;
    for (auto it = hops.crbegin(); it != hops.crend(); ++it) {
        const QHostAddress hop(QString::fromLatin1(it->trimmed()));
        if (hop.isNull())
            break; // a malformed entry: nothing left of it can be trusted
        client = HttpRequest::normalisedPeer(hop);
        if (!isTrusted(client, trustedProxies))
            break;
    }
    return client;
}

} // namespace berth
