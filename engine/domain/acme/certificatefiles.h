#pragma once

#include "core/error.h"
#include "domain/acme/acmekey.h"

#include <QDateTime>
#include <QString>
#include <optional>

namespace berth {

struct StoredCertificate
{
    QByteArray chainPem;
    QByteArray keyPem;
    QDateTime notBefore; // UTC
    QDateTime expiresAt; // UTC
};

// The certificates folder of the data folder: the ACME account's key (account.key), the server's node.id, and per
// name NAME.pem (the chain) and NAME.key. Keys are 0600 in a 0700 folder. Every file is replaced whole (QSaveFile:
// written aside, then renamed), so a kill -9 leaves the old file or the new one, never a part; a key and chain that do
// not belong together (a kill between the two) are read as no certificate, and the name is ordered again.
class CertificateFiles
{
public:
    explicit CertificateFiles(QString folder);

    QString folder() const { return m_folder; }
    Result<AcmeKey> accountKey(); // made and stored on first use
    // This server's name among the servers of one database (node.id), made and stored on first use: a restarted
    // server is the same one, and takes back what it held.
    Result<QString> nodeId();
    Result<void> store(const QString &name, const QByteArray &chainPem, const QByteArray &keyPem);
    std::optional<StoredCertificate> load(const QString &name) const;
    // What the chain says about itself, or nullopt when it is no certificate.
    static std::optional<StoredCertificate> describe(const QByteArray &chainPem, const QByteArray &keyPem);

private:
    Result<void> makeFolder() const;
    Result<void> write(const QString &fileName, const QByteArray &bytes) const;
    QString path(const QString &fileName) const;

    QString m_folder;
};

} // namespace berth
