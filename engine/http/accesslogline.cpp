#include "http/accesslogline.h"

#include <QDateTime>
#include <cstring>

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

namespace {

bool isPlainLogByte(char c)
{
    const auto byte = static_cast<unsigned char>(c);
    return byte >= 0x20 && byte < 0x7f && c != '"' && c != '\\';
}

// Writes into room made beforehand (at least what it is told to write): a line is made for every request, and an
// out-of-line append per piece, with its checks and growth, made building it a visible part of serving a small page.
class Cursor final
{
public:
    explicit Cursor(char *at)
        : m_at(at)
    {
    }
    char *at() const { return m_at; }

    void put(char c) { *m_at++ = c; }
    void put(QByteArrayView text)
    {
        std::memcpy(m_at, text.data(), size_t(text.size()));
        m_at += text.size();
    }
    void putNumber(qint64 n)
    {
        char digits[24];
        int i = sizeof(digits);
        do {
            digits[--i] = char('0' + n % 10);
            n /= 10;
        } while (n > 0);
        put(QByteArrayView(digits + i, qsizetype(sizeof(digits)) - i));
    }
    // The virtual host: Host lower-cased without its port, or "-" for one that is absent or not a plain name (it
    // could not be read back unambiguously before the ':').
    void putVirtualHost(QByteArrayView hostHeader)
    {
        QByteArrayView host = hostHeader.trimmed();
        if (const qsizetype colon = host.indexOf(':'); colon >= 0)
            host = host.first(colon);
        char *const start = m_at;
        for (const char c : host) {
            const char low = lowered(c);
            if (!isNameByte(low)) {
                m_at = start;
                break;
            }
            put(low);
        }
        if (m_at == start)
            put('-');
    }
    void putEscaped(QByteArrayView text)
    {
        for (const char c : text) {
            if (isPlainLogByte(c)) {
                put(c);
                continue;
            }
            const auto byte = static_cast<unsigned char>(c);
            put('\\');
            switch (c) {
            case '"':
            case '\\':
                put(c);
                break;
            case '\n':
                put('n');
                break;
            case '\r':
                put('r');
                break;
            case '\t':
                put('t');
                break;
            case '\b':
                put('b');
                break;
            case '\v':
                put('v');
                break;
            default:
                put('x');
                put(kHex[byte >> 4]);
                put(kHex[byte & 0xf]);
                break;
            }
        }
    }

private:
    char *m_at;
};

constexpr qsizetype kEscapedGrowth = 4; // "\xhh" for one byte
constexpr qsizetype kNumberBytes = 20;

// Makes room for up to `most` bytes at the end of out, lets write fill it, and keeps what it wrote.
template<typename Write>
void appendAtMost(QByteArray &out, qsizetype most, Write write)
{
    const qsizetype start = out.size();
    out.resize(start + most);
    Cursor cursor(out.data() + start);
    write(cursor);
    out.truncate(cursor.at() - out.constData());
}

} // namespace

void appendEscaped(QByteArray &out, QByteArrayView text)
{
    appendAtMost(out, kEscapedGrowth * text.size(), [&](Cursor &cursor) { cursor.putEscaped(text); });
}

void appendNumber(QByteArray &out, qint64 n)
{
    appendAtMost(out, kNumberBytes, [&](Cursor &cursor) { cursor.putNumber(n); });
}

void append(QByteArray &out, const AccessEntry &entry, QByteArrayView client, QByteArrayView stamp, int status,
    qint64 bytesSent)
{
    constexpr qsizetype kFixedBytes = 64; // the separators, quotes, "HTTP/1.x", dashes and the newline
    const qsizetype most = kFixedBytes + entry.host.size() + 1 + client.size() + stamp.size() + 3 * kNumberBytes
        + kEscapedGrowth * (entry.method.size() + entry.target.size() + entry.referer.size() + entry.userAgent.size());
    appendAtMost(out, most, [&](Cursor &line) {
        line.putVirtualHost(entry.host);
        line.put(':');
        line.putNumber(entry.localPort);
        line.put(' ');
        line.put(client);
        line.put(" - - ");
        line.put(stamp);
        line.put(" \"");
        line.putEscaped(entry.method);
        line.put(' ');
        line.putEscaped(entry.target);
        line.put(entry.minorVersion == 0 ? " HTTP/1.0\" " : " HTTP/1.1\" ");
        line.putNumber(status);
        line.put(' ');
        line.putNumber(qMax<qint64>(0, bytesSent));
        line.put(" \"");
        if (entry.referer.isEmpty())
            line.put('-');
        else
            line.putEscaped(entry.referer);
        line.put("\" \"");
        if (entry.userAgent.isEmpty())
            line.put('-');
        else
            line.putEscaped(entry.userAgent);
        line.put("\"\n");
    });
}

} // namespace berth::AccessLogLine
