#include "domain/acme/certificatefiles.h"

#include "domain/acme/certificaterequest.h"
#include "domain/common/randomid.h"

#include <QDir>
#include <QFile>
#include <QSaveFile>
#include <QSslCertificate>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
const QString kAccountKey = u"account.key"_s;
const QString kNodeId = u"node.id"_s;
constexpr QFileDevice::Permissions kOwnerOnly = QFileDevice::ReadOwner | QFileDevice::WriteOwner;

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

Error storageError(const QString &what)
{
    // The path stays in the log: answers and statuses name no server paths.
    return Error {Error::Kind::Internal, what};
}
} // namespace

CertificateFiles::CertificateFiles(QString folder)
    : m_folder(std::move(folder))
{
}

QString CertificateFiles::path(const QString &fileName) const
{
    return QDir(m_folder).filePath(fileName);
}

Result<void> CertificateFiles::makeFolder() const
{
    if (!QDir().mkpath(m_folder)) {
        qWarning().noquote() << "acme: cannot create" << m_folder;
        return storageError(u"Cannot create the certificates folder"_s);
    }
    QFile::setPermissions(m_folder, kOwnerOnly | QFileDevice::ExeOwner);
    return {};
}

Result<void> CertificateFiles::write(const QString &fileName, const QByteArray &bytes) const
{
    if (Result<void> made = makeFolder(); !made)
        return made;
    QSaveFile file(path(fileName));
    // Owner-only before the first byte: the key is never readable by others, not even while it is written.
    const bool written = file.open(QIODevice::WriteOnly) && file.setPermissions(kOwnerOnly)
        && file.write(bytes) == bytes.size() && file.commit();
    if (!written) {
        qWarning().noquote() << "acme: cannot write" << path(fileName) << file.errorString();
        return storageError(u"Cannot store a certificate file"_s);
    }
    return {};
}

Result<AcmeKey> CertificateFiles::accountKey()
{
    if (const QByteArray pem = readAll(path(kAccountKey)); !pem.isEmpty())
        return AcmeKey::fromPem(pem);
    Result<AcmeKey> key = AcmeKey::generate();
    if (!key)
        return key;
    if (Result<void> stored = write(kAccountKey, key.value().privatePem()); !stored)
        return stored.error();
    return key;
}

Result<QString> CertificateFiles::nodeId()
{
    if (const QByteArray id = readAll(path(kNodeId)).trimmed(); !id.isEmpty())
        return QString::fromLatin1(id);
    const QString id = RandomId::make(u"node_");
    if (Result<void> stored = write(kNodeId, id.toLatin1()); !stored)
        return stored.error();
    return id;
}

Result<void> CertificateFiles::store(const QString &name, const QByteArray &chainPem, const QByteArray &keyPem)
{
    // The key first: a kill before the chain leaves the old chain with a key it does not match, read as none.
    if (Result<void> key = write(name + u".key"_s, keyPem); !key)
        return key;
    return write(name + u".pem"_s, chainPem);
}

std::optional<StoredCertificate> CertificateFiles::load(const QString &name) const
{
    return describe(readAll(path(name + u".pem"_s)), readAll(path(name + u".key"_s)));
}

std::optional<StoredCertificate> CertificateFiles::describe(const QByteArray &chainPem, const QByteArray &keyPem)
{
    const QList<QSslCertificate> chain = QSslCertificate::fromData(chainPem, QSsl::Pem);
    const Result<AcmeKey> key = AcmeKey::fromPem(keyPem);
    if (chain.isEmpty() || !key || !certificateMatchesKey(chainPem, key.value()))
        return std::nullopt;
    return StoredCertificate {
        chainPem, keyPem, chain.first().effectiveDate().toUTC(), chain.first().expiryDate().toUTC()};
}

} // namespace berth
