#include "domain/deploy/htmlscanner.h"

using namespace Qt::StringLiterals;

namespace berth {

namespace {

// Attributes kept per tag; later ones are parsed past but not recorded, so a hostile tag costs no memory.
constexpr qsizetype kMaxAttributes = 64;

bool isSpace(QChar c)
{
    return c == u' ' || c == u'\t' || c == u'\n' || c == u'\r' || c == u'\f';
}

bool isAsciiLetter(QChar c)
{
    return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z');
}

QChar lower(QChar c)
{
    return (c >= u'A' && c <= u'Z') ? QChar(c.unicode() + 32) : c;
}

bool equalsLower(QStringView text, QLatin1StringView lowerName)
{
    if (text.size() != lowerName.size())
        return false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (lower(text[i]) != QLatin1Char(lowerName[i]))
            return false;
    }
    return true;
}

// The element names whose content is raw text: nothing inside them is a tag.
bool isRawTextElement(QStringView name)
{
    return equalsLower(name, "script"_L1) || equalsLower(name, "style"_L1);
}

} // namespace

bool HtmlTag::isNamed(QLatin1StringView lowerName) const
{
    return equalsLower(name, lowerName);
}

QStringView HtmlTag::attribute(QLatin1StringView lowerName) const
{
    for (const Attribute &attribute : attributes) {
        if (equalsLower(attribute.name, lowerName))
            return attribute.value.isNull() ? QStringView(u"") : attribute.value;
    }
    return {};
}

HtmlScanner::HtmlScanner(QStringView document)
    : m_text(document)
{
}

QChar HtmlScanner::at(qsizetype i)
{
    ++m_work;
    return i < m_text.size() ? m_text[i] : QChar();
}

bool HtmlScanner::startsWithAt(qsizetype i, QLatin1StringView lowerText)
{
    for (qsizetype k = 0; k < lowerText.size(); ++k) {
        if (i + k >= m_text.size() || lower(at(i + k)) != QLatin1Char(lowerText[k]))
            return false;
    }
    return true;
}

qsizetype HtmlScanner::find(QChar c, qsizetype from)
{
    for (qsizetype i = from; i < m_text.size(); ++i) {
        if (at(i) == c)
            return i;
    }
    return -1;
}

// The '<' of "</name" followed by white space, '/' or '>', from `from` on; -1 when there is none. Every character
// is examined a bounded number of times: a failed comparison resumes after the '<' it started at.
qsizetype HtmlScanner::findEndTag(QLatin1StringView lowerName, qsizetype from)
{
    for (qsizetype i = find(u'<', from); i >= 0; i = find(u'<', i + 1)) {
        if (at(i + 1) != u'/' || !startsWithAt(i + 2, lowerName))
            continue;
        const qsizetype after = i + 2 + lowerName.size();
        const QChar next = at(after);
        if (after >= m_text.size() || isSpace(next) || next == u'/' || next == u'>')
            return i;
    }
    return -1;
}

bool HtmlScanner::skipMarkup()
{
    // m_pos is at '<' followed by '!', '?' or '/' and something that is not a tag name.
    if (startsWithAt(m_pos, "<!--"_L1)) {
        // "<!-->" and "<!--->" end at once, as in browsers.
        qsizetype i = m_pos + 4;
        if (at(i) == u'>') {
            m_pos = i + 1;
            return true;
        }
        if (at(i) == u'-' && at(i + 1) == u'>') {
            m_pos = i + 2;
            return true;
        }
        for (i = find(u'-', i); i >= 0; i = find(u'-', i + 1)) {
            if (at(i + 1) == u'-' && at(i + 2) == u'>') {
                m_pos = i + 3;
                return true;
            }
        }
        return false;
    }
    const qsizetype close = find(u'>', m_pos + 2);
    if (close < 0)
        return false;
    m_pos = close + 1;
    return true;
}

bool HtmlScanner::parseTag(HtmlTag &tag)
{
    // m_pos is at '<', optionally '/', then an ASCII letter.
    tag.begin = m_pos;
    tag.closing = at(m_pos + 1) == u'/';
    qsizetype i = m_pos + (tag.closing ? 2 : 1);
    const qsizetype nameBegin = i;
    while (i < m_text.size() && !isSpace(at(i)) && m_text[i] != u'/' && m_text[i] != u'>')
        ++i;
    tag.name = m_text.sliced(nameBegin, i - nameBegin);
    tag.attributes.clear();

    for (;;) {
        while (i < m_text.size() && (isSpace(at(i)) || m_text[i] == u'/'))
            ++i;
        if (i >= m_text.size())
            return false;
        if (m_text[i] == u'>') {
            tag.end = i + 1;
            m_pos = tag.end;
            return true;
        }
        // An attribute name: at least one character, up to white space, '/', '>' or '='.
        const qsizetype attributeBegin = i++;
        while (i < m_text.size() && !isSpace(at(i)) && m_text[i] != u'/' && m_text[i] != u'>' && m_text[i] != u'=')
            ++i;
        HtmlTag::Attribute attribute {m_text.sliced(attributeBegin, i - attributeBegin), {}};
        qsizetype j = i;
        while (j < m_text.size() && isSpace(at(j)))
            ++j;
        if (j < m_text.size() && m_text[j] == u'=') {
            i = j + 1;
            while (i < m_text.size() && isSpace(at(i)))
                ++i;
            if (i >= m_text.size())
                return false;
            const QChar quote = m_text[i];
            if (quote == u'"' || quote == u'\'') {
                const qsizetype close = find(quote, i + 1);
                if (close < 0)
                    return false;
                attribute.value = m_text.sliced(i + 1, close - i - 1);
                i = close + 1;
            } else {
                const qsizetype valueBegin = i;
                while (i < m_text.size() && !isSpace(at(i)) && m_text[i] != u'>')
                    ++i;
                attribute.value = m_text.sliced(valueBegin, i - valueBegin);
            }
        }
        if (tag.attributes.size() < kMaxAttributes)
            tag.attributes.append(attribute);
    }
}

