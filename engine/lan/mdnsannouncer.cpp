#include "lan/mdnsannouncer.h"

#include "lan/lannames.h"

#include <avahi-client/client.h>
#include <avahi-client/publish.h>
#include <avahi-common/address.h>
#include <avahi-common/error.h>
#include <avahi-common/malloc.h>
#include <avahi-common/thread-watch.h>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
constexpr char kServiceType[] = "_http._tcp";

QString avahiError(int code)
{
    return QString::fromUtf8(avahi_strerror(code));
}
} // namespace

// Holds the poll's lock while the engine's thread changes what is announced (nothing to lock before start()).
class MdnsAnnouncer::Locker
{
public:
    explicit Locker(AvahiThreadedPoll *poll)
        : m_poll(poll)
    {
        if (m_poll)
            avahi_threaded_poll_lock(m_poll);
    }
    ~Locker()
    {
        if (m_poll)
            avahi_threaded_poll_unlock(m_poll);
    }
    Q_DISABLE_COPY_MOVE(Locker)

private:
    AvahiThreadedPoll *m_poll;
};

MdnsAnnouncer::MdnsAnnouncer(LanNames &names, QObject *parent)
    : QObject(parent)
    , m_names(names)
{
}

MdnsAnnouncer::~MdnsAnnouncer()
{
    stop();
}

void MdnsAnnouncer::start()
{
    if (m_poll)
        return;
    m_poll = avahi_threaded_poll_new();
    if (!m_poll) {
        postStatus(false, u"Local names (mDNS) are off: Avahi could not be set up."_s);
        return;
    }
    createClient();
    if (avahi_threaded_poll_start(m_poll) < 0) {
        if (m_client)
            avahi_client_free(m_client);
        m_client = nullptr;
        avahi_threaded_poll_free(m_poll);
        m_poll = nullptr;
        postStatus(false, u"Local names (mDNS) are off: Avahi could not be started."_s);
    }
}

void MdnsAnnouncer::stop()
{
    if (!m_poll)
        return;
    avahi_threaded_poll_stop(m_poll); // joins the thread: nothing runs concurrently from here on
    if (m_client)
        avahi_client_free(m_client); // frees its entry groups, which withdraws their records
    m_client = nullptr;
    m_clientRunning = false;
    for (Entry &entry : m_entries)
        entry.group = nullptr;
    avahi_threaded_poll_free(m_poll);
    m_poll = nullptr;
    ++m_generation;
    m_announcing = false;
    m_notice.clear();
}

void MdnsAnnouncer::createClient()
{
    int error = 0;
    // NO_FAIL: without a daemon the client waits for one instead of failing, so announcing starts when it appears.
    AvahiClient *client = avahi_client_new(
        avahi_threaded_poll_get(m_poll), AVAHI_CLIENT_NO_FAIL,
        [](AvahiClient *c, AvahiClientState state, void *self) {
            static_cast<MdnsAnnouncer *>(self)->onClientState(c, int(state));
        },
        this, &error);
    if (!client) {
        postStatus(false, u"Local names (mDNS) are off: %1."_s.arg(avahiError(error)));
        return;
    }
    m_client = client;
}

void MdnsAnnouncer::onClientState(AvahiClient *client, int state)
{
    m_client = client; // the first call comes from inside avahi_client_new(), before it returned
    switch (AvahiClientState(state)) {
    case AVAHI_CLIENT_S_RUNNING:
        m_clientRunning = true;
        for (auto it = m_entries.begin(); it != m_entries.end(); ++it)
            publish(it.key());
        postStatus(true, QString());
        break;
    case AVAHI_CLIENT_S_COLLISION:
    case AVAHI_CLIENT_S_REGISTERING:
        // The daemon is (re)naming this host: records are withdrawn and come back with S_RUNNING.
        m_clientRunning = false;
        resetAll();
        break;
    case AVAHI_CLIENT_CONNECTING:
        m_clientRunning = false;
        postStatus(false,
            u"Local names (mDNS) are off: no Avahi daemon is running. Sites stay reachable at their LAN ports; "
            "names are announced as soon as the daemon starts."_s);
        break;
    case AVAHI_CLIENT_FAILURE: {
        m_clientRunning = false;
        const int error = avahi_client_errno(client);
        // The groups go with the client.
        for (Entry &entry : m_entries)
            entry.group = nullptr;
        avahi_client_free(client);
        m_client = nullptr;
        if (error == AVAHI_ERR_DISCONNECTED) {
            postStatus(
                false, u"Local names (mDNS) are off: the Avahi daemon stopped. They come back when it starts again."_s);
            createClient(); // waits for the daemon (NO_FAIL)
        } else {
            postStatus(false, u"Local names (mDNS) are off: %1."_s.arg(avahiError(error)));
        }
        break;
    }
    }
}

