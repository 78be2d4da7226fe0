#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QHostAddress>

namespace berth {

// What the access log keeps of a request from its head until it is answered.
struct AccessEntry
{
    qint64 receivedMs = 0; // UTC, when its head was complete
    QByteArray method;
    QByteArray target;
    int minorVersion = 1;
    QByteArray host; // the raw Host value
    QByteArray referer;
    QByteArray userAgent;
    quint16 localPort = 0; // the port it came in on
};

// One line of Apache's vhost_combined format, `%v:%p %h %l %u %t "%r" %>s %O "%{Referer}i" "%{User-Agent}i"`, built
// from plain appends into a buffer that already has room. Whatever a client sent is escaped as Apache escapes it
// (quote, backslash, control and non-ASCII bytes), so that no request can end a field or a line early.
namespace AccessLogLine {

// "[27/Nov/2026:03:46:13 +0000]" for a time in seconds since the epoch (UTC).
QByteArray timestamp(qint64 secsSinceEpoch);
// The client's address as written: with anonymize, IPv4 with its last octet zeroed and IPv6 cut to its /48.
QByteArray clientAddress(const QHostAddress &peer, bool anonymize);
// Apache's ap_escape_logitem: \" \\ \n \r \t \b \v, other control and non-ASCII bytes as \xhh.
void appendEscaped(QByteArray &out, QByteArrayView text);
void appendNumber(QByteArray &out, qint64 n);
// The whole line, newline included. client and stamp are the cached clientAddress() and timestamp().
void append(QByteArray &out, const AccessEntry &entry, QByteArrayView client, QByteArrayView stamp, int status,
    qint64 bytesSent);

} // namespace AccessLogLine

} // namespace berth
