#pragma once

#include <QLatin1StringView>
#include <QString>
#include <QStringView>
#include <QVarLengthArray>

namespace berth {

// A start or end tag as HtmlScanner sees it. Views point into the scanned document.
struct HtmlTag
{
    struct Attribute
    {
        QStringView name;
        QStringView value; // without quotes; empty when the attribute has no value
    };

    qsizetype begin = 0; // index of '<'
    qsizetype end = 0; // index just after '>'
    bool closing = false;
    QStringView name;
    QVarLengthArray<Attribute, 8> attributes;

    bool isNamed(QLatin1StringView lowerName) const;
    // The value of the first attribute of that name (case-insensitive); null when absent.
    QStringView attribute(QLatin1StringView lowerName) const;
};

// A single forward pass over an HTML document that yields its tags, skipping text, comments, doctypes and the
// content of script and style elements; quoted attribute values may hold '>' and '<'. It never looks back, so the
// work is linear in the document's length whatever the content (no regular expression, no backtracking): where the
// rest of the document is an unterminated tag, comment or quoted value, the scan ends, as a browser's would.
//
// Matching follows the HTML syntax loosely, as needed to find and rewrite head metadata; it is not a validator.
class HtmlScanner final
{
    Q_DISABLE_COPY_MOVE(HtmlScanner)
public:
    explicit HtmlScanner(QStringView document);

    // The next tag; false at the end of the document.
    bool next(HtmlTag &tag);
    // After the start tag of an element whose content is text (title, textarea): the span of that text up to its
    // end tag, and the position after the end tag. False, with the scan ended, when there is no end tag.
    bool textUntilEndTag(QLatin1StringView lowerName, qsizetype *textEnd, qsizetype *afterEndTag);

    qsizetype position() const { return m_pos; }
    // Characters examined so far, look-ahead included: a bounded multiple of the document's length (for tests).
    qsizetype work() const { return m_work; }

private:
    QChar at(qsizetype i);
    bool startsWithAt(qsizetype i, QLatin1StringView lower);
    qsizetype find(QChar c, qsizetype from);
    qsizetype findEndTag(QLatin1StringView lowerName, qsizetype from);
    bool skipMarkup(); // comment, doctype, processing instruction or bogus end tag at m_pos
    bool parseTag(HtmlTag &tag);
    void endScan() { m_pos = m_text.size(); }

    QStringView m_text;
    qsizetype m_pos = 0;
    qsizetype m_work = 0;
};

// The text of a document's first <title>, with character references decoded and white space collapsed; empty when
// there is none. scanned, if given, receives the scanner's work (for tests).
QString documentTitle(QStringView html, qsizetype *work = nullptr);
QString documentTitle(const QByteArray &html);

// Decodes the character references a title or attribute commonly holds (&amp; &lt; &gt; &quot; &apos; &#39; &nbsp;
// and numeric ones); others stay as written.
QString decodeCharacterReferences(QStringView text);

} // namespace berth
