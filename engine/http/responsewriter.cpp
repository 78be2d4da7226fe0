#include "http/responsewriter.h"

#include "http/httpconfig.h"

#include <QDateTime>
#include <QVarLengthArray>
#include <cstring>

namespace berth {

namespace {

bool isWriterOwned(QByteArrayView name)
{
    for (QByteArrayView owned : {QByteArrayView("content-length"), QByteArrayView("date"), QByteArrayView("server"),
             QByteArrayView("connection"), QByteArrayView("transfer-encoding"), QByteArrayView("keep-alive")}) {
        if (sameHeaderName(name, owned))
            return true;
    }
    return false;
}

// CR, LF or NUL in a header would let a handler's data start a new header or a new response.
bool isSafeField(const QByteArray &name, const QByteArray &value)
{
    if (name.isEmpty())
        return false;
    for (const QByteArray *part : {&name, &value}) {
        for (char c : *part) {
            if (c == '\r' || c == '\n' || c == '\0')
                return false;
        }
    }
    for (char c : name) {
        if (c == ':' || c == ' ' || c == '\t')
            return false;
    }
    return true;
}

// The decimal digits of n >= 0, at the end of buffer; returns their view.
QByteArrayView formatNumber(char (&buffer)[24], qint64 n)
{
    int i = sizeof(buffer);
    do {
        buffer[--i] = char('0' + n % 10);
        n /= 10;
    } while (n > 0);
    return QByteArrayView(buffer + i, qsizetype(sizeof(buffer)) - i);
}

// Copies pieces into a block sized beforehand: one allocation and plain copies, where appending piece by piece
// to a QByteArray cost about 5,000 instructions a response (callgrind), a tenth of serving a cached file.
class Block final
{
public:
    explicit Block(char *start)
        : m_next(start)
    {
    }
    void add(QByteArrayView bytes)
    {
        std::memcpy(m_next, bytes.data(), size_t(bytes.size()));
        m_next += bytes.size();
    }

