#pragma once

#include <QHash>
#include <QString>
#include <optional>

namespace berth {

class SettingsRepository;

// A port of its own for each site on the LAN addresses, from a range (8100-8199 by default). Assignments are kept
// in the instance's settings so that a site keeps its port across restarts; a deleted site's port is free again.
// Keyed by deployment id, so a rename keeps the port. Used on the engine's thread only (it writes the database).
class SitePorts final
{
public:
    struct Range
    {
        quint16 first = 8100;
        quint16 last = 8199;
    };

    SitePorts(SettingsRepository &settings, Range range);
    Q_DISABLE_COPY_MOVE(SitePorts)

    // Reads the saved assignments; those outside the range are forgotten (the range was changed).
    void load();
    // The deployment's port, assigned now (the lowest free one) when it has none; nullopt when the range is full.
    std::optional<quint16> assign(const QString &deploymentId);
    std::optional<quint16> port(const QString &deploymentId) const;
    // Frees the deployment's port (it was deleted).
    void release(const QString &deploymentId);
    // Frees the ports of every deployment not in liveIds (deleted while the instance was not serving).
    void keepOnly(const QList<QString> &liveIds);
    Range range() const { return m_range; }

    static constexpr char kSettingKey[] = "lan_site_ports";

private:
    void save();

    SettingsRepository &m_settings;
    Range m_range;
    QHash<QString, quint16> m_ports;
};

} // namespace berth
