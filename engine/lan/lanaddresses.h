#pragma once

#include <QHostAddress>
#include <QList>

namespace berth {

// One address of this machine on a local network, with the interface it belongs to (mDNS records are
// announced on that interface only, so that a multi-homed machine gives each network its own address).
struct LanAddress
{
    QHostAddress address;
    int interfaceIndex = 0;

    bool operator==(const LanAddress &other) const
    {
        return address == other.address && interfaceIndex == other.interfaceIndex;
    }
};

// The machine's LAN addresses: every IPv4 and IPv6 address of an interface that is up and running, except
// loopback and IPv6 link-local ones (those need a scope to be bound and reached). Sorted for stable output.
QList<LanAddress> currentLanAddresses();

// "10.0.0.5" or "[fd00::5]", as it goes into a URL.
QString urlHost(const QHostAddress &address);

} // namespace berth
