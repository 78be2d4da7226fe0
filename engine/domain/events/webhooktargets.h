#pragma once

#include <QHostAddress>
#include <QList>
#include <QString>
#include <optional>

namespace berth {

// Where the instance's owner lets webhooks deliver: public addresses only (the default), also private LAN ranges,
// or anywhere including loopback. Checked when a webhook is added and again before every delivery, since a name may
// resolve elsewhere later.
class WebhookTargets final
{
public:
    enum class Policy
    {
        Public,
        Lan,
        Any,
    };

    static constexpr char kSettingKey[] = "webhook_targets";

    static std::optional<Policy> parse(const QString &name); // "public", "lan", "any"
    static QString name(Policy policy);
    // Whether every address a host resolved to may be delivered to (none: no).
    static bool allows(Policy policy, const QList<QHostAddress> &addresses);
    static bool allows(Policy policy, const QHostAddress &address);
};

} // namespace berth
