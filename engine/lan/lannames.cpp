#include "lan/lannames.h"

using namespace Qt::StringLiterals;

namespace berth {

namespace {
QString hostOf(const QString &label)
{
    return label + u".local"_s;
}
} // namespace

std::optional<LanNames::Target> LanNames::find(const QString &host) const
{
    if (!host.endsWith(u".local"))
        return std::nullopt;
    QReadLocker locker(&m_lock);
    const auto it = m_byHost.constFind(host);
    if (it == m_byHost.constEnd())
        return std::nullopt;
    return it.value();
}

void LanNames::setSiteName(const QString &deploymentId, const QString &slug, const QString &label)
{
    QWriteLocker locker(&m_lock);
    const QString previous = m_labelById.value(deploymentId);
    if (!previous.isEmpty())
        m_byHost.remove(hostOf(previous));
    m_labelById.insert(deploymentId, label);
    m_byHost.insert(hostOf(label), Target {false, slug});
}

void LanNames::removeSite(const QString &deploymentId)
{
    QWriteLocker locker(&m_lock);
    const QString previous = m_labelById.take(deploymentId);
    if (!previous.isEmpty())
        m_byHost.remove(hostOf(previous));
}

void LanNames::setApiName(const QString &label)
{
    QWriteLocker locker(&m_lock);
    if (!m_apiLabel.isEmpty())
        m_byHost.remove(hostOf(m_apiLabel));
    m_apiLabel = label;
    if (!label.isEmpty())
        m_byHost.insert(hostOf(label), Target {true, QString()});
}

QString LanNames::siteLabel(const QString &deploymentId) const
{
    QReadLocker locker(&m_lock);
    return m_labelById.value(deploymentId);
}

QString LanNames::apiLabel() const
{
    QReadLocker locker(&m_lock);
    return m_apiLabel;
}

void LanNames::clear()
{
    QWriteLocker locker(&m_lock);
    m_byHost.clear();
    m_labelById.clear();
    m_apiLabel.clear();
}

} // namespace berth
