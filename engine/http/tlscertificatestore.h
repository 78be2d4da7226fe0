#pragma once

#include "core/error.h"
#include "http/tlscredentials.h"

#include <QByteArray>
#include <QHash>
#include <QMutex>
#include <QSslConfiguration>
#include <QStringList>
#include <memory>

namespace berth {

struct ClientHello;

// The certificates of one moment, never changed once published: what a handshake is given by the name it asks for.
struct TlsCertificateSet
{
    QSslConfiguration fallback; // the instance's own (--tls-cert): unknown names, and clients that name none
    QHash<QByteArray, QSslConfiguration> byName; // normalisedServerName() -> configuration; "*.x" covers one label
    QHash<QByteArray, QSslConfiguration> challenges; // ACME TLS-ALPN-01 answers, for hellos offering acme-tls/1

    // The name's own certificate, else a wildcard one for its parent, else the fallback.
    const QSslConfiguration &forHello(const ClientHello &hello) const;
};

// The server certificates of the HTTPS doors, picked per handshake by the client's SNI name. Serving threads read it
// without waiting: snapshot() is one atomic load of an immutable set. Changes (install, remove, setFallback) may
// come from any thread: each builds a new set off to the side and publishes it, so connections that are already
// encrypted keep what they had and new handshakes see the change. It lives as long as the HttpService using it.
class TlsCertificateStore
{
public:
    TlsCertificateStore();
    explicit TlsCertificateStore(const QSslConfiguration &fallback);
    Q_DISABLE_COPY_MOVE(TlsCertificateStore)

    std::shared_ptr<const TlsCertificateSet> snapshot() const;

    // The certificate for clients that name no known host (and that name none).
    void setFallback(const TlsCredentials &credentials);
    // Serves credentials (TlsCredentials::fromPem() or load()) to handshakes naming name: a host name, or
    // "*.example.org" for the names one label under it. It replaces the name's certificate, if any. BadRequest for
    // anything that is not such a name.
    Result<void> install(const QString &name, const TlsCredentials &credentials);
    // The name gets the fallback again (nothing happens if it had none of its own).
    void remove(const QString &name);
    // ACME TLS-ALPN-01: handshakes for name that offer acme-tls/1 get credentials (the challenge certificate, which
    // is given acme-tls/1 as its only protocol) until removeChallenge(name).
    Result<void> installChallenge(const QString &name, const TlsCredentials &credentials);
    void removeChallenge(const QString &name);

    QStringList names() const; // the names with a certificate of their own, sorted

private:
    // Builds the next set from the current one under the writers' lock and publishes it.
    template<class Change>
    void change(Change &&edit);

    mutable QMutex m_writers; // writers only; readers never take it
    std::shared_ptr<const TlsCertificateSet> m_current;
};

} // namespace berth
