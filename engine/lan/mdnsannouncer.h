#pragma once

#include "lan/lanaddresses.h"

#include <QHash>
#include <QObject>
#include <QString>
#include <atomic>

struct AvahiClient;
struct AvahiEntryGroup;
struct AvahiThreadedPoll;

namespace berth {

class LanNames;

// Announces names on the local network through the Avahi daemon (mDNS): each site as "<slug>.local" and the API
// as "<name>.local" with a DNS-SD _http._tcp service, A/AAAA records for the LAN addresses. A name another device
// already holds moves on to "<slug>-2.local", "-3", ...; the names in use are kept in LanNames for the dispatcher.
// Avahi runs on its own thread (avahi's threaded poll), never on a serving one; the calls here take its lock for
// the short time a change needs. Without an Avahi daemon the names still answer by Host, nothing is announced,
// and notice() says why (logged once); when the daemon appears later, announcing starts.
class MdnsAnnouncer final : public QObject
{
    Q_OBJECT

public:
    explicit MdnsAnnouncer(LanNames &names, QObject *parent = nullptr);
    ~MdnsAnnouncer() override;
    Q_DISABLE_COPY_MOVE(MdnsAnnouncer)

    // Connects to Avahi and announces everything set so far. The setters work before and after.
    void start();
    void stop(); // withdraws every name
    bool isStarted() const { return m_poll != nullptr; }

    void setAddresses(const QList<LanAddress> &addresses);
    void setApi(const QString &label, quint16 port);
    void setSite(const QString &deploymentId, const QString &slug); // publish or rename
    void removeSite(const QString &deploymentId);
    void clear(); // every site and the API

    // Engine thread: whether Avahi is announcing, and otherwise why not (empty before start()).
    bool isAnnouncing() const { return m_announcing; }
    QString notice() const { return m_notice; }

Q_SIGNALS:
    void changed(); // a name or the notice changed; queued to this object's thread

private:
    struct Entry
    {
        QString slug; // the name it wants: the site's slug, or the API's name
        QString label; // as announced: slug, slug-2, ...
        int attempt = 1;
        AvahiEntryGroup *group = nullptr;
    };
    static constexpr char kApiKey[] = ""; // the API's entry among the sites' (no deployment id is empty)
    static constexpr int kMaxAttempts = 50;

    // All below run with the poll's lock held (or before its thread starts / after it stopped).
    void createClient();
    void onClientState(AvahiClient *client, int state);
    void onGroupState(AvahiEntryGroup *group, int state);
    void publish(const QString &key);
    void withdraw(Entry &entry);
    void resetAll();
    QString labelFor(const QString &key, const Entry &entry) const;
    bool labelInUse(const QString &key, const QString &label) const;
    void recordName(const QString &key, const Entry &entry);
    void postStatus(bool announcing, const QString &notice);

    class Locker;

    LanNames &m_names;
    AvahiThreadedPoll *m_poll = nullptr;
    AvahiClient *m_client = nullptr;
    bool m_clientRunning = false;
    QList<LanAddress> m_addresses;
    quint16 m_apiPort = 0;
    QHash<QString, Entry> m_entries; // by deployment id; kApiKey for the API
    // Engine thread only.
    bool m_announcing = false;
    QString m_notice;
    bool m_noticeLogged = false;
    std::atomic<int> m_generation {0}; // a stop() makes status posted before it stale
};

} // namespace berth