void MdnsAnnouncer::onGroupState(AvahiEntryGroup *group, int state)
{
    for (auto it = m_entries.begin(); it != m_entries.end(); ++it) {
        if (it->group != group)
            continue;
        if (state == AVAHI_ENTRY_GROUP_COLLISION) {
            // Another device holds the name: take the next one.
            ++it->attempt;
            publish(it.key());
        } else if (state == AVAHI_ENTRY_GROUP_FAILURE) {
            qWarning("berth: mDNS: announcing %s.local failed: %s", qUtf8Printable(it->label),
                qUtf8Printable(avahiError(avahi_client_errno(m_client))));
        }
        return;
    }
}

bool MdnsAnnouncer::labelInUse(const QString &key, const QString &label) const
{
    // Another entry's label, or another site's own slug (which it would want): never two entries on one name.
    for (auto it = m_entries.constBegin(); it != m_entries.constEnd(); ++it) {
        if (it.key() != key && (it->label == label || it->slug == label))
            return true;
    }
    return false;
}

QString MdnsAnnouncer::labelFor(const QString &key, const Entry &entry) const
{
    const QString &base = entry.slug;
    for (int attempt = entry.attempt; attempt < entry.attempt + kMaxAttempts; ++attempt) {
        const QString label = attempt <= 1 ? base : u"%1-%2"_s.arg(base).arg(attempt);
        if (!labelInUse(key, label))
            return label;
    }
    return QString();
}

void MdnsAnnouncer::recordName(const QString &key, const Entry &entry)
{
    if (key == QLatin1String(kApiKey))
        m_names.setApiName(entry.label);
    else
        m_names.setSiteName(key, entry.slug, entry.label);
}

void MdnsAnnouncer::publish(const QString &key)
{
    auto it = m_entries.find(key);
    if (it == m_entries.end())
        return;
    Entry &entry = it.value();
    const bool api = key == QLatin1String(kApiKey);
    for (int tries = 0; tries < kMaxAttempts; ++tries) {
        const QString label = labelFor(key, entry);
        if (label.isEmpty())
            return;
        entry.label = label;
        entry.attempt = qMax(entry.attempt, 1);
        recordName(key, entry);
        Q_EMIT changed(); // queued: this runs on Avahi's thread or under its lock
        if (!m_client || !m_clientRunning)
            return; // announced when the daemon is there
        if (!entry.group) {
            entry.group = avahi_entry_group_new(
                m_client,
                [](AvahiEntryGroup *g, AvahiEntryGroupState state, void *self) {
                    static_cast<MdnsAnnouncer *>(self)->onGroupState(g, int(state));
                },
                this);
            if (!entry.group)
                return;
        }
        avahi_entry_group_reset(entry.group);
        const QByteArray host = (label + u".local"_s).toUtf8();
        int result = AVAHI_OK;
        int added = 0;
        for (const LanAddress &lan : std::as_const(m_addresses)) {
            AvahiAddress address;
            if (!avahi_address_parse(lan.address.toString().toLatin1().constData(), AVAHI_PROTO_UNSPEC, &address))
                continue;
            // NO_REVERSE: the address's reverse name is the machine's own; a site only adds a forward name.
            result = avahi_entry_group_add_address(
                entry.group, lan.interfaceIndex, address.proto, AVAHI_PUBLISH_NO_REVERSE, host.constData(), &address);
            if (result != AVAHI_OK)
                break;
            ++added;
        }
        if (result == AVAHI_OK && api && added > 0) {
            const QByteArray service = (u"Berth (%1)"_s.arg(label)).toUtf8();
            result
                = avahi_entry_group_add_service(entry.group, AVAHI_IF_UNSPEC, AVAHI_PROTO_UNSPEC, AvahiPublishFlags(0),
                    service.constData(), kServiceType, nullptr, host.constData(), m_apiPort, "path=/", nullptr);
        }
        if (result == AVAHI_ERR_COLLISION) {
            ++entry.attempt; // held on this machine already (by the host's own name, or another program)
            continue;
        }
        if (result != AVAHI_OK) {
            qWarning("berth: mDNS: cannot announce %s: %s", host.constData(), qUtf8Printable(avahiError(result)));
            return;
        }
        if (added > 0 && avahi_entry_group_commit(entry.group) < 0)
            qWarning("berth: mDNS: cannot announce %s: %s", host.constData(),
                qUtf8Printable(avahiError(avahi_client_errno(m_client))));
        return;
    }
}

