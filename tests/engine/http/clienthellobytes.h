#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace berth::test {

// TLS ClientHello bytes for the SNI tests: made by hand (any field can be wrong on purpose), or the real first
// record of a QSslSocket's handshake.
namespace ClientHelloBytes {

QByteArray u16(int value);
QByteArray u24(int value);
QByteArray vector8(const QByteArray &contents);
QByteArray vector16(const QByteArray &contents);

// One extension: its type and its data.
QByteArray extension(int type, const QByteArray &data);
QByteArray serverName(const QByteArray &name); // the server_name extension with one host_name
QByteArray alpn(const QList<QByteArray> &protocols);
// A handshake record holding a ClientHello with these extensions (none at all when extensions is null).
QByteArray record(const QByteArray &extensions);
// The hello's fields from the version on, wrapped in its message and record (every length right).
QByteArray recordOf(const QByteArray &helloBody);
// The fields before the extensions: TLS 1.2's legacy version, a random, no session id, one cipher suite.
QByteArray helloFields(const QByteArray &cipherSuites = QByteArray("\x13\x01"));

// What a QSslSocket sends first when it connects asking for sni ("" sends none) and offering these protocols.
// Empty (with a warning) when it could not be caught.
QByteArray captured(const QString &sni, const QList<QByteArray> &protocols = {});

} // namespace ClientHelloBytes

} // namespace berth::test
