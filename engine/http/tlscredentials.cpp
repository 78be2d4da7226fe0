#include "http/tlscredentials.h"

#include <QDateTime>
#include <QFile>
#include <QSslCertificate>
#include <QSslKey>
#include <memory>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

Error refused(const QString &message)
{
    return {Error::Kind::BadRequest, message};
}

Result<QByteArray> readFile(const QString &path, const QString &what)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return refused(u"Cannot read the TLS %1 file %2: %3"_s.arg(what, path, file.errorString()));
    const QByteArray bytes = file.read(1 << 20); // PEM files are a few KB; nothing larger is a certificate
    if (bytes.isEmpty())
        return refused(u"The TLS %1 file %2 is empty"_s.arg(what, path));
    return bytes;
}

// No passphrase prompt on the terminal: an encrypted key is refused instead.
int noPassphrase(char *, int, int, void *)
{
    return -1;
}

// Qt only finds out at a client's handshake that a key does not match its certificate; OpenSSL says so now.
Result<void> keyMatchesCertificate(const QByteArray &certPem, const QByteArray &keyPem)
{
    const auto bio = [](const QByteArray &bytes) {
        return std::unique_ptr<BIO, decltype(&BIO_free)>(
            BIO_new_mem_buf(bytes.constData(), int(bytes.size())), &BIO_free);
    };
    auto certBio = bio(certPem);
    auto keyBio = bio(keyPem);
    std::unique_ptr<X509, decltype(&X509_free)> cert(
        PEM_read_bio_X509(certBio.get(), nullptr, nullptr, nullptr), &X509_free);
    std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(
        PEM_read_bio_PrivateKey(keyBio.get(), nullptr, &noPassphrase, nullptr), &EVP_PKEY_free);
    ERR_clear_error();
    if (!cert || !key) {
        return refused(cert ? u"The TLS key file holds no usable private key (it must be PEM and not encrypted)"_s
                            : u"The TLS certificate file holds no PEM certificate"_s);
    }
    if (X509_check_private_key(cert.get(), key.get()) != 1) {
        ERR_clear_error();
        return refused(u"The TLS key does not belong to the certificate (the first one in the certificate file)"_s);
    }
    return {};
}

} // namespace

Result<TlsCredentials> TlsCredentials::load(const QString &certFile, const QString &keyFile)
{
    const Result<QByteArray> certRead = readFile(certFile, u"certificate"_s);
    if (!certRead)
        return certRead.error();
    const Result<QByteArray> keyRead = readFile(keyFile, u"key"_s);
    if (!keyRead)
        return keyRead.error();
    Result<TlsCredentials> credentials = fromPem(certRead.value(), keyRead.value());
    if (!credentials)
        return refused(u"%1 (%2, %3)"_s.arg(credentials.error().message, certFile, keyFile));
    return credentials;
}

Result<TlsCredentials> TlsCredentials::fromPem(const QByteArray &certPem, const QByteArray &keyPem)
{
    if (const Result<void> matching = keyMatchesCertificate(certPem, keyPem); !matching)
        return matching.error();

    const QList<QSslCertificate> chain = QSslCertificate::fromData(certPem, QSsl::Pem);
    QSslKey key;
    for (const QSsl::KeyAlgorithm algorithm : {QSsl::Rsa, QSsl::Ec, QSsl::Dsa}) {
        key = QSslKey(keyPem, algorithm, QSsl::Pem, QSsl::PrivateKey);
        if (!key.isNull())
            break;
    }
    if (chain.isEmpty() || key.isNull())
        return refused(u"The TLS certificate or key cannot be used; RSA and EC keys in PEM work"_s);
    const QDateTime now = QDateTime::currentDateTimeUtc();
    if (chain.first().expiryDate() < now)
        qWarning("berth: the TLS certificate for %s expired on %s; browsers will refuse it",
            qPrintable(chain.first().subjectInfo(QSslCertificate::CommonName).join(u", "_s)),
            qPrintable(chain.first().expiryDate().toString(Qt::ISODate)));

    TlsCredentials credentials;
    QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
    configuration.setLocalCertificateChain(chain);
    configuration.setPrivateKey(key);
    configuration.setProtocol(QSsl::TlsV1_2OrLater);
    configuration.setPeerVerifyMode(QSslSocket::VerifyNone); // visitors have no client certificates
    // HTTP/1.1 only: the front door speaks nothing else (a client told h2 would break). http/1.0 as well, for a client
    // that offers only that (curl -0): with no protocol in common the server would name one the client never offered,
    // which it refuses as a bad extension.
    configuration.setAllowedNextProtocols({QByteArrayLiteral("http/1.1"), QByteArrayLiteral("http/1.0")});
    credentials.configuration = configuration;
    return credentials;
}

QStringList TlsCredentials::names() const
{
    const QSslCertificate certificate = configuration.localCertificate();
    QStringList names = certificate.subjectAlternativeNames().values(QSsl::DnsEntry);
    if (names.isEmpty())
        names = certificate.subjectInfo(QSslCertificate::CommonName);
    return names;
}

} // namespace berth
