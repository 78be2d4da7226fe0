#include "domain/siterules/headerrules.h"

using namespace Qt::StringLiterals;

namespace berth {

namespace {

// Names a _headers file may not set, lower case: what the server must decide to encode, cache-validate and route
// responses correctly, and cookies (a site must not set cookies for other sites under the same domain).
constexpr QByteArrayView kSetByBerth[]
    = {"accept-ranges", "age", "allow", "alt-svc", "content-encoding", "content-range", "date", "etag", "location",
        "proxy-authenticate", "server", "set-cookie", "vary", "www-authenticate"};
// Hop-by-hop and framing names: they describe one connection, not a file, and sent from a site's rules they could
// make a proxy or client frame or route the stream wrongly.
constexpr QByteArrayView kConnectionNames[] = {"connection", "content-length", "expect", "host", "http2-settings",
    "keep-alive", "proxy-connection", "status", "te", "trailer", "transfer-encoding", "upgrade"};
// Names whose effect reaches past this site: browsers apply Clear-Site-Data to the whole registrable domain, that
// is, to every site of the instance.
constexpr QByteArrayView kCrossSiteNames[] = {"clear-site-data"};

template<std::size_t N>
bool isOneOf(const QByteArray &lowerName, const QByteArrayView (&names)[N])
{
    return std::any_of(std::begin(names), std::end(names), [&](QByteArrayView name) { return lowerName == name; });
}

// Why a name cannot be set, or empty when it can.
QString reservedReason(const QByteArray &name)
{
    const QByteArray lower = name.toLower();
    const QString shown = QString::fromLatin1(name);
    if (isOneOf(lower, kSetByBerth))
        return u"%1 is set by Berth and cannot be changed here"_s.arg(shown);
    if (isOneOf(lower, kConnectionNames))
        return u"%1 belongs to the connection, not to a file, and cannot be set here"_s.arg(shown);
    if (isOneOf(lower, kCrossSiteNames))
        return u"%1 would reach every site under the same domain and cannot be set here"_s.arg(shown);
    return {};
}

bool isTokenChar(char c)
{
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
        return true;
    return QByteArrayView("!#$%&'*+-.^_`|~").contains(c);
}

bool isValidValue(const QByteArray &value)
{
    return std::all_of(value.begin(), value.end(), [](char c) { return c == '\t' || (uchar(c) >= 0x20 && c != 0x7f); });
}

// Adds a header, joining the value to an earlier one of the same name; false when a new name would exceed `cap`.
bool addHeader(HeaderRules::Headers &headers, const QByteArray &name, const QByteArray &value, qsizetype cap)
{
    for (auto &[existing, existingValue] : headers) {
        if (existing.compare(name, Qt::CaseInsensitive) == 0) {
            existingValue += ", " + value;
            return true;
        }
    }
    if (headers.size() >= cap)
        return false;
    headers.append({name, value});
    return true;
}

} // namespace

HeaderRules HeaderRules::parse(const QByteArray &text, QStringList *warnings)
{
    HeaderRules rules;
    const auto warn = [&](int line, const QString &why) {
        if (warnings)
            warnings->append(u"_headers line %1: %2"_s.arg(line).arg(why));
    };
    Rule *current = nullptr; // the rule the indented lines belong to; null after a bad path line
    bool skipping = false; // the header lines of a bad or surplus path are skipped silently
    int headerLines = 0;
    int lineNumber = 0;
    qsizetype lineStart = 0;
    while (lineStart <= text.size()) {
        qsizetype lineEnd = text.indexOf('\n', lineStart);
        if (lineEnd < 0)
            lineEnd = text.size();
        QByteArrayView raw = QByteArrayView(text).sliced(lineStart, lineEnd - lineStart);
        lineStart = lineEnd + 1;
        ++lineNumber;
        if (raw.endsWith('\r'))
            raw.chop(1);
        const bool indented = raw.startsWith(' ') || raw.startsWith('\t');
        const QByteArrayView line = raw.trimmed();
        if (line.isEmpty() || line.startsWith('#'))
            continue;
        if (line.size() > kMaxLineLength) {
            warn(lineNumber, u"the line is longer than %1 characters"_s.arg(kMaxLineLength));
            continue;
        }
        if (!indented) {
            current = nullptr;
            skipping = true;
            if (rules.m_rules.size() >= kMaxRules) {
                warn(lineNumber,
                    u"only the first %1 paths are used; this one and those after it are ignored"_s.arg(kMaxRules));
                break;
            }
            const Result<PathPattern> pattern = PathPattern::parse(QString::fromUtf8(line));
            if (!pattern) {
                warn(lineNumber, pattern.error().message);
                continue;
            }
            rules.m_rules.append({pattern.value(), {}});
            current = &rules.m_rules.last();
            skipping = false;
            continue;
        }
        if (!current) {
            if (!skipping)
                warn(lineNumber, u"a header line must follow a path line"_s);
            continue;
        }
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0) {
            warn(lineNumber, u"a header line is \"Name: value\""_s);
            continue;
        }
        const QByteArray name = line.first(colon).trimmed().toByteArray();
        const QByteArray value = line.sliced(colon + 1).trimmed().toByteArray();
        if (name.isEmpty() || !std::all_of(name.begin(), name.end(), isTokenChar)) {
            warn(lineNumber, u"\"%1\" is not a valid header name"_s.arg(QString::fromUtf8(name)));
            continue;
        }
        if (!isValidValue(value)) {
            warn(lineNumber, u"the value of %1 contains control characters"_s.arg(QString::fromLatin1(name)));
            continue;
        }
        if (const QString reason = reservedReason(name); !reason.isEmpty()) {
            warn(lineNumber, reason);
            continue;
        }
        if (name.compare("x-content-type-options", Qt::CaseInsensitive) == 0
            && value.compare("nosniff", Qt::CaseInsensitive) != 0) {
            warn(lineNumber, u"X-Content-Type-Options is always \"nosniff\" on Berth"_s);
            continue;
        }
        if (++headerLines > kMaxHeaderLines) {
            warn(lineNumber, u"only the first %1 header lines are used"_s.arg(kMaxHeaderLines));
            break;
        }
        if (!addHeader(current->headers, name, value, kMaxHeadersPerRule))
            warn(lineNumber, u"a path may have at most %1 headers"_s.arg(kMaxHeadersPerRule));
    }
    return rules;
}

bool HeaderRules::isCachePolicy(QByteArrayView name)
{
    static constexpr QByteArrayView kCachePolicyNames[]
        = {"cache-control", "cdn-cache-control", "surrogate-control", "expires", "pragma"};
    const QByteArray lower = name.toByteArray().toLower();
    return isOneOf(lower, kCachePolicyNames) || lower.endsWith("-cdn-cache-control");
}

HeaderRules::Headers HeaderRules::match(QStringView path) const
{
    Headers headers;
    if (m_rules.isEmpty())
        return headers;
    const PathSegments segments(path);
    for (const Rule &rule : m_rules) {
        if (!rule.path.match(segments))
            continue;
        for (const auto &[name, value] : rule.headers)
            addHeader(headers, name, value, kMaxHeadersPerResponse);
    }
    return headers;
}

} // namespace berth
