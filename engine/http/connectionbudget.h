#pragma once

#include "http/httpconfig.h"

#include <QHash>
#include <QHostAddress>
#include <QList>
#include <QMutex>
#include <atomic>

namespace berth {

// What all serving threads share of the front door's limits: live connections (with a reserve that only the
// management API may use), connections per client address, and concurrent large uploads. Thread-safe; every
// admission is paired with its release by the connection that got it.
class ConnectionBudget final
{
public:
    enum class Admission
    {
        Admitted,
        OverTotal,
        OverAddress
    };

    explicit ConnectionBudget(const HttpConfig &config);
    Q_DISABLE_COPY_MOVE(ConnectionBudget)

    Admission admit(const QHostAddress &peer);
    void release(const QHostAddress &peer);
    // A connection whose first request is for a site (not the API): visitors may not use the API's reserve.
    bool admitVisitor();
    void releaseVisitor();
    bool acquireUpload();
    void releaseUpload();

    int live() const { return m_live.load(); }
    // The key per-address limits count under: an IPv4 address, or an IPv6 address's /64 (one subscriber).
    static QHostAddress addressGroup(const QHostAddress &peer);

private:
    const int m_maxConnections;
    const int m_maxVisitors;
    const int m_maxPerAddress; // 0: no per-address cap
    const int m_maxLargeUploads;
    const QList<QHostAddress> m_exempt;
    std::atomic<int> m_live {0};
    std::atomic<int> m_visitors {0};
    std::atomic<int> m_uploads {0};
    QMutex m_mutex;
    QHash<QHostAddress, int> m_perAddress;
};

} // namespace berth
