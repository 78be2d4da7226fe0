#pragma once

#include "core/error.h"

#include <QByteArray>
#include <QJsonObject>
#include <memory>

struct evp_pkey_st;

namespace berth {

// An ECDSA P-256 key (OpenSSL): the ACME account's, or a certificate's. Signs JWS ES256 and describes itself as a
// JWK. Copies share the key.
class AcmeKey
{
public:
    static Result<AcmeKey> generate();
    static Result<AcmeKey> fromPem(const QByteArray &pem);

    QByteArray privatePem() const; // PKCS#8, unencrypted: only ever written to a 0600 file
    QJsonObject jwk() const; // {"crv":"P-256","kty":"EC","x":...,"y":...}
    QByteArray thumbprint() const; // RFC 7638, base64url: the second half of every key authorization
    Result<QByteArray> signEs256(const QByteArray &data) const; // r and s, 32 bytes each (RFC 7518), not DER
    evp_pkey_st *handle() const { return m_key.get(); }

private:
    explicit AcmeKey(std::shared_ptr<evp_pkey_st> key);

    std::shared_ptr<evp_pkey_st> m_key;
};

QByteArray base64Url(const QByteArray &bytes); // without padding, as JOSE wants it

} // namespace berth
