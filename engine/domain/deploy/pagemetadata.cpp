#include "domain/deploy/pagemetadata.h"

#include "domain/deploy/htmlscanner.h"

#include <QUrl>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

QString escapeAttribute(const QString &value)
{
    QString escaped = value.toHtmlEscaped(); // & < > "
    escaped.replace(u'\'', u"&#39;"_s);
    return escaped;
}

QString metaTag(const QString &attribute, const QString &name, const QString &content)
{
    return u"<meta %1=\"%2\" content=\"%3\">"_s.arg(attribute, name, escapeAttribute(content));
}

QString emojiIconHref(const QString &emoji)
{
    const QString svg = u"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 100 100'>"
                        "<text y='.9em' font-size='90'>%1</text></svg>"_s.arg(emoji.toHtmlEscaped());
    return u"data:image/svg+xml,"_s + QString::fromLatin1(QUrl::toPercentEncoding(svg, "/:=' "));
}

bool isSpace(QChar c)
{
    return c == u' ' || c == u'\t' || c == u'\n' || c == u'\r' || c == u'\f';
}

// rel="icon" or rel="shortcut icon" (optionally followed by more tokens), case-insensitive.
bool isIconLink(const HtmlTag &tag)
{
    const QStringView rel = tag.attribute("rel"_L1).trimmed();
    const auto startsWithToken = [](QStringView text, QLatin1StringView token) {
        return text.startsWith(token, Qt::CaseInsensitive)
            && (text.size() == token.size() || isSpace(text[token.size()]));
    };
    if (startsWithToken(rel, "icon"_L1))
        return true;
    return startsWithToken(rel, "shortcut"_L1) && startsWithToken(rel.sliced(8).trimmed(), "icon"_L1);
}

bool namesReplacedMeta(const HtmlTag &tag, const QStringList &keys)
{
    for (const QLatin1StringView attribute : {"name"_L1, "property"_L1}) {
        const QStringView value = tag.attribute(attribute);
        if (value.isNull())
            continue;
        for (const QString &key : keys) {
            if (value.compare(key, Qt::CaseInsensitive) == 0)
                return true;
        }
    }
    return false;
}

// Where the scan found things, as offsets into the document.
struct HeadScan
{
    QList<std::pair<qsizetype, qsizetype>> removals; // [begin, end) spans, in document order
    qsizetype afterHead = -1; // just after the first <head ...>
    qsizetype afterHtml = -1; // just after the first <html ...>
    qsizetype afterDoctype = -1; // just after a leading <!doctype ...>
    qsizetype work = 0;
};

HeadScan scanHead(QStringView document, bool replaceTitle, bool replaceIcon, const QStringList &metaKeys)
{
    HeadScan scan;
    // The trailing white space of a removed element goes with it, so no blank lines pile up.
    const auto remove = [&](qsizetype begin, qsizetype end) {
        while (end < document.size() && isSpace(document[end]))
            ++end;
        scan.removals.append({begin, end});
    };
    HtmlScanner scanner(document);
    HtmlTag tag;
    while (scanner.next(tag)) {
        if (tag.closing)
            continue;
        if (scan.afterHead < 0 && tag.isNamed("head"_L1)) {
            scan.afterHead = tag.end;
        } else if (scan.afterHtml < 0 && tag.isNamed("html"_L1)) {
            scan.afterHtml = tag.end;
        } else if (tag.isNamed("title"_L1)) {
            qsizetype textEnd = 0;
            qsizetype after = 0;
            if (!scanner.textUntilEndTag("title"_L1, &textEnd, &after))
                break; // an unclosed title swallows the rest of the document: leave it as it is
            if (replaceTitle)
                remove(tag.begin, after);
        } else if (tag.isNamed("meta"_L1) && namesReplacedMeta(tag, metaKeys)) {
            remove(tag.begin, tag.end);
        } else if (replaceIcon && tag.isNamed("link"_L1) && isIconLink(tag)) {
            remove(tag.begin, tag.end);
        }
    }
    scan.work = scanner.work();

    qsizetype i = 0;
    while (i < document.size() && isSpace(document[i]))
        ++i;
    if (document.sliced(i).startsWith(u"<!doctype"_s, Qt::CaseInsensitive)) {
        const qsizetype close = document.indexOf(u'>', i);
        if (close >= 0)
            scan.afterDoctype = close + 1;
    }
    return scan;
}

} // namespace

