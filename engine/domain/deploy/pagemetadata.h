#pragma once

#include <QByteArray>
#include <QString>

namespace berth {

// What a single-HTML deployment's fields say about its page, for link previews and the tab.
struct PageMetadata
{
    QString title;
    QString description; // null or empty: none
    QString favicon; // an emoji; empty: none
    QString ogImage; // absolute URL; empty: none
    QString url; // the page's public URL (og:url)

    bool isEmpty() const;
};

// Writes the metadata into the document's <head>: <title>, meta description, og:title,
// og:description, og:image, og:url, a twitter card, and the emoji as an SVG data-URI icon. A tag the
// document already has for something set here is replaced, never duplicated; a document without a
// <head> gets one. With nothing set, the document comes back unchanged.
//
// One forward scan of the document (HtmlScanner) and one copy: linear in its length whatever it holds. work, if
// given, receives the scanner's count of characters examined, so tests can check that bound.
QByteArray injectPageMetadata(const QByteArray &html, const PageMetadata &metadata, qsizetype *work = nullptr);

} // namespace berth
