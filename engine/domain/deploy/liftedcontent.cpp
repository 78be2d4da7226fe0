#include "domain/deploy/liftedcontent.h"

#include "domain/common/randomid.h"

#include <cstring>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

constexpr QByteArrayView kContentKey = "\"content\"";

const char *find(const char *from, const char *end, char c)
{
    return static_cast<const char *>(std::memchr(from, c, size_t(end - from)));
}

bool isJsonSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

const char *skipSpace(const char *from, const char *end)
{
    while (from < end && isJsonSpace(*from))
        ++from;
    return from;
}

// The closing quote of the string whose text starts at `from`, or null when it never closes; `escaped` tells whether
// the text holds a backslash. Each byte is searched at most once for a quote and once for a backslash: the quote
// found stays the first one ahead until an escape steps over it.
const char *closingQuote(const char *from, const char *end, bool &escaped)
{
    escaped = false;
    const char *quote = nullptr;
    while (from < end) {
        if (!quote || quote < from) {
            quote = find(from, end, '"');
            if (!quote)
                return nullptr;
        }
        const char *backslash = find(from, quote, '\\');
        if (!backslash)
            return quote;
        escaped = true;
        from = backslash + 2; // the backslash and the character it escapes
    }
    return nullptr;
}

} // namespace

LiftedContent::LiftedContent(const QByteArray &body, qsizetype minimumLength)
    : m_prefix(u"berth-lifted-"_s + RandomId::base62(22) + u'-')
{
    const QByteArray placeholderPrefix = m_prefix.toLatin1();
    const char *const begin = body.constData();
    const char *const end = begin + body.size();
    const char *copied = begin; // the body up to here is in the skeleton
    const char *at = begin;
    while (const char *open = find(at, end, '"')) {
        bool escaped = false;
        const char *close = closingQuote(open + 1, end, escaped);
        if (!close)
            break; // an unterminated string: Qt refuses the skeleton as it would the body
        at = close + 1;
        if (QByteArrayView(open, at - open) != kContentKey)
            continue;
        const char *colon = skipSpace(at, end);
        if (colon == end || *colon != ':')
            continue;
        const char *valueOpen = skipSpace(colon + 1, end);
        if (valueOpen == end || *valueOpen != '"')
            continue;
        const char *valueClose = closingQuote(valueOpen + 1, end, escaped);
        if (!valueClose)
            break;
        at = valueClose + 1;
        if (escaped || valueClose - (valueOpen + 1) < qMax(minimumLength, qsizetype(1)))
            continue; // Qt unescapes escaped text, rare and small in practice
        m_skeleton.append(copied, valueOpen + 1 - copied);
        m_skeleton.append(placeholderPrefix).append(QByteArray::number(m_values.size()));
        copied = valueClose;
        m_values.append(QByteArrayView(valueOpen + 1, valueClose));
    }
    m_skeleton.append(copied, end - copied);
    m_isText.fill(false, m_values.size());
}

std::optional<qsizetype> LiftedContent::indexOf(QStringView text) const
{
    if (!text.startsWith(m_prefix))
        return std::nullopt;
    bool ok = false;
    const qsizetype index = text.sliced(m_prefix.size()).toLongLong(&ok);
    if (!ok || index < 0 || index >= m_values.size() || text.size() != m_prefix.size() + QString::number(index).size())
        return std::nullopt; // only the exact text written in the skeleton
    return index;
}

bool LiftedContent::allText() const
{
    for (qsizetype i = 0; i < m_values.size(); ++i) {
        if (!m_isText.at(i) && !isPrintableAscii(m_values.at(i)))
            return false;
    }
    return true;
}

bool LiftedContent::isPrintableAscii(QByteArrayView bytes)
{
    bool printable = true;
    for (const char c : bytes)
        printable &= c >= 0x20 && c < 0x7f; // char may be signed: bytes from 0x80 fail either way
    return printable;
}

} // namespace berth
