#include "domain/acme/acmekey.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
constexpr int kCoordinateBytes = 32; // P-256

std::shared_ptr<EVP_PKEY> owned(EVP_PKEY *key)
{
    return std::shared_ptr<EVP_PKEY>(key, EVP_PKEY_free);
}

Error keyError(const QString &what)
{
    return Error {Error::Kind::Internal, what};
}

QByteArray coordinate(EVP_PKEY *key, const char *name)
{
    BIGNUM *number = nullptr;
    if (EVP_PKEY_get_bn_param(key, name, &number) != 1)
        return {};
    QByteArray bytes(kCoordinateBytes, '\0');
    BN_bn2binpad(number, reinterpret_cast<unsigned char *>(bytes.data()), kCoordinateBytes);
    BN_free(number);
    return bytes;
}
} // namespace

QByteArray base64Url(const QByteArray &bytes)
{
    return bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

AcmeKey::AcmeKey(std::shared_ptr<evp_pkey_st> key)
    : m_key(std::move(key))
{
}

Result<AcmeKey> AcmeKey::generate()
{
    EVP_PKEY *key = EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256");
    if (!key)
        return keyError(u"Cannot generate a key"_s);
    return AcmeKey(owned(key));
}

Result<AcmeKey> AcmeKey::fromPem(const QByteArray &pem)
{
    BIO *bio = BIO_new_mem_buf(pem.constData(), int(pem.size()));
    EVP_PKEY *key = PEM_read_bio_PrivateKey(bio, nullptr, nullptr, nullptr);
    BIO_free(bio);
    if (!key)
        return keyError(u"Not a PEM private key"_s);
    auto result = AcmeKey(owned(key));
    if (EVP_PKEY_get_base_id(key) != EVP_PKEY_EC || EVP_PKEY_get_bits(key) != 256)
        return keyError(u"Not a P-256 key"_s);
    return result;
}

QByteArray AcmeKey::privatePem() const
{
    BIO *bio = BIO_new(BIO_s_mem());
    PEM_write_bio_PrivateKey(bio, m_key.get(), nullptr, nullptr, 0, nullptr, nullptr);
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio, &data);
    QByteArray pem(data, int(size));
    BIO_free(bio);
    return pem;
}

QJsonObject AcmeKey::jwk() const
{
    return {{u"crv"_s, u"P-256"_s}, {u"kty"_s, u"EC"_s},
        {u"x"_s, QString::fromLatin1(base64Url(coordinate(m_key.get(), OSSL_PKEY_PARAM_EC_PUB_X)))},
        {u"y"_s, QString::fromLatin1(base64Url(coordinate(m_key.get(), OSSL_PKEY_PARAM_EC_PUB_Y)))}};
}

QByteArray AcmeKey::thumbprint() const
{
    // QJsonDocument writes keys sorted and without spaces: exactly RFC 7638's canonical form for these members.
    const QByteArray canonical = QJsonDocument(jwk()).toJson(QJsonDocument::Compact);
    return base64Url(QCryptographicHash::hash(canonical, QCryptographicHash::Sha256));
}

Result<QByteArray> AcmeKey::signEs256(const QByteArray &data) const
{
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    size_t size = 0;
    QByteArray der;
    bool signedOk = EVP_DigestSignInit(context, nullptr, EVP_sha256(), nullptr, m_key.get()) == 1
        && EVP_DigestSign(
               context, nullptr, &size, reinterpret_cast<const unsigned char *>(data.constData()), size_t(data.size()))
            == 1;
    if (signedOk) {
        der.resize(qsizetype(size));
        signedOk = EVP_DigestSign(context, reinterpret_cast<unsigned char *>(der.data()), &size,
                       reinterpret_cast<const unsigned char *>(data.constData()), size_t(data.size()))
            == 1;
        der.resize(qsizetype(size));
    }
    EVP_MD_CTX_free(context);
    if (!signedOk)
        return keyError(u"Cannot sign"_s);

    // OpenSSL gives DER; JWS wants the two numbers side by side.
    const auto *cursor = reinterpret_cast<const unsigned char *>(der.constData());
    ECDSA_SIG *signature = d2i_ECDSA_SIG(nullptr, &cursor, long(der.size()));
    if (!signature)
        return keyError(u"Cannot sign"_s);
    QByteArray raw(2 * kCoordinateBytes, '\0');
    auto *out = reinterpret_cast<unsigned char *>(raw.data());
    BN_bn2binpad(ECDSA_SIG_get0_r(signature), out, kCoordinateBytes);
    BN_bn2binpad(ECDSA_SIG_get0_s(signature), out + kCoordinateBytes, kCoordinateBytes);
    ECDSA_SIG_free(signature);
    return raw;
}

} // namespace berth