void MdnsAnnouncer::withdraw(Entry &entry)
{
    if (entry.group) {
        avahi_entry_group_free(entry.group);
        entry.group = nullptr;
    }
}

void MdnsAnnouncer::resetAll()
{
    for (Entry &entry : m_entries) {
        if (entry.group)
            avahi_entry_group_reset(entry.group);
    }
}

void MdnsAnnouncer::setAddresses(const QList<LanAddress> &addresses)
{
    Locker lock(m_poll);
    if (addresses == m_addresses)
        return;
    m_addresses = addresses;
    for (auto it = m_entries.begin(); it != m_entries.end(); ++it)
        publish(it.key());
}

void MdnsAnnouncer::setApi(const QString &label, quint16 port)
{
    Locker lock(m_poll);
    Entry &entry = m_entries[QLatin1String(kApiKey)];
    if (entry.slug == label && m_apiPort == port && !entry.label.isEmpty())
        return;
    m_apiPort = port;
    entry.slug = label; // the name it wants; sites cannot take it
    withdraw(entry);
    entry.attempt = 1;
    publish(QLatin1String(kApiKey));
}

void MdnsAnnouncer::setSite(const QString &deploymentId, const QString &slug)
{
    Locker lock(m_poll);
    Entry &entry = m_entries[deploymentId];
    if (entry.slug == slug && !entry.label.isEmpty())
        return;
    entry.slug = slug;
    entry.attempt = 1;
    withdraw(entry); // a rename frees the old name at once
    publish(deploymentId);
}

void MdnsAnnouncer::removeSite(const QString &deploymentId)
{
    Locker lock(m_poll);
    auto it = m_entries.find(deploymentId);
    if (it == m_entries.end())
        return;
    withdraw(it.value());
    m_entries.erase(it);
    m_names.removeSite(deploymentId);
    Q_EMIT changed();
}

void MdnsAnnouncer::clear()
{
    Locker lock(m_poll);
    for (Entry &entry : m_entries)
        withdraw(entry);
    m_entries.clear();
    m_names.clear();
}

void MdnsAnnouncer::postStatus(bool announcing, const QString &notice)
{
    QMetaObject::invokeMethod(
        this,
        [this, announcing, notice, generation = m_generation.load()] {
            if (generation != m_generation.load())
                return; // from before a stop()
            m_announcing = announcing;
            if (notice == m_notice)
                return;
            m_notice = notice;
            if (!notice.isEmpty() && !m_noticeLogged) {
                m_noticeLogged = true; // said once: the dashboard keeps showing it
                qWarning("berth: %s", qUtf8Printable(notice));
            }
            Q_EMIT changed();
        },
        Qt::QueuedConnection);
}

} // namespace berth
