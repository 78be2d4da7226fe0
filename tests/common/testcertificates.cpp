#include "testcertificates.h"

#include <QDir>
#include <QFile>
#include <QHostAddress>
#include <QProcess>

using namespace Qt::StringLiterals;

namespace berth::test {

namespace {

bool openssl(const QStringList &arguments, const QString &folder)
{
    QProcess process;
    process.setWorkingDirectory(folder);
    process.start(u"openssl"_s, arguments);
    if (!process.waitForFinished(60000) || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        qWarning("openssl %s failed: %s", qPrintable(arguments.join(u' ')), process.readAllStandardError().constData());
        return false;
    }
    return true;
}

} // namespace

bool TestCertificates::make(const QString &folder, const QStringList &names)
{
    const QDir dir(folder);
    caCert = dir.filePath(u"ca.pem"_s);
    serverCert = dir.filePath(u"server.pem"_s);
    serverKey = dir.filePath(u"server.key"_s);
    otherKey = dir.filePath(u"other.key"_s);
    QStringList san;
    for (const QString &name : names)
        san << (QHostAddress(name).isNull() ? u"DNS:"_s : u"IP:"_s) + name;
    san << u"IP:127.0.0.1"_s;
    QFile extensions(dir.filePath(u"server.ext"_s));
    if (!extensions.open(QIODevice::WriteOnly))
        return false;
    extensions.write("basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\n"
                     "extendedKeyUsage=serverAuth\nsubjectAltName="
        + san.join(u',').toUtf8() + '\n');
    extensions.close();
    // EC P-256 keys: quick to make, and what browsers prefer.
    const QStringList ecKey {
        u"genpkey"_s, u"-algorithm"_s, u"EC"_s, u"-pkeyopt"_s, u"ec_paramgen_curve:P-256"_s, u"-out"_s};
    if (!openssl(ecKey + QStringList {u"ca.key"_s}, folder) || !openssl(ecKey + QStringList {u"server.key"_s}, folder)
        || !openssl(ecKey + QStringList {u"other.key"_s}, folder))
        return false;
    if (!openssl({u"req"_s, u"-x509"_s, u"-new"_s, u"-key"_s, u"ca.key"_s, u"-sha256"_s, u"-days"_s, u"30"_s,
                     u"-subj"_s, u"/CN=Berth Test CA"_s, u"-out"_s, u"ca.pem"_s},
            folder))
        return false;
    if (!openssl({u"req"_s, u"-new"_s, u"-key"_s, u"server.key"_s, u"-subj"_s, u"/CN=localhost"_s, u"-out"_s,
                     u"server.csr"_s},
            folder))
        return false;
    if (!openssl({u"x509"_s, u"-req"_s, u"-in"_s, u"server.csr"_s, u"-CA"_s, u"ca.pem"_s, u"-CAkey"_s, u"ca.key"_s,
                     u"-CAcreateserial"_s, u"-days"_s, u"30"_s, u"-sha256"_s, u"-extfile"_s, u"server.ext"_s, u"-out"_s,
                     u"leaf.pem"_s},
            folder))
        return false;
    QFile leaf(dir.filePath(u"leaf.pem"_s));
    QFile ca(caCert);
    QFile chain(serverCert);
    if (!leaf.open(QIODevice::ReadOnly) || !ca.open(QIODevice::ReadOnly) || !chain.open(QIODevice::WriteOnly))
        return false;
    chain.write(leaf.readAll() + ca.readAll());
    return true;
}

} // namespace berth::test
