// The single-pass HTML scanner behind page metadata and document titles: what it finds, and that its work stays
// linear in the document's length on hostile pages.
#include "domain/deploy/htmlscanner.h"
#include "domain/deploy/pagemetadata.h"

#include <QElapsedTimer>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;

class TestHtmlScanner : public QObject
{
    Q_OBJECT

    static PageMetadata titled(const QString &title)
    {
        PageMetadata metadata;
        metadata.title = title;
        metadata.url = u"http://a-b.localhost/"_s;
        return metadata;
    }

    // `<title>t</title>` followed by "<meta " until the page has about `bytes` bytes: a tag that never closes.
    static QByteArray hostilePage(qsizetype bytes)
    {
        QByteArray page = "<title>t</title>";
        page.reserve(bytes + 8);
        while (page.size() < bytes)
            page += "<meta ";
        return page;
    }

private Q_SLOTS:
    void yieldsTagsAndAttributes()
    {
        const QString html = u"<!DOCTYPE html><!-- <title>no</title> --><HTML lang=en><head>"
                             "<meta content='a > b' NAME=\"Description\"><script>if (a<b) '<title>no</title>'</script>"
                             "</head></html>"_s;
        HtmlScanner scanner(html);
        HtmlTag tag;
        QStringList seen;
        while (scanner.next(tag))
            seen << (tag.closing ? u"/"_s : QString()) + tag.name.toString().toLower();
        QCOMPARE(
            seen, (QStringList {u"html"_s, u"head"_s, u"meta"_s, u"script"_s, u"/script"_s, u"/head"_s, u"/html"_s}));

        HtmlScanner again(html);
        while (again.next(tag) && !tag.isNamed("meta"_L1)) { }
        QCOMPARE(tag.attribute("name"_L1).toString(), u"Description"_s);
        QCOMPARE(tag.attribute("content"_L1).toString(), u"a > b"_s);
        QVERIFY(tag.attribute("property"_L1).isNull());
    }

    void documentTitle_data()
    {
        QTest::addColumn<QString>("html");
        QTest::addColumn<QString>("title");
        QTest::newRow("plain") << u"<title>Hello</title>"_s << u"Hello"_s;
        QTest::newRow("attributes and case") << u"<TITLE id=x>  Two\n words </TiTlE >"_s << u"Two words"_s;
        QTest::newRow("references") << u"<title>A &amp; B &#169; &#x263A; &lt;3</title>"_s
                                    << u"A & B \u00a9 \u263a <3"_s;
        QTest::newRow("unknown reference stays") << u"<title>&bogus; &amp</title>"_s << u"&bogus; &amp"_s;
        QTest::newRow("first only") << u"<title>One</title><title>Two</title>"_s << u"One"_s;
        QTest::newRow("in a comment") << u"<!-- <title>No</title> --><title>Yes</title>"_s << u"Yes"_s;
        QTest::newRow("in a script") << u"<script>x='<title>No</title>'</script><title>Yes</title>"_s << u"Yes"_s;
        QTest::newRow("unclosed") << u"<title>Never ends"_s << QString();
        QTest::newRow("none") << u"<h1>Hi</h1>"_s << QString();
    }
    void documentTitle()
    {
        QFETCH(QString, html);
        QFETCH(QString, title);
        QCOMPARE(berth::documentTitle(html), title);
    }

    // A hostile page: a tag that never closes, repeated. The scanner examines each character a bounded number
    // of times, so the work counter, not a clock, proves the bound.
    void hostilePageIsLinear_data()
    {
        QTest::addColumn<qsizetype>("bytes");
        QTest::newRow("220 KB") << qsizetype(220 * 1024);
        QTest::newRow("5 MB") << qsizetype(5 * 1024 * 1024);
    }
    void hostilePageIsLinear()
    {
        QFETCH(qsizetype, bytes);
        const QByteArray page = hostilePage(bytes);
        QElapsedTimer timer;
        timer.start();
        qsizetype work = 0;
        const QByteArray out = injectPageMetadata(page, titled(u"Mine"_s), &work);
        QVERIFY2(work <= 4 * page.size(), qPrintable(u"work %1 for %2 bytes"_s.arg(work).arg(page.size())));
        QVERIFY(work >= page.size() / 2); // it did read the page
        // Rendered correctly: the document's title is replaced and the rest is kept as it was.
        QVERIFY(out.startsWith("<head>\n<title>Mine</title>"));
        QVERIFY(!out.contains("<title>t</title>"));
        QVERIFY(out.endsWith("<meta <meta "));
        QCOMPARE(out.count("<meta "), page.count("<meta ") + 4); // og:title, twitter:title, og:url, twitter:card

        qsizetype titleWork = 0;
        QCOMPARE(berth::documentTitle(QString::fromUtf8(page), &titleWork), u"t"_s);
        QVERIFY(titleWork <= 4 * page.size());
        QVERIFY2(timer.elapsed() < 5000, "far beyond any linear cost on a busy machine");
    }

    // Other shapes that made backtracking patterns slow: many attributes, unclosed quotes and comments, many '<'.
    void otherHostileShapesAreLinear_data()
    {
        QTest::addColumn<QByteArray>("page");
        const int n = 200000;
        QTest::newRow("unclosed quote") << "<head><meta name=\"" + QByteArray(n, 'x');
        QTest::newRow("unclosed comment") << "<head><!--" + QByteArray(n, '-');
        QTest::newRow("many lone <") << "<head>" + QByteArray(n, '<');
        QTest::newRow("many end-tag starts in a script") << "<script>" + QByteArray("</scrip").repeated(n / 7);
        QTest::newRow("meta with many attributes") << "<meta " + QByteArray("name=og:title ").repeated(n / 14) + ">";
        QTest::newRow("many titles") << QByteArray("<title>t</title>").repeated(n / 16);
    }
    void otherHostileShapesAreLinear()
    {
        QFETCH(QByteArray, page);
        qsizetype work = 0;
        const QByteArray out = injectPageMetadata(page, titled(u"Mine"_s), &work);
        QVERIFY2(work <= 4 * page.size(), qPrintable(u"work %1 for %2 bytes"_s.arg(work).arg(page.size())));
        QCOMPARE(out.count("<title>Mine</title>"), 1);
    }
};

QTEST_APPLESS_MAIN(TestHtmlScanner)
#include "tst_htmlscanner.moc"
