#include "http/tlscertificatestore.h"

#include "http/clienthello.h"

#include <QMutexLocker>
#include <algorithm>
#include <atomic>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

Result<QByteArray> certificateName(const QString &name)
{
    const QByteArray normalised = normalisedServerName(name.toLatin1(), true);
    if (normalised.isEmpty()) // a character outside Latin-1 became '?', which no host name holds
        return Error {Error::Kind::BadRequest, u"Not a host name for a certificate: %1"_s.arg(name)};
    return normalised;
}

} // namespace

const QSslConfiguration &TlsCertificateSet::forHello(const ClientHello &hello) const
{
    const QByteArray &name = hello.serverName;
    if (name.isEmpty())
        return fallback;
    if (hello.offersAcmeTls) {
        if (const auto challenge = challenges.constFind(name); challenge != challenges.cend())
            return *challenge;
    }
    if (const auto own = byName.constFind(name); own != byName.cend())
        return *own;
    if (const qsizetype dot = name.indexOf('.'); dot > 0) {
        const QByteArray wildcard = "*" + name.mid(dot);
        if (const auto covering = byName.constFind(wildcard); covering != byName.cend())
            return *covering;
    }
    return fallback;
}

TlsCertificateStore::TlsCertificateStore()
    : m_current(std::make_shared<const TlsCertificateSet>())
{
}

TlsCertificateStore::TlsCertificateStore(const QSslConfiguration &fallback)
    : m_current(std::make_shared<const TlsCertificateSet>(TlsCertificateSet {fallback, {}, {}}))
{
}

std::shared_ptr<const TlsCertificateSet> TlsCertificateStore::snapshot() const
{
    return std::atomic_load_explicit(&m_current, std::memory_order_acquire);
}

template<class Change>
void TlsCertificateStore::change(Change &&edit)
{
    const QMutexLocker locker(&m_writers);
    auto next = std::make_shared<TlsCertificateSet>(*m_current);
    edit(*next);
    std::atomic_store_explicit(
        &m_current, std::shared_ptr<const TlsCertificateSet>(std::move(next)), std::memory_order_release);
}

void TlsCertificateStore::setFallback(const TlsCredentials &credentials)
{
    change([&](TlsCertificateSet &set) { set.fallback = credentials.configuration; });
}

Result<void> TlsCertificateStore::install(const QString &name, const TlsCredentials &credentials)
{
    const Result<QByteArray> key = certificateName(name);
    if (!key)
        return key.error();
    change([&](TlsCertificateSet &set) { set.byName.insert(key.value(), credentials.configuration); });
    return {};
}

void TlsCertificateStore::remove(const QString &name)
{
    if (const Result<QByteArray> key = certificateName(name); key)
        change([&](TlsCertificateSet &set) { set.byName.remove(key.value()); });
}

Result<void> TlsCertificateStore::installChallenge(const QString &name, const TlsCredentials &credentials)
{
    const Result<QByteArray> key = certificateName(name);
    if (!key)
        return key.error();
    QSslConfiguration configuration = credentials.configuration;
    configuration.setAllowedNextProtocols({QByteArrayLiteral("acme-tls/1")});
    change([&](TlsCertificateSet &set) { set.challenges.insert(key.value(), configuration); });
    return {};
}

void TlsCertificateStore::removeChallenge(const QString &name)
{
    if (const Result<QByteArray> key = certificateName(name); key)
        change([&](TlsCertificateSet &set) { set.challenges.remove(key.value()); });
}

QStringList TlsCertificateStore::names() const
{
    QStringList names;
    for (const QByteArray &name : snapshot()->byName.keys())
        names.append(QString::fromLatin1(name));
    std::sort(names.begin(), names.end());
    return names;
}

} // namespace berth
