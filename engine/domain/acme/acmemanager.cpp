#include "domain/acme/acmemanager.h"

#include "domain/acme/acmecluster.h"
#include "domain/acme/acmeorder.h"
#include "domain/common/clock.h"

#include <QDir>
#include <QHostAddress>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
constexpr int kMaxNameLength = 253;

// Renewal is due two thirds into the certificate's life, as Let's Encrypt advises (day 60 of 90).
QDateTime renewalTime(const StoredCertificate &certificate)
{
    const qint64 life = certificate.notBefore.msecsTo(certificate.expiresAt);
    return certificate.notBefore.addMSecs(life * 2 / 3);
}
} // namespace

QString CertificateStatus::stateName(State state)
{
    switch (state) {
    case State::None:
        return u"none"_s;
    case State::Pending:
        return u"pending"_s;
    case State::Active:
        return u"active"_s;
    case State::Failed:
        return u"failed"_s;
    }
    return u"none"_s;
}

AcmeManager::AcmeManager(AcmeSettings settings, const QString &dataDir, const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_settings(std::move(settings))
    , m_clock(clock)
    , m_files(QDir(dataDir).filePath(u"certificates"_s))
{
    connect(&m_timer, &QTimer::timeout, this, &AcmeManager::check);
}

AcmeManager::~AcmeManager()
{
    // Whoever listens may be gone already (the engine's TLS store): nobody is told about the order's end.
    disconnect(this, nullptr, nullptr, nullptr);
    delete m_order.data(); // its tokens go with it
}

bool AcmeManager::isOrderableName(const QString &name)
{
    // A host name in its ASCII form: it is also a file name in the certificates folder, so nothing else gets through.
    static const QRegularExpression hostName(u"^(?!-)[a-z0-9-]{1,63}(?<!-)(\\.(?!-)[a-z0-9-]{1,63}(?<!-))+$"_s);
    return name.size() <= kMaxNameLength && hostName.match(name).hasMatch() && QHostAddress(name).isNull();
}

void AcmeManager::start()
{
    m_started = true; // the names' kept certificates were read as the names were given
    m_timer.start(m_settings.checkIntervalMs);
    check();
}

void AcmeManager::stop()
{
    m_started = false;
    m_timer.stop();
    delete m_order.data();
}

void AcmeManager::setNames(const QStringList &names)
{
    QStringList kept;
    for (const QString &name : names) {
        if (isOrderableName(name) && !kept.contains(name))
            kept.append(name);
    }
    for (const QString &name : std::as_const(m_names)) {
        if (!kept.contains(name))
            m_entries.remove(name);
    }
    if (m_order && !kept.contains(m_orderName))
        delete m_order.data();
    for (const QString &name : std::as_const(kept)) {
        if (m_entries.contains(name))
            continue;
        m_entries.insert(name, {});
        if (const auto stored = m_files.load(name))
            hold(name, *stored);
        if (m_cluster)
            mirror(name); // what another server obtained, or is obtaining
    }
    m_names = kept;
    if (m_started)
        check();
}

CertificateStatus AcmeManager::status(const QString &name) const
{
    return m_entries.value(name).status;
}

bool AcmeManager::isDue(const Entry &entry, const QDateTime &now) const
{
    switch (entry.status.state) {
    case CertificateStatus::State::None:
        return true;
    case CertificateStatus::State::Pending:
        // Another server's order whose lease ran out (it stopped in the middle) is taken over.
        return !entry.orderingHere && entry.elsewhereUntil.isValid() && entry.elsewhereUntil <= now;
    case CertificateStatus::State::Active:
        return entry.renewAt <= now;
    case CertificateStatus::State::Failed:
        return entry.status.nextAttemptAt <= now;
    }
    return false;
}

void AcmeManager::check()
{
    if (!m_started || m_order)
        return;
    const QDateTime now = m_clock.now();
    if (m_cluster) {
        // Also what notifications lost while the connection was down would have said.
        for (const QString &name : std::as_const(m_names))
            mirror(name);
    }
    for (const QString &name : std::as_const(m_names)) {
        if (isDue(m_entries.value(name), now) && mayOrder(name))
            return order(name);
    }
}

void AcmeManager::order(const QString &name)
{
    Result<AcmeKey> account = m_files.accountKey();
    if (!account)
        return failed(name, account.error().message);
    Entry &entry = m_entries[name];
    const CertificateStatus::State before = entry.status.state;
    entry.status.state = CertificateStatus::State::Pending;
    entry.status.nextAttemptAt = {};
    entry.orderingHere = true;
    if (before != CertificateStatus::State::Active)
        entry.status.error.clear();
    Q_EMIT statusChanged(name);
    m_orderName = name;
    m_order = new AcmeOrder(
        name, m_settings, account.value(), m_challenges,
        [this, name](Result<IssuedCertificate> result) { ordered(name, std::move(result)); }, this);
    m_order->setTlsChallenge([this](const QString &challenged, const IssuedCertificate *certificate) {
        if (certificate)
            Q_EMIT tlsChallengeReady(challenged, certificate->chainPem, certificate->keyPem);
        else
            Q_EMIT tlsChallengeDone(challenged);
    });
    m_order->start();
}

void AcmeManager::ordered(const QString &name, Result<IssuedCertificate> result)
{
    // Not deleted here: the order is still on the stack that called us.
    if (m_order)
        m_order->deleteLater();
    m_order.clear();
    if (!m_entries.contains(name))
        return; // dropped meanwhile
    m_entries[name].orderingHere = false;
    if (!result)
        return failed(name, result.error().message);
    const IssuedCertificate &issued = result.value();
    const auto certificate = CertificateFiles::describe(issued.chainPem, issued.keyPem);
    if (!certificate)
        return failed(name, u"The ACME server sent a certificate that does not match the request"_s);
    if (Result<void> stored = m_files.store(name, issued.chainPem, issued.keyPem); !stored)
        return failed(name, stored.error().message);
    qInfo().noquote() << "acme: certificate for" << name << "until" << isoTimestamp(certificate->expiresAt);
    hold(name, *certificate);
    share(name, &*certificate);
    QTimer::singleShot(0, this, &AcmeManager::check); // the next name due, if any
}

void AcmeManager::hold(const QString &name, const StoredCertificate &certificate)
{
    Entry &entry = m_entries[name];
    entry.status.state = CertificateStatus::State::Active;
    entry.status.expiresAt = certificate.expiresAt;
    entry.status.error.clear();
    entry.status.nextAttemptAt = {};
    entry.renewAt = renewalTime(certificate);
    entry.failures = 0;
    Q_EMIT certificateReady(name, certificate.chainPem, certificate.keyPem);
    Q_EMIT statusChanged(name);
}

void AcmeManager::failed(const QString &name, const QString &error)
{
    Entry &entry = m_entries[name];
    const int doublings = qMin(entry.failures, 30);
    const qint64 delay = qMin(qint64(m_settings.retryBaseSeconds) << doublings, qint64(m_settings.retryMaxSeconds));
    ++entry.failures;
    entry.status.error = error;
    entry.status.nextAttemptAt = m_clock.now().addSecs(delay);
    // A certificate still held keeps being served until it expires; its renewal is what failed.
    const bool stillValid = entry.status.expiresAt.isValid() && entry.status.expiresAt > m_clock.now();
    entry.status.state = stillValid ? CertificateStatus::State::Active : CertificateStatus::State::Failed;
    if (stillValid)
        entry.renewAt = entry.status.nextAttemptAt;
    entry.orderingHere = false;
    qWarning().noquote() << "acme:" << name << error << "- next attempt at" << isoTimestamp(entry.status.nextAttemptAt);
    share(name, nullptr);
    Q_EMIT statusChanged(name);
    QTimer::singleShot(0, this, &AcmeManager::check);
}

} // namespace berth
