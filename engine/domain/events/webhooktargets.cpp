#include "domain/events/webhooktargets.h"

using namespace Qt::StringLiterals;

namespace berth {

namespace {

bool isLocal(const QHostAddress &address)
{
    return address.isLoopback() || address.isNull() || address == QHostAddress::AnyIPv4
        || address == QHostAddress::AnyIPv6;
}

bool isPrivateOrLinkLocal(const QHostAddress &address)
{
    // RFC 1918 and unique local IPv6 (Qt 6.4 has no isPrivateUse()), link-local, and carrier-grade NAT (100.64/10):
    // none of them a public receiver; nor is multicast or broadcast.
    static const QList<QPair<QHostAddress, int>> kPrivate {{QHostAddress(u"10.0.0.0"_s), 8},
        {QHostAddress(u"172.16.0.0"_s), 12}, {QHostAddress(u"192.168.0.0"_s), 16}, {QHostAddress(u"100.64.0.0"_s), 10},
        {QHostAddress(u"0.0.0.0"_s), 8}};
    for (const auto &[network, prefix] : kPrivate) {
        if (address.isInSubnet(network, prefix))
            return true;
    }
    return address.isUniqueLocalUnicast() || address.isLinkLocal() || address.isSiteLocal() || address.isMulticast()
        || address.isBroadcast();
}

} // namespace

std::optional<WebhookTargets::Policy> WebhookTargets::parse(const QString &name)
{
    if (name == u"public"_s)
        return Policy::Public;
    if (name == u"lan"_s)
        return Policy::Lan;
    if (name == u"any"_s)
        return Policy::Any;
    return std::nullopt;
}

QString WebhookTargets::name(Policy policy)
{
    switch (policy) {
    case Policy::Public:
        return u"public"_s;
    case Policy::Lan:
        return u"lan"_s;
    case Policy::Any:
        return u"any"_s;
    }
    return u"public"_s;
}

bool WebhookTargets::allows(Policy policy, const QHostAddress &given)
{
    bool mapped = false;
    const quint32 ipv4 = given.toIPv4Address(&mapped); // ::ffff:10.0.0.1 is 10.0.0.1
    const QHostAddress address = mapped ? QHostAddress(ipv4) : given;
    if (policy == Policy::Any)
        return !address.isNull();
    if (isLocal(address))
        return false;
    return policy == Policy::Lan || !isPrivateOrLinkLocal(address);
}

bool WebhookTargets::allows(Policy policy, const QList<QHostAddress> &addresses)
{
    if (addresses.isEmpty())
        return false;
    for (const QHostAddress &address : addresses) {
        if (!allows(policy, address))
            return false;
    }
    return true;
}

} // namespace berth
