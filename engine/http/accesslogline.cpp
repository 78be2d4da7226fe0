#include "http/accesslogline.h"

#include <QDateTime>

namespace berth::AccessLogLine {

namespace {

constexpr char kHex[] = "0123456789abcdef";

bool isNameByte(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_';
}

char lowered(char c)
{
    return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c;
}

void appendTwoDigits(QByteArray &out, int n)
{
    out.append(char('0' + n / 10 % 10));
    out.append(char('0' + n % 10));
}

} // namespace

QByteArray timestamp(qint64 secsSinceEpoch)
{
    static constexpr const char *kMonths[]
        = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    const QDateTime time = QDateTime::fromSecsSinceEpoch(secsSinceEpoch, Qt::UTC);
    const QDate date = time.date();
    const QTime clock = time.time();
    QByteArray out;
    out.reserve(28);
    out.append('[');
    appendTwoDigits(out, date.day());
    out.append('/').append(kMonths[date.month() - 1]).append('/');
    appendNumber(out, date.year());
    out.append(':');
    appendTwoDigits(out, clock.hour());
    out.append(':');
    appendTwoDigits(out, clock.minute());
    out.append(':');
    appendTwoDigits(out, clock.second());
    out.append(" +0000]");
    return out;
}

QByteArray clientAddress(const QHostAddress &peer, bool anonymize)
{
    if (!anonymize)
        return peer.toString().toLatin1();
    if (peer.protocol() == QAbstractSocket::IPv4Protocol)
        return QHostAddress(peer.toIPv4Address() & 0xffffff00u).toString().toLatin1();
    Q_IPV6ADDR bytes = peer.toIPv6Address();
    for (int i = 6; i < 16; ++i) // a /48: the site's prefix, not the household or device
        bytes[i] = 0;
    return QHostAddress(bytes).toString().toLatin1();
}

void appendVirtualHost(QByteArray &out, QByteArrayView hostHeader)
{
    QByteArrayView host = hostHeader.trimmed();
    if (const qsizetype colon = host.indexOf(':'); colon >= 0)
        host = host.first(colon);
    // Written in place, in one growth, then cut back: a line is made for every request, and an append per byte
    // made building it a visible part of serving a small page.
    const qsizetype start = out.size();
    out.resize(start + host.size());
    char *written = out.data() + start;
    for (const char c : host) {
        const char low = lowered(c);
        if (!isNameByte(low)) {
            written = out.data() + start;
            break;
        }
        *written++ = low;
    }
    out.truncate(written - out.constData());
    if (out.size() == start)
        out.append('-');
}

namespace {
bool isPlainLogByte(char c)
{
    const auto byte = static_cast<unsigned char>(c);
    return byte >= 0x20 && byte < 0x7f && c != '"' && c != '\\';
}
} // namespace

void appendEscaped(QByteArray &out, QByteArrayView text)
{
    for (qsizetype i = 0; i < text.size();) {
        qsizetype plain = i; // a run of bytes written as they are goes in one append
        while (plain < text.size() && isPlainLogByte(text[plain]))
            ++plain;
        if (plain > i) {
            out.append(text.sliced(i, plain - i));
            i = plain;
            continue;
        }
        const char c = text[i++];
        const auto byte = static_cast<unsigned char>(c);
        out.append('\\');
        switch (c) {
        case '"':
        case '\\':
            out.append(c);
            break;
        case '\n':
            out.append('n');
            break;
        case '\r':
            out.append('r');
            break;
        case '\t':
            out.append('t');
            break;
        case '\b':
            out.append('b');
            break;
        case '\v':
            out.append('v');
            break;
        default:
            out.append('x').append(kHex[byte >> 4]).append(kHex[byte & 0xf]);
            break;
        }
    }
}

void appendNumber(QByteArray &out, qint64 n)
{
    char digits[24];
    int i = sizeof(digits);
    do {
        digits[--i] = char('0' + n % 10);
        n /= 10;
    } while (n > 0);
    out.append(digits + i, qsizetype(sizeof(digits)) - i);
}

void append(QByteArray &out, const AccessEntry &entry, QByteArrayView client, QByteArrayView stamp, int status,
    qint64 bytesSent)
{
    appendVirtualHost(out, entry.host);
    out.append(':');
    appendNumber(out, entry.localPort);
    out.append(' ').append(client).append(" - - ").append(stamp).append(" \"");
    appendEscaped(out, entry.method);
    out.append(' ');
    appendEscaped(out, entry.target);
    out.append(entry.minorVersion == 0 ? " HTTP/1.0\" " : " HTTP/1.1\" ");
    appendNumber(out, status);
    out.append(' ');
    appendNumber(out, qMax<qint64>(0, bytesSent));
    out.append(" \"");
    if (entry.referer.isEmpty())
        out.append('-');
    else
        appendEscaped(out, entry.referer);
    out.append("\" \"");
    if (entry.userAgent.isEmpty())
        out.append('-');
    else
        appendEscaped(out, entry.userAgent);
    out.append("\"\n");
}

} // namespace berth::AccessLogLine
