#pragma once

#include <QByteArray>
#include <QString>
#include <QUrl>

namespace berth::test {

struct DeviceReply
{
    int status = 0; // 0: no HTTP answer (nothing listens, or no TLS handshake)
    QByteArray body;
    QByteArray location; // of a redirect, which is never followed
    QString error;
};

// A GET as another device on the LAN sends it (QNetworkAccessManager, 5 s at most), with host as its Host header
// when given; over HTTPS trusting caCert (a PEM file) when given, else only the system's authorities.
DeviceReply deviceGet(const QUrl &url, const QByteArray &host = {}, const QString &caCert = {});

} // namespace berth::test
