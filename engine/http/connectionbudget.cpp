#include "http/connectionbudget.h"

#include <QMutexLocker>

namespace berth {

namespace {
// Takes one unit of a shared count unless it is at its cap; true when taken.
bool takeBelow(std::atomic<int> &count, int cap)
{
    int current = count.load();
    while (current < cap) {
        if (count.compare_exchange_weak(current, current + 1))
            return true;
    }
    return false;
}
} // namespace

ConnectionBudget::ConnectionBudget(const HttpConfig &config)
    : m_maxConnections(config.maxConnections)
    , m_maxVisitors(config.maxConnections - qMin(config.apiReservedConnections, config.maxConnections / 2))
    , m_maxPerAddress(config.maxConnectionsPerAddress)
    , m_maxLargeUploads(config.maxLargeUploads)
    , m_exempt(config.uncappedAddresses)
{
}

QHostAddress ConnectionBudget::addressGroup(const QHostAddress &peer)
{
    if (peer.protocol() != QAbstractSocket::IPv6Protocol)
        return peer;
    Q_IPV6ADDR bytes = peer.toIPv6Address();
    for (int i = 8; i < 16; ++i)
        bytes[i] = 0;
    return QHostAddress(bytes);
}

ConnectionBudget::Admission ConnectionBudget::admit(const QHostAddress &peer)
{
    if (!takeBelow(m_live, m_maxConnections))
        return Admission::OverTotal;
    if (m_maxPerAddress <= 0 || m_exempt.contains(peer))
        return Admission::Admitted;
    const QMutexLocker locker(&m_mutex);
    int &count = m_perAddress[addressGroup(peer)];
    if (count >= m_maxPerAddress) {
        --m_live;
        return Admission::OverAddress;
    }
    ++count;
    return Admission::Admitted;
}

void ConnectionBudget::release(const QHostAddress &peer)
{
    --m_live;
    if (m_maxPerAddress <= 0 || m_exempt.contains(peer))
        return;
    const QMutexLocker locker(&m_mutex);
    const auto it = m_perAddress.find(addressGroup(peer));
    if (it != m_perAddress.end() && --it.value() <= 0)
        m_perAddress.erase(it);
}

bool ConnectionBudget::admitVisitor()
{
    return takeBelow(m_visitors, m_maxVisitors);
}

void ConnectionBudget::releaseVisitor()
{
    --m_visitors;
}

bool ConnectionBudget::acquireUpload()
{
    return takeBelow(m_uploads, m_maxLargeUploads);
}

void ConnectionBudget::releaseUpload()
{
    --m_uploads;
}

} // namespace berth
