#pragma once

#include "core/error.h"

#include <QSslConfiguration>
#include <QString>
#include <QStringList>

namespace berth {

// A server certificate and its private key, read from PEM files for HTTPS (berthd serve --tls-cert/--tls-key).
// Everything that would only fail later, at a client's handshake, is checked when the files are loaded: files that
// cannot be read, no certificate, a key that is encrypted or not PEM, a key that does not belong to the certificate.
struct TlsCredentials
{
    QSslConfiguration configuration; // server side: the chain, the key, TLS 1.2 or later, HTTP/1.1 only

    // certFile holds the server certificate first, then any intermediates; keyFile the unencrypted private key
    // (RSA or EC). A failure is BadRequest, in words for the person who passed the files (it names them).
    static Result<TlsCredentials> load(const QString &certFile, const QString &keyFile);
    // The same from PEM bytes in memory (a certificate obtained at runtime); the words name no files.
    static Result<TlsCredentials> fromPem(const QByteArray &certPem, const QByteArray &keyPem);

    bool isNull() const { return configuration.localCertificate().isNull(); }
    QStringList names() const; // the names the certificate covers (DNS subject alternative names, else its CN)
};

} // namespace berth
