#include "clienthellobytes.h"

#include <QSslConfiguration>
#include <QSslSocket>
#include <QTcpServer>
#include <QTest>
#include <memory>

using namespace Qt::StringLiterals;

namespace berth::test::ClientHelloBytes {

QByteArray u16(int value)
{
    return QByteArray(1, char((value >> 8) & 0xff)) + char(value & 0xff);
}

QByteArray u24(int value)
{
    return QByteArray(1, char((value >> 16) & 0xff)) + u16(value);
}

QByteArray vector8(const QByteArray &contents)
{
    return QByteArray(1, char(contents.size())) + contents;
}

QByteArray vector16(const QByteArray &contents)
{
    return u16(int(contents.size())) + contents;
}

QByteArray extension(int type, const QByteArray &data)
{
    return u16(type) + vector16(data);
}

QByteArray serverName(const QByteArray &name)
{
    return extension(0, vector16(QByteArray(1, '\0') + vector16(name)));
}

QByteArray alpn(const QList<QByteArray> &protocols)
{
    QByteArray list;
    for (const QByteArray &protocol : protocols)
        list += vector8(protocol);
    return extension(16, vector16(list));
}

QByteArray helloFields(const QByteArray &cipherSuites)
{
    return "\x03\x03" + QByteArray(32, 'r') + vector8({}) + vector16(cipherSuites) + vector8(QByteArray(1, '\0'));
}

QByteArray recordOf(const QByteArray &helloBody)
{
    const QByteArray message = QByteArray(1, '\x01') + u24(int(helloBody.size())) + helloBody;
    return "\x16\x03\x01" + vector16(message);
}

QByteArray record(const QByteArray &extensions)
{
    return recordOf(extensions.isNull() ? helloFields() : helloFields() + vector16(extensions));
}

QByteArray captured(const QString &sni, const QList<QByteArray> &protocols)
{
    QTcpServer server;
    if (!server.listen(QHostAddress::LocalHost)) {
        qWarning("cannot listen to catch a ClientHello");
        return {};
    }
    QSslSocket client;
    QSslConfiguration configuration = QSslConfiguration::defaultConfiguration();
    configuration.setAllowedNextProtocols(protocols);
    client.setSslConfiguration(configuration);
    client.connectToHostEncrypted(u"127.0.0.1"_s, server.serverPort(), sni.isEmpty() ? u"127.0.0.1"_s : sni);
    if (!QTest::qWaitFor([&] { return server.hasPendingConnections(); }, 5000))
        return {};
    std::unique_ptr<QTcpSocket> accepted(server.nextPendingConnection());
    QByteArray bytes;
    // The record's length is in its header: wait until all of it is here.
    const bool whole = QTest::qWaitFor(
        [&] {
            bytes += accepted->readAll();
            return bytes.size() >= 5 && bytes.size() >= 5 + ((quint8(bytes[3]) << 8) | quint8(bytes[4]));
        },
        5000);
    client.abort();
    return whole ? bytes : QByteArray();
}

} // namespace berth::test::ClientHelloBytes
