#include "pagemetadata.h"

#include <QRegularExpression>
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

// Removes every element the pattern matches (case-insensitive).
void removeAll(QString &html, const QString &pattern)
{
    html.remove(QRegularExpression(pattern, QRegularExpression::CaseInsensitiveOption));
}

// <meta name|property="<key>" ...> in either attribute order.
QString metaPattern(const QString &keys)
{
    return uR"(<meta\b(?=[^>]*\b(?:name|property)\s*=\s*["']?(?:%1)["'\s>])[^>]*>\s*)"_s.arg(keys);
}

} // namespace

bool PageMetadata::isEmpty() const
{
    return title.isEmpty() && description.isEmpty() && favicon.isEmpty() && ogImage.isEmpty();
}

QByteArray injectPageMetadata(const QByteArray &html, const PageMetadata &metadata)
{
    if (metadata.isEmpty())
        return html;

    QString document = QString::fromUtf8(html);
    QStringList tags;
    QStringList replacedMeta{u"og:url"_s, u"twitter:card"_s};
    if (!metadata.title.isEmpty()) {
        removeAll(document, uR"(<title\b[^>]*>[\s\S]*?</title>\s*)"_s);
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
         << metaTag(u"name"_s, u"twitter:card"_s,
                    metadata.ogImage.isEmpty() ? u"summary"_s : u"summary_large_image"_s);
    if (!metadata.favicon.isEmpty()) {
        removeAll(document, uR"(<link\b(?=[^>]*\brel\s*=\s*["']?(?:shortcut\s+)?icon["'\s>])[^>]*>\s*)"_s);
        tags << u"<link rel=\"icon\" href=\"%1\">"_s.arg(escapeAttribute(emojiIconHref(metadata.favicon)));
    }
    for (QString &key : replacedMeta)
        key = QRegularExpression::escape(key);
    removeAll(document, metaPattern(replacedMeta.join(u'|')));

    const QString block = u"\n"_s + tags.join(u"\n"_s) + u"\n"_s;
    static const QRegularExpression head(uR"(<head\b[^>]*>)"_s, QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression htmlTag(uR"(<html\b[^>]*>)"_s, QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression doctype(uR"(^\s*<!doctype[^>]*>)"_s, QRegularExpression::CaseInsensitiveOption);
    if (const auto headMatch = head.match(document); headMatch.hasMatch()) {
        document.insert(headMatch.capturedEnd(), block);
    } else if (const auto htmlMatch = htmlTag.match(document); htmlMatch.hasMatch()) {
        document.insert(htmlMatch.capturedEnd(), u"<head>"_s + block + u"</head>"_s);
    } else {
        const auto doctypeMatch = doctype.match(document);
        document.insert(doctypeMatch.hasMatch() ? doctypeMatch.capturedEnd() : 0, u"<head>"_s + block + u"</head>\n"_s);
    }
    return document.toUtf8();
}

} // namespace berth
