#include "lan/siteports.h"

#include "storage/settingsrepository.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

namespace berth {

SitePorts::SitePorts(SettingsRepository &settings, Range range)
    : m_settings(settings)
    , m_range(range)
{
}

void SitePorts::load()
{
    m_ports.clear();
    const QJsonObject saved = QJsonDocument::fromJson(m_settings.value(QLatin1String(kSettingKey)).toUtf8()).object();
    QSet<int> taken;
    for (auto it = saved.begin(); it != saved.end(); ++it) {
        const int port = it.value().toInt();
        if (port < m_range.first || port > m_range.last || taken.contains(port))
            continue;
        taken.insert(port);
        m_ports.insert(it.key(), quint16(port));
    }
    if (m_ports.size() != saved.size())
        save();
}

std::optional<quint16> SitePorts::assign(const QString &deploymentId)
{
    if (const auto existing = port(deploymentId))
        return existing;
    QSet<quint16> taken;
    for (const quint16 used : std::as_const(m_ports))
        taken.insert(used);
    // A range holds at most a few hundred ports: a scan is cheap, and the lowest free port keeps numbers small.
    for (int candidate = m_range.first; candidate <= m_range.last; ++candidate) {
        if (!taken.contains(quint16(candidate))) {
            m_ports.insert(deploymentId, quint16(candidate));
            save();
            return quint16(candidate);
        }
    }
    return std::nullopt;
}

std::optional<quint16> SitePorts::port(const QString &deploymentId) const
{
    const auto it = m_ports.constFind(deploymentId);
    if (it == m_ports.constEnd())
        return std::nullopt;
    return it.value();
}

void SitePorts::release(const QString &deploymentId)
{
    if (m_ports.remove(deploymentId))
        save();
}

void SitePorts::keepOnly(const QList<QString> &liveIds)
{
    const QSet<QString> live(liveIds.begin(), liveIds.end());
    bool changed = false;
    for (auto it = m_ports.begin(); it != m_ports.end();) {
        if (live.contains(it.key())) {
            ++it;
        } else {
            it = m_ports.erase(it);
            changed = true;
        }
    }
    if (changed)
        save();
}

void SitePorts::save()
{
    QJsonObject object;
    for (auto it = m_ports.constBegin(); it != m_ports.constEnd(); ++it)
        object.insert(it.key(), int(it.value()));
    if (!m_settings.setValue(
            QLatin1String(kSettingKey), QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact))))
        qWarning("berth: cannot save the LAN site ports");
}

} // namespace berth
