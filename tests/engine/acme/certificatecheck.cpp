#include "certificatecheck.h"

#include <QFile>
#include <QProcess>
#include <QSslCertificate>

using namespace Qt::StringLiterals;

namespace berth::test {

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool verifiesAgainst(const QByteArray &chainPem, const QByteArray &rootPem, const QString &folder)
{
    const QList<QSslCertificate> chain = QSslCertificate::fromData(chainPem);
    if (chain.size() < 2)
        return false;
    const auto write = [&](const QString &name, const QByteArray &bytes) {
        QFile file(folder + u'/' + name);
        return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
    };
    QByteArray intermediates;
    for (qsizetype i = 1; i < chain.size(); ++i)
        intermediates += chain.at(i).toPem();
    if (!write(u"root.pem"_s, rootPem) || !write(u"leaf.pem"_s, chain.first().toPem())
        || !write(u"intermediates.pem"_s, intermediates))
        return false;
    QProcess openssl;
    openssl.setWorkingDirectory(folder);
    openssl.start(u"openssl"_s,
        {u"verify"_s, u"-CAfile"_s, u"root.pem"_s, u"-untrusted"_s, u"intermediates.pem"_s, u"leaf.pem"_s});
    openssl.waitForFinished();
    return openssl.exitCode() == 0 && openssl.readAllStandardOutput().contains("leaf.pem: OK");
}
} // namespace berth::test
