#include "domain/acme/tlsalpnchallenge.h"

#include "domain/acme/acmekey.h"

#include <QCryptographicHash>
#include <openssl/asn1.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
constexpr char kAcmeIdentifierOid[] = "1.3.6.1.5.5.7.1.31"; // id-pe-acmeIdentifier
constexpr long kValiditySeconds = 7 * 24 * 60 * 60; // the validator looks only at the extension

// The extension's value: the digest as a DER OCTET STRING.
bool addAcmeIdentifier(X509 *certificate, const QByteArray &keyAuthorization)
{
    const QByteArray digest = QCryptographicHash::hash(keyAuthorization, QCryptographicHash::Sha256);
    ASN1_OCTET_STRING *inner = ASN1_OCTET_STRING_new();
    ASN1_OCTET_STRING_set(inner, reinterpret_cast<const unsigned char *>(digest.constData()), int(digest.size()));
    unsigned char *der = nullptr;
    const int derSize = i2d_ASN1_OCTET_STRING(inner, &der);
    ASN1_OCTET_STRING_free(inner);
    ASN1_OCTET_STRING *value = ASN1_OCTET_STRING_new();
    ASN1_OCTET_STRING_set(value, der, derSize);
    OPENSSL_free(der);
    ASN1_OBJECT *oid = OBJ_txt2obj(kAcmeIdentifierOid, 1);
    X509_EXTENSION *extension = X509_EXTENSION_create_by_OBJ(nullptr, oid, 1, value);
    const bool added = extension && X509_add_ext(certificate, extension, -1) == 1;
    X509_EXTENSION_free(extension);
    ASN1_OBJECT_free(oid);
    ASN1_OCTET_STRING_free(value);
    return added;
}

bool addSubjectAltName(X509 *certificate, const QByteArray &name)
{
    X509V3_CTX context;
    X509V3_set_ctx(&context, certificate, certificate, nullptr, nullptr, 0);
    X509_EXTENSION *extension
        = X509V3_EXT_conf_nid(nullptr, &context, NID_subject_alt_name, QByteArray("DNS:" + name).constData());
    const bool added = extension && X509_add_ext(certificate, extension, -1) == 1;
    X509_EXTENSION_free(extension);
    return added;
}

QByteArray pemOf(X509 *certificate)
{
    BIO *bio = BIO_new(BIO_s_mem());
    PEM_write_bio_X509(bio, certificate);
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio, &data);
    QByteArray pem(data, int(size));
    BIO_free(bio);
    return pem;
}
} // namespace

Result<IssuedCertificate> tlsAlpnChallengeCertificate(const QString &name, const QByteArray &keyAuthorization)
{
    const Result<AcmeKey> key = AcmeKey::generate();
    if (!key)
        return key.error();
    const QByteArray ascii = name.toLatin1();
    X509 *certificate = X509_new();
    X509_NAME *subject = X509_get_subject_name(certificate);
    const bool made = X509_set_version(certificate, 2) == 1
        && ASN1_INTEGER_set(X509_get_serialNumber(certificate), 1) == 1
        && X509_gmtime_adj(X509_getm_notBefore(certificate), 0)
        && X509_gmtime_adj(X509_getm_notAfter(certificate), kValiditySeconds)
        && X509_NAME_add_entry_by_txt(
               subject, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char *>(ascii.constData()), -1, -1, 0)
            == 1
        && X509_set_issuer_name(certificate, subject) == 1 && X509_set_pubkey(certificate, key.value().handle()) == 1
        && addSubjectAltName(certificate, ascii) && addAcmeIdentifier(certificate, keyAuthorization)
        && X509_sign(certificate, key.value().handle(), EVP_sha256()) > 0;
    const QByteArray pem = made ? pemOf(certificate) : QByteArray();
    X509_free(certificate);
    if (pem.isEmpty())
        return Error {Error::Kind::Internal, u"Cannot make the TLS-ALPN-01 certificate"_s};
    return IssuedCertificate {pem, key.value().privatePem()};
}

} // namespace berth
