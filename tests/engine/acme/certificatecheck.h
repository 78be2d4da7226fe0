#pragma once

#include <QByteArray>
#include <QString>

namespace berth::test {

QByteArray readFile(const QString &path); // empty when it cannot be read
bool writeFile(const QString &path, const QByteArray &bytes);
// `openssl verify` of a chain's first certificate against a root, the rest of the chain as intermediates; folder
// holds the files openssl is given.
bool verifiesAgainst(const QByteArray &chainPem, const QByteArray &rootPem, const QString &folder);

struct CurlOutcome
{
    int exitCode = -1; // curl's: 0 fetched, 35 a failed handshake, 28 a timeout
    QByteArray out;
    QByteArray err;
};
// GET https://name:port/ as an outside client sees it: curl with the name resolved to address, trusting only the PEM
// rootFile, given at most 10 seconds.
CurlOutcome curlHttps(const QString &name, const QString &address, quint16 port, const QString &rootFile);

} // namespace berth::test
