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

namespace berth {

class AcmeOrder;
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
// name. One order at a time. Never requests a name it was not given.
class AcmeManager final : public QObject
{
    Q_OBJECT

public:
    AcmeManager(AcmeSettings settings, const QString &dataDir, const Clock &clock, QObject *parent = nullptr);
    ~AcmeManager() override;
    Q_DISABLE_COPY_MOVE(AcmeManager)

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
    };
    bool isDue(const Entry &entry, const QDateTime &now) const;
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
};

} // namespace berth
