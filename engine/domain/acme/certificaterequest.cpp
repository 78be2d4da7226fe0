#include "domain/acme/certificaterequest.h"

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
bool addSubjectAltName(X509_REQ *request, const QByteArray &name)
{
    X509_EXTENSION *extension
        = X509V3_EXT_conf_nid(nullptr, nullptr, NID_subject_alt_name, QByteArray("DNS:" + name).constData());
    if (!extension)
        return false;
    STACK_OF(X509_EXTENSION) *extensions = sk_X509_EXTENSION_new_null();
    sk_X509_EXTENSION_push(extensions, extension);
    const bool added = X509_REQ_add_extensions(request, extensions) == 1;
    sk_X509_EXTENSION_pop_free(extensions, X509_EXTENSION_free);
    return added;
}
} // namespace

Result<QByteArray> certificateRequest(const AcmeKey &key, const QString &name)
{
    const QByteArray ascii = name.toLatin1();
    X509_REQ *request = X509_REQ_new();
    X509_NAME *subject = X509_REQ_get_subject_name(request);
    bool made = X509_REQ_set_version(request, 0) == 1
        && X509_NAME_add_entry_by_txt(
               subject, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char *>(ascii.constData()), -1, -1, 0)
            == 1
        && addSubjectAltName(request, ascii) && X509_REQ_set_pubkey(request, key.handle()) == 1
        && X509_REQ_sign(request, key.handle(), EVP_sha256()) > 0;
    QByteArray der;
    if (made) {
        const int size = i2d_X509_REQ(request, nullptr);
        der.resize(size);
        auto *out = reinterpret_cast<unsigned char *>(der.data());
        made = size > 0 && i2d_X509_REQ(request, &out) == size;
    }
    X509_REQ_free(request);
    if (!made)
        return Error {Error::Kind::Internal, u"Cannot make a certificate request"_s};
    return der;
}

bool certificateMatchesKey(const QByteArray &chainPem, const AcmeKey &key)
{
    BIO *bio = BIO_new_mem_buf(chainPem.constData(), int(chainPem.size()));
    X509 *certificate = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr);
    BIO_free(bio);
    if (!certificate)
        return false;
    const bool matches = EVP_PKEY_eq(X509_get0_pubkey(certificate), key.handle()) == 1;
    X509_free(certificate);
    return matches;
}

} // namespace berth