    const char *end() const { return m_next; }

private:
    char *m_next;
};

} // namespace

ResponseWriter::ResponseWriter(QByteArray serverName)
    : m_serverName(std::move(serverName))
{
}

QByteArray ResponseWriter::head(const HttpResponse &response, qint64 contentLength, bool keepAlive)
{
    // First which of the handler's headers go out (and how long the head is), then one copy of everything.
    const auto &headers = response.headers;
    QVarLengthArray<qsizetype, 16> kept;
    qsizetype keptBytes = 0;
    bool haveNosniff = false;
    for (qsizetype i = 0; i < headers.size(); ++i) {
        const auto &[name, value] = headers.at(i);
        if (!isSafeField(name, value) || isWriterOwned(name))
            continue;
        const bool repeatable = sameHeaderName(name, "set-cookie");
        bool supersededLater = false;
        for (qsizetype j = i + 1; j < headers.size() && !repeatable && !supersededLater; ++j)
            supersededLater = sameHeaderName(headers.at(j).first, name);
        if (supersededLater)
            continue;
        haveNosniff = haveNosniff || sameHeaderName(name, "x-content-type-options");
        kept.append(i);
        keptBytes += name.size() + value.size() + 4;
    }

    char statusDigits[24];
    char lengthDigits[24];
    const QByteArrayView status = formatNumber(statusDigits, response.status);
    const bool hasLength = statusHasBody(response.status);
    const QByteArrayView length = hasLength ? formatNumber(lengthDigits, contentLength) : QByteArrayView();
    const QByteArrayView reason = reasonPhrase(response.status);
    const QByteArray &today = date();
    const QByteArrayView connection = keepAlive ? "\r\nConnection: keep-alive\r\n" : "\r\nConnection: close\r\n";
    constexpr QByteArrayView kNosniff = "X-Content-Type-Options: nosniff\r\n";
    const qsizetype total = 9 + status.size() + 1 + reason.size() + 10 + m_serverName.size() + 8 + today.size()
        + (hasLength ? 18 + length.size() : 0) + connection.size() + keptBytes + (haveNosniff ? 0 : kNosniff.size())
        + 2;

    QByteArray out(total, Qt::Uninitialized);
    Block block(out.data());
    block.add("HTTP/1.1 ");
    block.add(status);
    block.add(" ");
    block.add(reason);
    block.add("\r\nServer: ");
    block.add(m_serverName);
    block.add("\r\nDate: ");
    block.add(today);
    if (hasLength) {
        block.add("\r\nContent-Length: ");
        block.add(length);
    }
    block.add(connection);
    for (qsizetype i : kept) {
        const auto &[name, value] = headers.at(i);
        block.add(name);
        block.add(": ");
        block.add(value);
        block.add("\r\n");
    }
    if (!haveNosniff)
        block.add(kNosniff);
    block.add("\r\n");
    if (Q_UNLIKELY(block.end() != out.constData() + out.size()))
        qFatal("berth: ResponseWriter sized a head wrongly"); // a bug here must never go unnoticed
    return out;
}

QByteArray ResponseWriter::refusal(int status, const QString &message)
{
    HttpResponse response = HttpResponse::jsonError(status, message);
    if (status == 503)
        response.setHeader("Retry-After", QByteArray::number(kBusyRetryAfterSeconds)); // busy now, free again soon
    return refusal(response);
}

QByteArray ResponseWriter::refusal(const HttpResponse &response)
{
    return head(response, response.body.size(), false) + response.body;
}

const QByteArray &ResponseWriter::date()
{
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    if (now != m_dateSecs) {
        m_dateSecs = now;
        m_date = imfFixdate(now);
    }
    return m_date;
}

QByteArray ResponseWriter::imfFixdate(qint64 secsSinceEpoch)
{
    // RFC 7231 IMF-fixdate, e.g. "Sun, 06 Nov 1994 08:49:37 GMT"; no locale involved.
    static constexpr const char *days[] = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
    static constexpr const char *months[]
        = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    const QDateTime t = QDateTime::fromSecsSinceEpoch(secsSinceEpoch, Qt::UTC);
    const QDate d = t.date();
    const QTime tm = t.time();
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%s, %02d %s %04d %02d:%02d:%02d GMT", days[d.dayOfWeek() - 1], d.day(),
        months[d.month() - 1], d.year(), tm.hour(), tm.minute(), tm.second());
    return QByteArray(buf);
}

QByteArrayView ResponseWriter::reasonPhrase(int status)
{
    switch (status) {
    case 100:
        return "Continue";
    case 200:
        return "OK";
    case 201:
        return "Created";
    case 202:
        return "Accepted";
    case 204:
        return "No Content";
    case 206:
        return "Partial Content";
    case 301:
        return "Moved Permanently";
    case 302:
        return "Found";
    case 303:
        return "See Other";
    case 304:
        return "Not Modified";
    case 307:
        return "Temporary Redirect";
    case 308:
        return "Permanent Redirect";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 406:
        return "Not Acceptable";
    case 408:
        return "Request Timeout";
    case 409:
        return "Conflict";
    case 410:
        return "Gone";
    case 411:
        return "Length Required";
    case 412:
        return "Precondition Failed";
    case 413:
        return "Content Too Large";
    case 414:
        return "URI Too Long";
    case 415:
        return "Unsupported Media Type";
    case 416:
        return "Range Not Satisfiable";
    case 417:
        return "Expectation Failed";
    case 421:
        return "Misdirected Request";
    case 422:
        return "Unprocessable Content";
    case 429:
        return "Too Many Requests";
    case 431:
        return "Request Header Fields Too Large";
    case 500:
        return "Internal Server Error";
    case 501:
        return "Not Implemented";
    case 502:
        return "Bad Gateway";
    case 503:
        return "Service Unavailable";
    case 504:
        return "Gateway Timeout";
    case 505:
        return "HTTP Version Not Supported";
    default:
        return "Unknown";
    }
}

} // namespace berth
