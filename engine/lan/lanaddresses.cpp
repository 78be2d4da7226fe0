#include "lan/lanaddresses.h"

#include <QNetworkInterface>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace berth {

QList<LanAddress> currentLanAddresses()
{
    QList<LanAddress> result;
    const auto interfaces = QNetworkInterface::allInterfaces();
    for (const QNetworkInterface &interface : interfaces) {
        const auto flags = interface.flags();
        if (!flags.testFlag(QNetworkInterface::IsUp) || !flags.testFlag(QNetworkInterface::IsRunning)
            || flags.testFlag(QNetworkInterface::IsLoopBack))
            continue;
        for (const QNetworkAddressEntry &entry : interface.addressEntries()) {
            QHostAddress address = entry.ip();
            if (address.isLoopback() || address.isLinkLocal() || address.isNull())
                continue;
            if (address.protocol() != QAbstractSocket::IPv4Protocol
                && address.protocol() != QAbstractSocket::IPv6Protocol)
                continue;
            address.setScopeId(QString());
            result.append({address, interface.index()});
        }
    }
    // IPv4 first (what people type and what every device resolves), then by address.
    std::sort(result.begin(), result.end(), [](const LanAddress &a, const LanAddress &b) {
        const bool a4 = a.address.protocol() == QAbstractSocket::IPv4Protocol;
        const bool b4 = b.address.protocol() == QAbstractSocket::IPv4Protocol;
        if (a4 != b4)
            return a4;
        return a.address.toString() < b.address.toString();
    });
    return result;
}

QString urlHost(const QHostAddress &address)
{
    return address.protocol() == QAbstractSocket::IPv6Protocol ? u'[' + address.toString() + u']' : address.toString();
}

} // namespace berth