bool HtmlScanner::next(HtmlTag &tag)
{
    while (m_pos < m_text.size()) {
        const qsizetype open = find(u'<', m_pos);
        if (open < 0) {
            endScan();
            return false;
        }
        m_pos = open;
        const QChar c = at(open + 1);
        if (isAsciiLetter(c) || (c == u'/' && isAsciiLetter(at(open + 2)))) {
            if (!parseTag(tag)) {
                endScan(); // an unterminated tag runs to the end of the document
                return false;
            }
            if (!tag.closing && isRawTextElement(tag.name)) {
                const QLatin1StringView name = equalsLower(tag.name, "script"_L1) ? "script"_L1 : "style"_L1;
                const qsizetype endTag = findEndTag(name, m_pos);
                if (endTag < 0) {
                    endScan();
                    return true;
                }
                m_pos = endTag; // the end tag itself is yielded next
            }
            return true;
        }
        if (c == u'!' || c == u'?' || c == u'/') {
            if (!skipMarkup()) {
                endScan();
                return false;
            }
            continue;
        }
        m_pos = open + 1; // a lone '<' is text
    }
    return false;
}

bool HtmlScanner::textUntilEndTag(QLatin1StringView lowerName, qsizetype *textEnd, qsizetype *afterEndTag)
{
    const qsizetype endTag = findEndTag(lowerName, m_pos);
    if (endTag < 0) {
        endScan();
        return false;
    }
    const qsizetype close = find(u'>', endTag);
    if (close < 0) {
        endScan();
        return false;
    }
    *textEnd = endTag;
    *afterEndTag = close + 1;
    m_pos = close + 1;
    return true;
}

QString documentTitle(QStringView html, qsizetype *work)
{
    HtmlScanner scanner(html);
    HtmlTag tag;
    QString title;
    while (scanner.next(tag)) {
        if (tag.closing || !tag.isNamed("title"_L1))
            continue;
        qsizetype textEnd = 0;
        qsizetype after = 0;
        if (scanner.textUntilEndTag("title"_L1, &textEnd, &after))
            title = decodeCharacterReferences(html.sliced(tag.end, textEnd - tag.end)).simplified();
        break;
    }
    if (work)
        *work = scanner.work();
    return title;
}

QString documentTitle(const QByteArray &html)
{
    return documentTitle(QString::fromUtf8(html));
}

QString decodeCharacterReferences(QStringView text)
{
    if (!text.contains(u'&'))
        return text.toString();
    QString out;
    out.reserve(text.size());
    qsizetype i = 0;
    while (i < text.size()) {
        const QChar c = text[i];
        if (c != u'&') {
            out.append(c);
            ++i;
            continue;
        }
        // A reference is short: look at most 10 characters ahead for its ';'.
        qsizetype semicolon = -1;
        for (qsizetype k = i + 1; k < text.size() && k <= i + 10; ++k) {
            if (text[k] == u';') {
                semicolon = k;
                break;
            }
        }
        const QStringView name = semicolon > 0 ? text.sliced(i + 1, semicolon - i - 1) : QStringView();
        char32_t decoded = 0;
        if (name == u"amp")
            decoded = u'&';
        else if (name == u"lt")
            decoded = u'<';
        else if (name == u"gt")
            decoded = u'>';
        else if (name == u"quot")
            decoded = u'"';
        else if (name == u"apos")
            decoded = u'\'';
        else if (name == u"nbsp")
            decoded = 0xA0;
        else if (name.size() > 1 && name[0] == u'#') {
            bool ok = false;
            const uint value = (name[1] == u'x' || name[1] == u'X') ? name.sliced(2).toUInt(&ok, 16)
                                                                    : name.sliced(1).toUInt(&ok, 10);
            if (ok && value > 0 && value <= 0x10FFFF && !(value >= 0xD800 && value <= 0xDFFF))
                decoded = value;
        }
        if (decoded == 0) {
            out.append(c);
            ++i;
            continue;
        }
        out.append(QString::fromUcs4(&decoded, 1));
        i = semicolon + 1;
    }
    return out;
}

} // namespace berth
