#include "certificatecheck.h"

#include <QEventLoop>
#include <QFile>
#include <QProcess>
#include <QSslCertificate>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace berth::test {

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

bool verifiesAgainst(const QByteArray &chainPem, const QByteArray &rootPem, const QString &folder)
{
    const QList<QSslCertificate> chain = QSslCertificate::fromData(chainPem);
    if (chain.size() < 2)
        return false;
    QByteArray intermediates;
    for (qsizetype i = 1; i < chain.size(); ++i)
        intermediates += chain.at(i).toPem();
    if (!writeFile(folder + u"/root.pem"_s, rootPem) || !writeFile(folder + u"/leaf.pem"_s, chain.first().toPem())
        || !writeFile(folder + u"/intermediates.pem"_s, intermediates))
        return false;
    QProcess openssl;
    openssl.setWorkingDirectory(folder);
    openssl.start(u"openssl"_s,
        {u"verify"_s, u"-CAfile"_s, u"root.pem"_s, u"-untrusted"_s, u"intermediates.pem"_s, u"leaf.pem"_s});
    openssl.waitForFinished();
    return openssl.exitCode() == 0 && openssl.readAllStandardOutput().contains("leaf.pem: OK");
}

CurlOutcome curlHttps(const QString &name, const QString &address, quint16 port, const QString &rootFile)
{
    QProcess curl;
    // The event loop runs meanwhile: a server in this process may need its engine's thread (this one) to answer.
    QEventLoop loop;
    QObject::connect(&curl, &QProcess::finished, &loop, &QEventLoop::quit);
    QObject::connect(&curl, &QProcess::errorOccurred, &loop, &QEventLoop::quit);
    QTimer::singleShot(20 * 1000, &loop, &QEventLoop::quit);
    curl.start(u"curl"_s,
        {u"-sS"_s, u"--max-time"_s, u"10"_s, u"--resolve"_s, u"%1:%2:%3"_s.arg(name).arg(port).arg(address),
            u"--cacert"_s, rootFile, u"https://%1:%2/"_s.arg(name).arg(port)});
    if (curl.state() != QProcess::NotRunning)
        loop.exec();
    if (curl.state() != QProcess::NotRunning) {
        curl.kill(); // our own child, by its process id
        curl.waitForFinished();
        return {};
    }
    return {curl.exitStatus() == QProcess::NormalExit ? curl.exitCode() : -1, curl.readAllStandardOutput(),
        curl.readAllStandardError()};
}

} // namespace berth::test
