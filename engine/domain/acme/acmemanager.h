#pragma once

#include "domain/acme/acmechallenges.h"
#include "domain/acme/acmesettings.h"
#include "domain/acme/certificatefiles.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QTimer>
#include <memory>

namespace berth {

class AcmeCluster;
class AcmeOrder;
class Database;
struct IssuedCertificate;
class Clock;

// A name's certificate as the API and the dashboard show it.
struct CertificateStatus
{
    enum class State
    {
        None, // not ordered (yet)
        Pending, // an order is under way
        Active, // a certificate is held and served
        Failed, // the last order failed: error says why; retried with backoff
    };
    State state = State::None;
    QDateTime expiresAt; // of the certificate held, if any (UTC)
    QString error; // why the last order failed
    QDateTime nextAttemptAt; // after a failure: when the order is tried again

    static QString stateName(State state); // "none", "pending", "active", "failed"
};

// Certificates that arrive by themselves, on the engine's thread: for each name it is given, a certificate held in
// the data folder, ordered when missing, renewed when two thirds of its life have passed, retried with exponential
// backoff after a failure. Time comes from the clock; check() (every AcmeSettings::checkIntervalMs) looks at every
// name. One order at a time. Never requests a name it was not given. On a PostgreSQL database shared by several
// servers (shareThrough), one server orders a name at a time and every one serves what it obtained.
class AcmeManager final : public QObject
{
    Q_OBJECT

public:
    AcmeManager(AcmeSettings settings, const QString &dataDir, const Clock &clock, QObject *parent = nullptr);
    ~AcmeManager() override;
    Q_DISABLE_COPY_MOVE(AcmeManager)

    // PostgreSQL (nothing on SQLite): share the names' certificates, their state and the challenges' answers with the
    // other servers of the database: a name is ordered by the server that holds its lease, its certificate is stored
    // in the database, and every server installs it (certificateReady) when told of the change. Before start().
    Result<void> shareThrough(Database &db);
    // Starts checking. A certificate kept from the last run is read (certificateReady) when its name is given.
    void start();
    void stop();
    // The names to hold certificates for (host names, ASCII, lower case); names not valid as such are left out. A name
    // dropped loses its order in flight; its files stay.
    void setNames(const QStringList &names);
    QStringList names() const { return m_names; }
    CertificateStatus status(const QString &name) const;
    const AcmeChallenges &challenges() const { return m_challenges; }
    QString folder() const { return m_files.folder(); }
    // Orders what is due now (the timer calls it; tests after moving the clock).
    void check();

    static bool isOrderableName(const QString &name);

Q_SIGNALS:
    // A certificate for the name, new or read at start: for the TLS listener to serve to new connections.
    void certificateReady(const QString &name, const QByteArray &chainPem, const QByteArray &keyPem);
    void statusChanged(const QString &name);
    // TLS-ALPN-01: while an order waits, this certificate answers acme-tls/1 handshakes for the name.
    void tlsChallengeReady(const QString &name, const QByteArray &chainPem, const QByteArray &keyPem);
    void tlsChallengeDone(const QString &name);

private:
    struct Entry
    {
        CertificateStatus status;
        QDateTime renewAt; // two thirds into the certificate's life
        int failures = 0;
        bool orderingHere = false; // this server's order is in flight
        QDateTime elsewhereUntil; // pending elsewhere: when that server's lease runs out
    };
    bool isDue(const Entry &entry, const QDateTime &now) const;
    // Shared names (acmemanagercluster.cpp): the database's row into the entry, and the lease before an order.
    void mirror(const QString &name);
    bool mayOrder(const QString &name);
    void share(const QString &name, const StoredCertificate *issued);
    void order(const QString &name);
    void ordered(const QString &name, Result<IssuedCertificate> result);
    void hold(const QString &name, const StoredCertificate &certificate);
    void failed(const QString &name, const QString &error);

    const AcmeSettings m_settings;
    const Clock &m_clock;
    CertificateFiles m_files;
    AcmeChallenges m_challenges;
    QStringList m_names;
    QHash<QString, Entry> m_entries;
    QPointer<AcmeOrder> m_order; // the one in flight
    QString m_orderName;
    QTimer m_timer;
    bool m_started = false;
    std::unique_ptr<AcmeCluster> m_cluster; // shared with other servers; null on one's own
};

} // namespace berth
