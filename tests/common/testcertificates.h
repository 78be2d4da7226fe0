#pragma once

#include <QString>
#include <QStringList>

namespace berth::test {

// A certificate authority and a server certificate it signed, made with the openssl command in a folder of the
// test's own: what an owner does to serve HTTPS on a LAN (docs/configuration.md), here for localhost names.
struct TestCertificates
{
    QString caCert; // PEM: what clients trust (curl --cacert)
    QString serverCert; // PEM: the server certificate, then the CA's (a chain)
    QString serverKey; // PEM, unencrypted
    QString otherKey; // PEM: a key that belongs to no certificate here (a mismatch)

    // names: the server certificate's DNS names (subject alternative names), or IP addresses ("127.0.0.2", a LAN
    // address); 127.0.0.1 is always added.
    // False (with a warning) when openssl is missing or fails.
    bool make(const QString &folder, const QStringList &names);
};

} // namespace berth::test
