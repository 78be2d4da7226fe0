// Page metadata written into a single-HTML document's <head>.
#include "domain/deploy/pagemetadata.h"

#include <QTest>

using namespace Qt::StringLiterals;
using berth::injectPageMetadata;
using berth::PageMetadata;

class TestPageMetadata : public QObject
{
    Q_OBJECT

    static PageMetadata full()
    {
        return {u"Launch \"day\""_s, u"All <about> it"_s, u"🚀"_s, u"https://example.com/card.png"_s,
            u"http://launch-day.localhost:8080/"_s};
    }

private Q_SLOTS:
    void nothingSetLeavesTheDocumentAlone()
    {
        const QByteArray html = "<html><head><title>Mine</title></head><body>x</body></html>";
        QCOMPARE(injectPageMetadata(html, PageMetadata {{}, {}, {}, {}, u"http://a-b.localhost/"_s}), html);
    }

    void everyTagIsWrittenIntoHead()
    {
        const QByteArray out
            = injectPageMetadata("<!doctype html><html><head><meta charset=utf-8></head><body>x</body></html>", full());
        QVERIFY(out.contains("<title>Launch &quot;day&quot;</title>"));
        QVERIFY(out.contains("<meta name=\"description\" content=\"All &lt;about&gt; it\">"));
        QVERIFY(out.contains("<meta property=\"og:title\" content=\"Launch &quot;day&quot;\">"));
        QVERIFY(out.contains("<meta property=\"og:description\" content=\"All &lt;about&gt; it\">"));
        QVERIFY(out.contains("<meta property=\"og:image\" content=\"https://example.com/card.png\">"));
        QVERIFY(out.contains("<meta property=\"og:url\" content=\"http://launch-day.localhost:8080/\">"));
        QVERIFY(out.contains("<meta name=\"twitter:card\" content=\"summary_large_image\">"));
        QVERIFY(out.contains("<link rel=\"icon\" href=\"data:image/svg+xml,"));
        QVERIFY(out.contains("%F0%9F%9A%80")); // the emoji, percent-encoded inside the SVG
        // Everything sits inside <head>, before </head>, and the body is intact.
        QVERIFY(out.indexOf("<title>") > out.indexOf("<head>"));
        QVERIFY(out.indexOf("og:url") < out.indexOf("</head>"));
        QVERIFY(out.endsWith("<body>x</body></html>"));
    }

    void existingTagsAreReplacedNotDuplicated()
    {
        const QByteArray html = "<html><head>\n<title>Old\ntitle</title>\n"
                                "<META NAME=\"description\" CONTENT=\"old\">\n"
                                "<meta content=\"old\" property=\"og:title\">\n"
                                "<link rel=\"shortcut icon\" href=\"/old.ico\">\n"
                                "<meta name=\"viewport\" content=\"width=device-width\">\n"
                                "</head><body></body></html>";
        const QByteArray out = injectPageMetadata(html, full());
        QCOMPARE(out.count("<title>"), 1);
        QVERIFY(!out.contains("Old"));
        QCOMPARE(out.toLower().count("name=\"description\""), 1);
        QCOMPARE(out.count("og:title"), 1);
        QVERIFY(!out.contains("/old.ico"));
        QVERIFY(out.contains("name=\"viewport\"")); // unrelated tags stay
    }

    void onlyWhatIsSetIsReplaced()
    {
        const QByteArray html = "<html><head><title>Keep me</title><link rel=icon href=/mine.png></head></html>";
        PageMetadata metadata;
        metadata.description = u"New description"_s;
        metadata.url = u"http://a-b.localhost/"_s;
        const QByteArray out = injectPageMetadata(html, metadata);
        QVERIFY(out.contains("<title>Keep me</title>"));
        QVERIFY(out.contains("href=/mine.png"));
        QVERIFY(out.contains("content=\"New description\""));
        QVERIFY(out.contains("<meta name=\"twitter:card\" content=\"summary\">"));
    }

    void documentWithoutHeadGetsOne_data()
    {
        QTest::addColumn<QByteArray>("html");
        QTest::newRow("html, no head") << QByteArray("<html><body><h1>Hi</h1></body></html>");
        QTest::newRow("fragment") << QByteArray("<h1>Hi</h1>");
        QTest::newRow("doctype fragment") << QByteArray("<!DOCTYPE html>\n<h1>Hi</h1>");
        QTest::newRow("header is not head") << QByteArray("<header>top</header><h1>Hi</h1>");
    }
    void documentWithoutHeadGetsOne()
    {
        QFETCH(QByteArray, html);
        const QByteArray out = injectPageMetadata(html, full());
        QCOMPARE(out.count("<head>"), 1);
        QCOMPARE(out.count("</head>"), 1);
        QVERIFY(out.indexOf("<title>") > out.indexOf("<head>"));
        QVERIFY(out.indexOf("<title>") < out.indexOf("<h1>Hi</h1>"));
        if (html.startsWith("<!DOCTYPE"))
            QVERIFY(out.startsWith("<!DOCTYPE html>"));
        if (html.contains("<header>"))
            QVERIFY(out.contains("<header>top</header>"));
    }
};

QTEST_APPLESS_MAIN(TestPageMetadata)
#include "tst_pagemetadata.moc"
