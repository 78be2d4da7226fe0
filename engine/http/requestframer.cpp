#include "http/requestframer.h"

#include "http/cookieheader.h"

#include <cstring>

namespace berth {

namespace {

bool isTokenChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
        || std::strchr("!#$%&'*+-.^_`|~", c) != nullptr;
}

// Visible ASCII or obs-text: what a request-target may hold (no spaces, no controls, no fragment).
bool isTargetChar(char c)
{
    const auto u = static_cast<unsigned char>(c);
    return (u > 0x20 && u < 0x7f && c != '#') || u >= 0x80;
}

// Field values: no control characters except HTAB (CR, LF and NUL are what split and smuggle).
bool isValueChar(char c)
{
    const auto u = static_cast<unsigned char>(c);
    return u >= 0x20 ? u != 0x7f : c == '\t';
}

bool isHostChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
        || (c != 0 && std::strchr("-._~!$&'()*+,;=:[]%", c) != nullptr);
}

QByteArrayView trimmedOws(QByteArrayView v)
{
    while (!v.isEmpty() && (v.front() == ' ' || v.front() == '\t'))
        v = v.sliced(1);
    while (!v.isEmpty() && (v.back() == ' ' || v.back() == '\t'))
        v.chop(1);
    return v;
}

bool isKnownMethod(QByteArrayView m)
{
    return m == "GET" || m == "HEAD" || m == "POST" || m == "PUT" || m == "DELETE" || m == "OPTIONS" || m == "PATCH";
}

// Whether a comma-separated header value (Connection, Transfer-Encoding) lists `token`, case-insensitively.
bool listsToken(QByteArrayView list, QByteArrayView token)
{
    while (!list.isEmpty()) {
        const qsizetype comma = list.indexOf(',');
        const QByteArrayView item = trimmedOws(comma < 0 ? list : list.first(comma));
        if (item.compare(token, Qt::CaseInsensitive) == 0)
            return true;
        if (comma < 0)
            break;
        list = list.sliced(comma + 1);
    }
    return false;
}

} // namespace

bool RequestFramer::isToken(QByteArrayView text)
{
    if (text.isEmpty())
        return false;
    for (char c : text) {
        if (!isTokenChar(c))
            return false;
    }
    return true;
}

qsizetype RequestFramer::feed(QByteArrayView bytes)
{
    switch (m_state) {
    case State::Head:
        return feedHead(bytes);
    case State::Body: {
        const qsizetype take = qMin<qint64>(m_bodyRemaining, bytes.size());
        m_bodyRemaining -= take;
        if (m_bodyRemaining == 0)
            m_state = State::MessageComplete;
        return take;
    }
    case State::HeadComplete:
    case State::MessageComplete:
    case State::Failed:
        break;
    }
    return 0;
}

void RequestFramer::beginBody()
{
    if (m_state != State::HeadComplete)
        return;
    m_bodyRemaining = m_head.contentLength;
    m_state = m_bodyRemaining > 0 ? State::Body : State::MessageComplete;
}

void RequestFramer::reset()
{
    m_state = State::Head;
    m_head = FramedHead();
    m_line.resize(0); // keeps its capacity for the next request on this connection
    m_headBytes = 0;
    m_bodyRemaining = 0;
    m_haveRequestLine = false;
    m_hostCount = 0;
    m_fieldCount = 0;
    m_cookieField = -1;
    m_upgrade = false;
    m_contentLengthCount = 0;
    m_contentLength.clear();
    m_transferEncoding.clear();
    m_connection.clear();
    m_expect.clear();
    m_errorStatus = 0;
    m_errorMessage = "";
}

FramedHead RequestFramer::takeHead()
{
    FramedHead head = std::move(m_head);
    m_head = FramedHead();
    return head;
}

qsizetype RequestFramer::feedHead(QByteArrayView bytes)
{
    qsizetype used = 0;
    while (used < bytes.size() && m_state == State::Head) {
        const char *start = bytes.data() + used;
        const qsizetype left = bytes.size() - used;
        const auto *newline = static_cast<const char *>(std::memchr(start, '\n', size_t(left)));
        const qsizetype take = newline ? newline - start + 1 : left;

        // Limits are checked before a byte is kept, so an oversized head never grows a buffer.
        if (!m_haveRequestLine && m_line.size() + take > kMaxRequestLineBytes + 2) {
            fail(414, "Request line too long");
            return used;
        }
        if (m_headBytes + take > kMaxHeadBytes) {
            fail(431, "Request header block too large");
            return used;
        }
        m_headBytes += take;
        used += take;
        if (!newline) {
            m_line.append(start, take);
            break;
        }
        if (m_line.isEmpty()) {
            processLine(QByteArrayView(start, take)); // the common case: a whole line in one read, no copy
        } else {
            m_line.append(start, take);
            processLine(m_line);
            m_line.resize(0);
        }
    }
    return used;
}

void RequestFramer::processLine(QByteArrayView line)
{
    // line ends with '\n'; HTTP/1.1 lines end with CRLF, and QtHttpServer must see the same line breaks we do.
    if (line.size() < 2 || line[line.size() - 2] != '\r')
        return fail(400, "Bare LF in request head");
    const QByteArrayView content = line.first(line.size() - 2);
    if (content.contains('\r'))
        return fail(400, "Stray CR in request head");

    if (!m_haveRequestLine) {
        if (content.isEmpty())
            return; // empty lines before a request line are ignored (RFC 9112, 2.2)
        return parseRequestLine(content);
    }
    if (content.isEmpty())
        return finishHead();
    parseHeaderLine(content);
}

