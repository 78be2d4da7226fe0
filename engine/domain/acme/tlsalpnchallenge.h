#pragma once

#include "core/error.h"
#include "domain/acme/acmeorder.h"

namespace berth {

// The certificate that answers a TLS-ALPN-01 challenge (RFC 8737): self-signed for the name, with a fresh key and the
// critical acmeIdentifier extension holding the SHA-256 of the key authorization. Served only to handshakes for the
// name that offer the acme-tls/1 protocol, while the order lasts.
Result<IssuedCertificate> tlsAlpnChallengeCertificate(const QString &name, const QByteArray &keyAuthorization);

} // namespace berth
