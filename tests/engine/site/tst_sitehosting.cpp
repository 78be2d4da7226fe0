// What a visitor's browser gets from a site, on the wire: path resolution, missing files, headers,
// conditional requests, ranges, compression, HEAD, streaming of large files, page metadata, and that no
// request path reaches anything outside the deployment.
#include "common/deployfiles.h"
#include "contentdecoder.h"
#include "engine/http/rawclient.h"
#include "enginefixture.h"
#include "gunzip.h"

#include <QJsonArray>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::base64File;
using berth::test::decodeContent;
using berth::test::EngineFixture;
using berth::test::gunzip;
using berth::test::RawResponse;
using berth::test::siteRequest;

class TestSiteHosting : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineFixture> m_fixture;
    QByteArray m_css = QByteArray("body { color: teal; }\n").repeated(40);
    QByteArray m_big; // 3 MiB, streamed from disk

    QString deploy(const QJsonObject &body) { return m_fixture->deployAsOwner(body).json()[u"id"_s].toString(); }
    RawResponse get(const QString &slug, const QByteArray &target, const QByteArray &extraHeaders = {},
        const QByteArray &method = "GET")
    {
        return siteRequest(m_fixture->client().port(), slug, target, extraHeaders, method);
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_big.resize(3 * 1024 * 1024);
        for (qsizetype i = 0; i < m_big.size(); ++i)
            m_big[i] = char((i * 7919) % 251);
        m_fixture = std::make_unique<EngineFixture>();
        QVERIFY(m_fixture->start());
        QVERIFY(!deploy({{u"slug"_s, u"full-site"_s},
                            {u"files"_s,
                                QJsonArray {base64File(u"index.html"_s, "<h1>Home</h1>"),
                                    base64File(u"about.html"_s, "<h1>About</h1>"),
                                    base64File(u"docs/index.html"_s, "<h1>Docs</h1>"),
                                    base64File(u"css/site.css"_s, m_css), base64File(u"media/video.bin"_s, m_big),
                                    base64File(u"favicon.ico"_s, QByteArray::fromHex("00000100")),
                                    base64File(u"og-image.png"_s, QByteArray::fromHex("89504e47")),
                                    base64File(u"404.html"_s, "<h1>Custom missing</h1>")}}})
                     .isEmpty());
        QVERIFY(!deploy({{u"slug"_s, u"spa-site"_s}, {u"is_spa"_s, true},
                            {u"files"_s,
                                QJsonArray {base64File(u"index.html"_s, "<div id=app></div>"),
                                    base64File(u"app.js"_s, "console.log(1)")}}})
                     .isEmpty());
        QVERIFY(!deploy({{u"slug"_s, u"bare-site"_s}, {u"files"_s, QJsonArray {base64File(u"index.html"_s, "bare")}}})
                     .isEmpty());
    }
    void cleanupTestCase() { m_fixture.reset(); }

    void resolvesIndexesAndCleanUrls_data()
    {
        QTest::addColumn<QByteArray>("target");
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("root") << QByteArray("/") << QByteArray("<h1>Home</h1>");
        QTest::newRow("index") << QByteArray("/index.html") << QByteArray("<h1>Home</h1>");
        QTest::newRow("clean") << QByteArray("/about") << QByteArray("<h1>About</h1>");
        QTest::newRow("clean slash") << QByteArray("/about/") << QByteArray("<h1>About</h1>");
        QTest::newRow("directory") << QByteArray("/docs") << QByteArray("<h1>Docs</h1>");
        QTest::newRow("directory slash") << QByteArray("/docs/") << QByteArray("<h1>Docs</h1>");
        QTest::newRow("query ignored") << QByteArray("/about?utm=1") << QByteArray("<h1>About</h1>");
        QTest::newRow("encoded once") << QByteArray("/%61bout") << QByteArray("<h1>About</h1>");
    }
    void resolvesIndexesAndCleanUrls()
    {
        QFETCH(QByteArray, target);
        QFETCH(QByteArray, body);
        const RawResponse response = get(u"full-site"_s, target);
        QCOMPARE(response.status, 200);
        QCOMPARE(response.body, body);
        QCOMPARE(response.header("content-type"), QByteArray("text/html; charset=utf-8"));
        QCOMPARE(response.header("cache-control"), QByteArray("no-cache"));
        QCOMPARE(response.header("x-content-type-options"), QByteArray("nosniff"));
    }

    void missingFiles()
    {
        RawResponse response = get(u"full-site"_s, "/nope");
        QCOMPARE(response.status, 404);
        QCOMPARE(response.body, QByteArray("<h1>Custom missing</h1>"));
        response = get(u"bare-site"_s, "/nope");
        QCOMPARE(response.status, 404);
        QVERIFY(response.body.contains("Page not found"));
        response = get(u"spa-site"_s, "/some/client/route");
        QCOMPARE(response.status, 200);
        QCOMPARE(response.body, QByteArray("<div id=app></div>"));
        QCOMPARE(get(u"spa-site"_s, "/app.js").body, QByteArray("console.log(1)"));
        response = get(u"no-such-site"_s, "/");
        QCOMPARE(response.status, 404);
        QVERIFY(response.body.contains("No site here"));
    }

    void nothingOutsideTheDeploymentIsReachable_data()
    {
        QTest::addColumn<QByteArray>("target");
        QTest::newRow("dotdot") << QByteArray("/../../../../etc/passwd");
        QTest::newRow("encoded dotdot") << QByteArray("/%2e%2e/%2e%2e/%2e%2e/etc/passwd");
        QTest::newRow("encoded slash") << QByteArray("/..%2f..%2f..%2fetc%2fpasswd");
        QTest::newRow("backslash") << QByteArray("/..%5c..%5cetc%5cpasswd");
        QTest::newRow("nul") << QByteArray("/index.html%00.png");
        QTest::newRow("dot segment") << QByteArray("/./index.html");
        QTest::newRow("blob path") << QByteArray("/../blobs");
        QTest::newRow("double encoded") << QByteArray("/%252e%252e/etc/passwd");
    }
    void nothingOutsideTheDeploymentIsReachable()
    {
        QFETCH(QByteArray, target);
        const RawResponse response = get(u"full-site"_s, target);
        QVERIFY2(response.status == 400 || response.status == 404, QByteArray::number(response.status).constData());
        QVERIFY(!response.body.contains("root:"));
        QVERIFY(!response.body.contains("<h1>Home</h1>"));
    }

    void contentTypesAndCachePolicy()
    {
        RawResponse response = get(u"full-site"_s, "/css/site.css", "Accept-Encoding: identity\r\n");
        QCOMPARE(response.status, 200);
        QCOMPARE(response.header("content-type"), QByteArray("text/css; charset=utf-8"));
        QCOMPARE(response.header("cache-control"), QByteArray("public, max-age=300"));
        QCOMPARE(response.body, m_css);
        QVERIFY(response.header("etag").startsWith('"'));
        QCOMPARE(get(u"full-site"_s, "/og-image.png").header("content-type"), QByteArray("image/png"));
        QCOMPARE(get(u"full-site"_s, "/favicon.ico").header("content-type"), QByteArray("image/x-icon"));
    }

    void etagGives304()
    {
        const RawResponse first = get(u"full-site"_s, "/css/site.css", "Accept-Encoding: identity\r\n");
        const QByteArray etag = first.header("etag");
        RawResponse again
            = get(u"full-site"_s, "/css/site.css", "Accept-Encoding: identity\r\nIf-None-Match: " + etag + "\r\n");
        QCOMPARE(again.status, 304);
        QVERIFY(again.body.isEmpty());
        QCOMPARE(again.header("etag"), etag);
        again = get(
            u"full-site"_s, "/css/site.css", "If-None-Match: \"something-else\"\r\nAccept-Encoding: identity\r\n");
        QCOMPARE(again.status, 200);
    }

    void etagListsAndWeakTags()
    {
        const QByteArray etag = get(u"full-site"_s, "/css/site.css", "Accept-Encoding: identity\r\n").header("etag");
        for (const QByteArray &list : {"\"other\", " + etag, "\"other\" ,W/" + etag + " ", QByteArray("*")}) {
            const RawResponse again
                = get(u"full-site"_s, "/css/site.css", "Accept-Encoding: identity\r\nIf-None-Match: " + list + "\r\n");
            QVERIFY2(again.status == 304, list.constData());
        }
        for (const QByteArray &list : {QByteArray("\"other\", W/\"x\""), QByteArray(",,"), etag.chopped(1)}) {
            const RawResponse again
                = get(u"full-site"_s, "/css/site.css", "Accept-Encoding: identity\r\nIf-None-Match: " + list + "\r\n");
            QVERIFY2(again.status == 200, list.constData());
        }
    }

    void acceptEncodingVariants_data()
    {
        QTest::addColumn<QByteArray>("acceptEncoding");
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("encoding"); // empty: identity
        QTest::newRow("case") << QByteArray("GZip") << 200 << QByteArray("gzip");
        QTest::newRow("x-gzip") << QByteArray("deflate, x-gzip") << 200 << QByteArray("gzip");
        QTest::newRow("weighted") << QByteArray("br;q=1.0, gzip ; q=0.5") << 200 << QByteArray("br");
        QTest::newRow("weighted gzip") << QByteArray("br;q=0.4, gzip ; q=0.5") << 200 << QByteArray("gzip");
        QTest::newRow("any") << QByteArray("*") << 200 << QByteArray("br");
        QTest::newRow("q zero") << QByteArray("gzip; q=0.000") << 200 << QByteArray();
        // identity refused too: the header is disregarded and the file goes as it is, never a 406
        QTest::newRow("any refused") << QByteArray("*;q=0") << 200 << QByteArray();
        QTest::newRow("listed before any") << QByteArray("gzip;q=0, *") << 200 << QByteArray("br");
        QTest::newRow("other codings") << QByteArray("deflate, gzipx") << 200 << QByteArray();
        QTest::newRow("empty items") << QByteArray(" , ,") << 200 << QByteArray();
    }
    void acceptEncodingVariants()
    {
        QFETCH(QByteArray, acceptEncoding);
        QFETCH(int, status);
        QFETCH(QByteArray, encoding);
        const RawResponse response
            = get(u"full-site"_s, "/css/site.css", "Accept-Encoding: " + acceptEncoding + "\r\n");
        QCOMPARE(response.status, status);
        QCOMPARE(response.header("content-encoding"), encoding);
        if (status == 200)
            QCOMPARE(decodeContent(encoding, response.body), m_css);
    }

    void headHasHeadersWithoutBody()
    {
        const RawResponse full = get(u"full-site"_s, "/css/site.css", "Accept-Encoding: identity\r\n");
        const RawResponse head = get(u"full-site"_s, "/css/site.css", "Accept-Encoding: identity\r\n", "HEAD");
        QCOMPARE(head.status, 200);
        QVERIFY(head.body.isEmpty());
        QCOMPARE(head.header("content-length"), full.header("content-length"));
        QCOMPARE(head.header("etag"), full.header("etag"));
        QCOMPARE(head.header("content-type"), full.header("content-type"));
    }

    void gzipWhenAccepted()
    {
        const RawResponse zipped = get(u"full-site"_s, "/css/site.css", "Accept-Encoding: gzip, deflate\r\n");
        QCOMPARE(zipped.status, 200);
        QCOMPARE(zipped.header("content-encoding"), QByteArray("gzip"));
        QCOMPARE(zipped.header("vary"), QByteArray("Accept-Encoding"));
        QVERIFY(zipped.body.size() < m_css.size());
        QCOMPARE(gunzip(zipped.body), m_css);
        const RawResponse plain = get(u"full-site"_s, "/css/site.css", "Accept-Encoding: gzip;q=0\r\n");
        QVERIFY(plain.header("content-encoding").isEmpty());
        QCOMPARE(plain.header("vary"), QByteArray("Accept-Encoding"));
        QCOMPARE(plain.body, m_css);
        QVERIFY(zipped.header("etag") != plain.header("etag"));
        // Already-compressed types are never gzipped.
        QVERIFY(get(u"full-site"_s, "/og-image.png", "Accept-Encoding: gzip\r\n").header("content-encoding").isEmpty());
    }

    void rangesForSeeking()
    {
        RawResponse response = get(u"full-site"_s, "/media/video.bin", "Range: bytes=100-199\r\n");
        QCOMPARE(response.status, 206);
        QCOMPARE(response.header("content-range"), "bytes 100-199/" + QByteArray::number(m_big.size()));
        QCOMPARE(response.body, m_big.mid(100, 100));
        response = get(u"full-site"_s, "/media/video.bin", "Range: bytes=-10\r\n");
        QCOMPARE(response.status, 206);
        QCOMPARE(response.body, m_big.right(10));
        response = get(u"full-site"_s, "/media/video.bin", "Range: bytes=3000000-\r\n");
        QCOMPARE(response.status, 206);
        QCOMPARE(response.body, m_big.mid(3000000));
        response = get(u"full-site"_s, "/media/video.bin", "Range: bytes=99999999-\r\n");
        QCOMPARE(response.status, 416);
        QCOMPARE(response.header("content-range"), "bytes */" + QByteArray::number(m_big.size()));
        response = get(u"full-site"_s, "/css/site.css", "Range: bytes=0-3\r\nAccept-Encoding: gzip\r\n");
        QCOMPARE(response.status, 206);
        QCOMPARE(response.header("content-encoding"), QByteArray()); // ranges apply to the identity encoding
        QCOMPARE(response.body, m_css.left(4));
        response = get(u"full-site"_s, "/css/site.css", "Range: bytes=0-3\r\nAccept-Encoding: br, zstd, gzip\r\n");
        QCOMPARE(response.status, 206);
        QCOMPARE(response.header("content-encoding"), QByteArray());
        QCOMPARE(response.body, m_css.left(4));
        response = get(u"full-site"_s, "/css/site.css", "Range: bytes=0-3\r\nIf-Range: \"stale\"\r\n");
        QCOMPARE(response.status, 200);
    }

    void largeFilesStreamWhole()
    {
        const RawResponse response = get(u"full-site"_s, "/media/video.bin");
        QCOMPARE(response.status, 200);
        QCOMPARE(response.header("accept-ranges"), QByteArray("bytes"));
        QCOMPARE(response.body.size(), m_big.size());
        QVERIFY(response.body == m_big);
    }

    void singleHtmlPagesCarryTheirMetadata()
    {
        const QString id = deploy(
            {{u"slug"_s, u"meta-page"_s}, {u"html"_s, u"<html><head><title>Old</title></head><body>Hi</body></html>"_s},
                {u"title"_s, u"Launch"_s}, {u"description"_s, u"The launch page"_s}, {u"favicon"_s, u"🚀"_s},
                {u"og_image"_s, u"https://example.com/card.png"_s}});
        QVERIFY(!id.isEmpty());
        RawResponse page = get(u"meta-page"_s, "/", "Accept-Encoding: identity\r\n");
        QCOMPARE(page.body.count("<title>"), 1);
        QVERIFY(page.body.contains("<title>Launch</title>"));
        QVERIFY(page.body.contains("<meta property=\"og:image\" content=\"https://example.com/card.png\">"));
        QVERIFY(page.body.contains("og:url\" content=\"http://meta-page.localhost:"));
        QVERIFY(page.body.contains("data:image/svg+xml"));
        QVERIFY(page.body.contains("<body>Hi</body>"));
        const QByteArray etag = page.header("etag");

        // A field change is visible at once, with a new ETag.
        QCOMPARE(m_fixture->client()
                     .api("PUT", u"/deploy/"_s + id, m_fixture->ownerKey(), QJsonObject {{u"title"_s, u"Relaunch"_s}})
                     .status,
            200);
        page = get(u"meta-page"_s, "/", "Accept-Encoding: identity\r\n");
        QVERIFY(page.body.contains("<title>Relaunch</title>"));
        QVERIFY(page.header("etag") != etag);
        const RawResponse zipped = get(u"meta-page"_s, "/", "Accept-Encoding: gzip\r\n");
        if (zipped.header("content-encoding") == "gzip")
            QCOMPARE(gunzip(zipped.body), page.body);
    }
};

QTEST_GUILESS_MAIN(TestSiteHosting)
#include "tst_sitehosting.moc"