void RequestFramer::parseRequestLine(QByteArrayView line)
{
    m_haveRequestLine = true;
    const qsizetype sp1 = line.indexOf(' ');
    const qsizetype sp2 = sp1 < 0 ? -1 : line.indexOf(' ', sp1 + 1);
    if (sp1 <= 0 || sp2 < 0 || line.indexOf(' ', sp2 + 1) >= 0)
        return fail(400, "Malformed request line");
    const QByteArrayView method = line.first(sp1);
    const QByteArrayView target = line.sliced(sp1 + 1, sp2 - sp1 - 1);
    const QByteArrayView version = line.sliced(sp2 + 1);
    if (!isToken(method) || target.isEmpty())
        return fail(400, "Malformed request line");
    for (char c : target) {
        if (!isTargetChar(c))
            return fail(400, "Malformed request target");
    }
    if (version.size() != 8 || !version.startsWith("HTTP/") || version[6] != '.' || version[5] < '0' || version[5] > '9'
        || version[7] < '0' || version[7] > '9') {
        return fail(400, "Malformed HTTP version");
    }
    if (version[5] != '1' || (version[7] != '0' && version[7] != '1'))
        return fail(505, "HTTP version not supported");
    if (!isKnownMethod(method))
        return fail(501, "Method not implemented");
    if (target.front() != '/' && !(target == "*" && method == "OPTIONS"))
        return fail(400, "Request target must be a path");

    m_head.method = method.toByteArray();
    m_head.target = target.toByteArray();
    m_head.minorVersion = version[7] - '0';
    m_head.headers.reserve(16);
}

void RequestFramer::parseHeaderLine(QByteArrayView line)
{
    if (line.front() == ' ' || line.front() == '\t')
        return fail(400, "Folded header line");
    const qsizetype colon = line.indexOf(':');
    if (colon <= 0)
        return fail(400, "Malformed header line");
    const QByteArrayView name = line.first(colon);
    if (!isToken(name))
        return fail(400, "Malformed header name");
    const QByteArrayView value = trimmedOws(line.sliced(colon + 1));
    for (char c : value) {
        if (!isValueChar(c))
            return fail(400, "Control character in header value");
    }
    if (m_fieldCount >= kMaxHeaderFields)
        return fail(431, "Too many header fields");
    ++m_fieldCount;

    QByteArray lowerName = name.toByteArray().toLower();
    QByteArray ownValue = value.toByteArray();
    if (lowerName == "content-length") {
        ++m_contentLengthCount;
        m_contentLength = ownValue;
    } else if (lowerName == "transfer-encoding") {
        m_transferEncoding += m_transferEncoding.isEmpty() ? ownValue : ", " + ownValue;
    } else if (lowerName == "host") {
        ++m_hostCount;
        m_head.host = ownValue;
    } else if (lowerName == "connection") {
        m_connection += m_connection.isEmpty() ? ownValue : ", " + ownValue;
    } else if (lowerName == "expect") {
        m_expect += m_expect.isEmpty() ? ownValue : ", " + ownValue;
    } else if (lowerName == "upgrade") {
        m_upgrade = true;
    } else if (lowerName == "cookie") {
        // Proxies and HTTP/2 gateways split cookies over several fields; handlers read one (RFC 9113, 8.2.3).
        if (m_cookieField >= 0) {
            appendCookieField(m_head.headers[m_cookieField].second, ownValue);
            return;
        }
        m_cookieField = m_head.headers.size();
    }
    m_head.headers.append({std::move(lowerName), std::move(ownValue)});
}

void RequestFramer::finishHead()
{
    const bool http11 = m_head.minorVersion == 1;
    if (m_hostCount > 1)
        return fail(400, "Duplicate Host header");
    if (http11 && m_hostCount == 0)
        return fail(400, "Missing Host header");
    for (char c : m_head.host) {
        if (!isHostChar(c))
            return fail(400, "Malformed Host header");
    }

    // QtHttpServer 6.4 takes its upgrade branch for these and parses the same bytes again: one request would run
    // twice. Any Upgrade field is refused, whatever Connection says, so no spelling of it reaches that branch.
    if (m_upgrade)
        return fail(501, "Protocol upgrades are not supported: send the request without an Upgrade header");

    if (!m_transferEncoding.isEmpty()) {
        if (m_contentLengthCount > 0)
            return fail(400, "Content-Length with Transfer-Encoding");
        if (listsToken(m_transferEncoding, "chunked"))
            return fail(411, "Chunked request bodies are not supported: send Content-Length");
        return fail(501, "Transfer-Encoding not implemented");
    }
    if (m_contentLengthCount > 1)
        return fail(400, "Duplicate Content-Length");
    if (m_contentLengthCount == 1) {
        if (m_contentLength.isEmpty() || m_contentLength.size() > kMaxContentLengthDigits)
            return fail(400, "Invalid Content-Length");
        qint64 length = 0;
        for (char c : std::as_const(m_contentLength)) {
            if (c < '0' || c > '9')
                return fail(400, "Invalid Content-Length");
            length = length * 10 + (c - '0');
        }
        m_head.contentLength = length;
    }

    if (!m_expect.isEmpty() && http11) {
        if (m_expect.compare("100-continue", Qt::CaseInsensitive) != 0)
            return fail(417, "Expectation not supported");
        m_head.expectContinue = true;
    }
    m_head.keepAlive = http11 ? !listsToken(m_connection, "close") : listsToken(m_connection, "keep-alive");
    m_state = State::HeadComplete;
}

void RequestFramer::fail(int status, const char *message)
{
    m_state = State::Failed;
    m_errorStatus = status;
    m_errorMessage = message;
}

} // namespace berth