bool PageMetadata::isEmpty() const
{
    return title.isEmpty() && description.isEmpty() && favicon.isEmpty() && ogImage.isEmpty();
}

QByteArray injectPageMetadata(const QByteArray &html, const PageMetadata &metadata, qsizetype *work)
{
    if (metadata.isEmpty())
        return html;

    const QString document = QString::fromUtf8(html);
    QStringList tags;
    QStringList replacedMeta {u"og:url"_s, u"twitter:card"_s};
    if (!metadata.title.isEmpty()) {
        tags << u"<title>%1</title>"_s.arg(metadata.title.toHtmlEscaped())
             << metaTag(u"property"_s, u"og:title"_s, metadata.title)
             << metaTag(u"name"_s, u"twitter:title"_s, metadata.title);
        replacedMeta << u"og:title"_s << u"twitter:title"_s;
    }
    if (!metadata.description.isEmpty()) {
        tags << metaTag(u"name"_s, u"description"_s, metadata.description)
             << metaTag(u"property"_s, u"og:description"_s, metadata.description)
             << metaTag(u"name"_s, u"twitter:description"_s, metadata.description);
        replacedMeta << u"description"_s << u"og:description"_s << u"twitter:description"_s;
    }
    if (!metadata.ogImage.isEmpty()) {
        tags << metaTag(u"property"_s, u"og:image"_s, metadata.ogImage)
             << metaTag(u"name"_s, u"twitter:image"_s, metadata.ogImage);
        replacedMeta << u"og:image"_s << u"twitter:image"_s;
    }
    tags << metaTag(u"property"_s, u"og:url"_s, metadata.url)
         << metaTag(u"name"_s, u"twitter:card"_s, metadata.ogImage.isEmpty() ? u"summary"_s : u"summary_large_image"_s);
    if (!metadata.favicon.isEmpty())
        tags << u"<link rel=\"icon\" href=\"%1\">"_s.arg(escapeAttribute(emojiIconHref(metadata.favicon)));

    const HeadScan scan = scanHead(document, !metadata.title.isEmpty(), !metadata.favicon.isEmpty(), replacedMeta);
    if (work)
        *work = scan.work;

    const QString block = u"\n"_s + tags.join(u"\n"_s) + u"\n"_s;
    QString insertion;
    qsizetype insertAt = 0;
    if (scan.afterHead >= 0) {
        insertAt = scan.afterHead;
        insertion = block;
    } else if (scan.afterHtml >= 0) {
        insertAt = scan.afterHtml;
        insertion = u"<head>"_s + block + u"</head>"_s;
    } else {
        insertAt = qMax<qsizetype>(scan.afterDoctype, 0);
        insertion = u"<head>"_s + block + u"</head>\n"_s;
    }

    // One pass over the document: copy what stays, drop the removed spans, put the block in its place.
    QString out;
    out.reserve(document.size() + insertion.size());
    qsizetype copied = 0;
    bool inserted = false;
    const auto copyUpTo = [&](qsizetype end) {
        if (!inserted && insertAt >= copied && insertAt <= end) {
            out += QStringView(document).sliced(copied, insertAt - copied);
            out += insertion;
            copied = insertAt;
            inserted = true;
        }
        out += QStringView(document).sliced(copied, end - copied);
        copied = end;
    };
    for (const auto &[begin, end] : scan.removals) {
        copyUpTo(begin);
        copied = end;
    }
    copyUpTo(document.size());
    return out.toUtf8();
}

} // namespace berth
