// Content codings on the wire: brotli, zstd and gzip variants made at deploy time, chosen by Accept-Encoding with its
// weights, each decoding to the original, each with its own ETag, conditional requests and ranges; none for content
// that does not compress; a hostile Accept-Encoding answered correctly; deployments made before brotli and zstd.
#include "common/deployfiles.h"
#include "contentdecoder.h"
#include "engine/http/rawclient.h"
#include "enginefixture.h"
#include "storage/blobstore.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QRandomGenerator>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::BlobStore;
using berth::test::base64File;
using berth::test::decodeContent;
using berth::test::EngineFixture;
using berth::test::RawResponse;
using berth::test::siteRequest;

namespace {

// Text that compresses like a site's scripts and styles: words of a small vocabulary in an order of their own.
QByteArray webText(qsizetype size, quint32 seed, int vocabulary)
{
    QRandomGenerator random(seed);
    QList<QByteArray> words;
    for (int i = 0; i < vocabulary; ++i) {
        QByteArray word;
        for (int letters = 2 + int(random.bounded(8)); letters > 0; --letters)
            word.append(char('a' + random.bounded(26)));
        words.append(word);
    }
    QByteArray text;
    text.reserve(size + 16);
    while (text.size() < size) {
        text.append(words[int(random.bounded(vocabulary))]);
        text.append(random.bounded(12) == 0 ? ";\n" : " ");
    }
    text.truncate(size);
    return text;
}

const QList<QByteArray> kEncodings {"br", "zstd", "gzip", ""}; // "" is identity

} // namespace

class TestEncodings : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineFixture> m_fixture;
    const QByteArray m_css = webText(20000, 7, 300); // a small file: served from memory
    const QByteArray m_big = webText(3 * 1024 * 1024, 11, 20000); // variants over 512 KiB: streamed from disk
    QByteArray m_png; // a PNG's signature and bytes that do not compress
    QString m_siteId;

    RawResponse get(const QString &slug, const QByteArray &target, const QByteArray &extraHeaders = {},
        const QByteArray &method = "GET")
    {
        return siteRequest(m_fixture->client().port(), slug, target, extraHeaders, method);
    }
    RawResponse getEncoded(const QByteArray &target, const QByteArray &acceptEncoding, const QByteArray &more = {})
    {
        return get(u"coded-site"_s, target, "Accept-Encoding: " + acceptEncoding + "\r\n" + more);
    }
    QString deploy(const QJsonObject &body) { return m_fixture->deployAsOwner(body).json()[u"id"_s].toString(); }
    QJsonArray siteFiles() const
    {
        return QJsonArray {base64File(u"index.html"_s, "<h1>Coded</h1>"), base64File(u"site.css"_s, m_css),
            base64File(u"big.js"_s, m_big), base64File(u"image.png"_s, m_png)};
    }
    QString variantPath(const QByteArray &content, const QByteArray &suffix) const
    {
        const QByteArray hash = BlobStore::hashOf(content);
        return m_fixture->dataDir() + u"/blobs/"_s + QLatin1String(hash.left(2)) + u'/' + QLatin1String(hash.mid(2))
            + u'.' + QLatin1String(suffix);
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_png = QByteArray::fromHex("89504e470d0a1a0a");
        QRandomGenerator random(3);
        for (int i = 0; i < 4096; ++i)
            m_png.append(char(random.bounded(256)));
        m_fixture = std::make_unique<EngineFixture>();
        QVERIFY(m_fixture->start());
        m_siteId = deploy({{u"slug"_s, u"coded-site"_s}, {u"files"_s, siteFiles()}});
        QVERIFY(!m_siteId.isEmpty());
    }
    void cleanupTestCase() { m_fixture.reset(); }

    void chosenByAcceptEncoding_data()
    {
        QTest::addColumn<QByteArray>("acceptEncoding");
        QTest::addColumn<QByteArray>("expected"); // Content-Encoding; empty for identity
        QTest::newRow("all three") << QByteArray("gzip, deflate, br, zstd") << QByteArray("br");
        QTest::newRow("zstd and gzip") << QByteArray("zstd, gzip") << QByteArray("zstd");
        QTest::newRow("gzip only") << QByteArray("gzip") << QByteArray("gzip");
        QTest::newRow("br refused") << QByteArray("br;q=0, gzip") << QByteArray("gzip");
        QTest::newRow("weights") << QByteArray("br;q=0.5, zstd;q=0.8, gzip;q=0.3") << QByteArray("zstd");
        QTest::newRow("weight over order") << QByteArray("br;q=0.9, gzip") << QByteArray("gzip");
        QTest::newRow("any weighted") << QByteArray("*;q=0.5") << QByteArray("br");
        QTest::newRow("any") << QByteArray("*") << QByteArray("br");
        QTest::newRow("any but gzip") << QByteArray("gzip;q=0, *") << QByteArray("br");
        QTest::newRow("any but two") << QByteArray("br;q=0, zstd;q=0, *;q=0.1") << QByteArray("gzip");
        QTest::newRow("case") << QByteArray("BR;Q=1") << QByteArray("br");
        QTest::newRow("x-gzip") << QByteArray("deflate, x-gzip") << QByteArray("gzip");
        QTest::newRow("empty items") << QByteArray(" , ,zstd ,,") << QByteArray("zstd");
        QTest::newRow("malformed weight ignored") << QByteArray("br;q=1.5, gzip") << QByteArray("gzip");
        QTest::newRow("identity preferred") << QByteArray("identity;q=1, br;q=0.9") << QByteArray();
        QTest::newRow("identity tie") << QByteArray("identity, gzip") << QByteArray("gzip");
        QTest::newRow("identity") << QByteArray("identity") << QByteArray();
        QTest::newRow("unknown codings") << QByteArray("deflate, compress") << QByteArray();
        QTest::newRow("all refused") << QByteArray("br;q=0, zstd;q=0, gzip;q=0") << QByteArray();
        QTest::newRow("identity refused") << QByteArray("identity;q=0, gzip") << QByteArray("gzip");
        QTest::newRow("least weight") << QByteArray("br;q=0.001, identity;q=0") << QByteArray("br");
        QTest::newRow("any refused, identity kept") << QByteArray("*;q=0, identity") << QByteArray();
        QTest::newRow("empty") << QByteArray() << QByteArray();
    }
    void chosenByAcceptEncoding()
    {
        QFETCH(QByteArray, acceptEncoding);
        QFETCH(QByteArray, expected);
        for (const QByteArray &target : {QByteArray("/site.css"), QByteArray("/big.js")}) {
            const QByteArray original = target == "/site.css" ? m_css : m_big;
            const RawResponse response = getEncoded(target, acceptEncoding);
            QCOMPARE(response.status, 200);
            QCOMPARE(response.header("content-encoding"), expected);
            QCOMPARE(response.header("vary"), QByteArray("Accept-Encoding"));
            QCOMPARE(response.header("content-length"), QByteArray::number(response.body.size()));
            if (!expected.isEmpty()) // kept only where it saves at least a tenth
                QVERIFY2(response.body.size() * 10 <= original.size() * 9, target.constData());
            QVERIFY2(decodeContent(expected, response.body) == original, target.constData());
        }
    }

    void noHeaderIsIdentity()
    {
        const RawResponse response = get(u"coded-site"_s, "/site.css");
        QCOMPARE(response.status, 200);
        QVERIFY(response.header("content-encoding").isEmpty());
        QCOMPARE(response.header("vary"), QByteArray("Accept-Encoding"));
        QCOMPARE(response.body, m_css);
    }

    void noAcceptableEncodingSendsTheFileAsItIs_data()
    {
        QTest::addColumn<QByteArray>("acceptEncoding");
        QTest::newRow("identity refused") << QByteArray("identity;q=0");
        QTest::newRow("identity refused, unknown coding") << QByteArray("identity;q=0, deflate");
        QTest::newRow("any refused") << QByteArray("*;q=0");
        QTest::newRow("each refused") << QByteArray("br;q=0, zstd;q=0, gzip;q=0, identity;q=0");
    }
    void noAcceptableEncodingSendsTheFileAsItIs()
    {
        // RFC 9110 lets a server disregard the header rather than answer 406: a visitor always gets the page.
        QFETCH(QByteArray, acceptEncoding);
        const RawResponse response = getEncoded("/site.css", acceptEncoding);
        QCOMPARE(response.status, 200);
        QCOMPARE(response.header("vary"), QByteArray("Accept-Encoding"));
        QVERIFY(response.header("content-encoding").isEmpty());
        QCOMPARE(response.body, m_css);
        const RawResponse missing = getEncoded("/nothing-here", acceptEncoding);
        QCOMPARE(missing.status, 404);
        QVERIFY(missing.header("content-encoding").isEmpty());
        QVERIFY(!missing.body.isEmpty());
    }

    void eachEncodingHasItsOwnEtag()
    {
        QHash<QByteArray, QByteArray> etags; // by encoding
        for (const QByteArray &encoding : kEncodings) {
            const QByteArray accept = encoding.isEmpty() ? QByteArray("identity") : encoding;
            const RawResponse first = getEncoded("/site.css", accept);
            QCOMPARE(first.header("content-encoding"), encoding);
            const QByteArray etag = first.header("etag");
            QVERIFY(etag.startsWith('"') && etag.endsWith('"'));
            QCOMPARE(getEncoded("/site.css", accept).header("etag"), etag); // stable
            etags.insert(encoding, etag);
        }
        QCOMPARE(QSet<QByteArray>(etags.cbegin(), etags.cend()).size(), kEncodings.size());

        for (const QByteArray &encoding : kEncodings) {
            const QByteArray accept = encoding.isEmpty() ? QByteArray("identity") : encoding;
            const QByteArray etag = etags.value(encoding);
            // Its own ETag: 304, with that ETag and no body.
            RawResponse response = getEncoded("/site.css", accept, "If-None-Match: " + etag + "\r\n");
            QCOMPARE(response.status, 304);
            QCOMPARE(response.header("etag"), etag);
            QVERIFY(response.body.isEmpty());
            response = getEncoded("/site.css", accept, "If-None-Match: \"other\", W/" + etag + "\r\n");
            QCOMPARE(response.status, 304);
            // Another encoding's ETag: the whole body in this encoding.
            for (const QByteArray &other : kEncodings) {
                if (other == encoding)
                    continue;
                response = getEncoded("/site.css", accept, "If-None-Match: " + etags.value(other) + "\r\n");
                QCOMPARE(response.status, 200);
                QCOMPARE(response.header("etag"), etag);
                QVERIFY(decodeContent(encoding, response.body) == m_css);
            }
        }
    }

    void rangesApplyToTheIdentityEncoding_data()
    {
        QTest::addColumn<QByteArray>("target");
        QTest::addColumn<QByteArray>("encoding");
        for (const QByteArray &target : {QByteArray("/site.css"), QByteArray("/big.js")}) {
            for (const QByteArray &encoding : kEncodings)
                QTest::addRow("%s %s", target.constData(), encoding.isEmpty() ? "identity" : encoding.constData())
                    << target << encoding;
        }
    }
    void rangesApplyToTheIdentityEncoding()
    {
        // A range never mixes encodings: resumed downloads and seeking always get the file's own bytes, whatever
        // Accept-Encoding says, and If-Range compares with the identity ETag.
        QFETCH(QByteArray, target);
        QFETCH(QByteArray, encoding);
        const QByteArray accept = encoding.isEmpty() ? QByteArray("identity") : encoding;
        const QByteArray original = target == "/site.css" ? m_css : m_big;
        const RawResponse plain = getEncoded(target, "identity");
        const QByteArray etag = plain.header("etag");
        const QByteArray total = QByteArray::number(original.size());
        QCOMPARE(plain.body, original);

        RawResponse part = getEncoded(target, accept, "Range: bytes=100-199\r\n");
        QCOMPARE(part.status, 206);
        QVERIFY(part.header("content-encoding").isEmpty());
        QCOMPARE(part.header("content-range"), "bytes 100-199/" + total);
        QCOMPARE(part.header("etag"), etag);
        QCOMPARE(part.body, original.mid(100, 100));
        part = getEncoded(target, accept, "Range: bytes=-10\r\n");
        QCOMPARE(part.status, 206);
        QCOMPARE(part.body, original.right(10));
        part = getEncoded(target, accept, "Range: bytes=0-9\r\nIf-Range: " + etag + "\r\n");
        QCOMPARE(part.status, 206);
        QCOMPARE(part.body, original.left(10));
        // An If-Range naming an encoded representation's ETag is not this one's: the whole, in the chosen encoding.
        const QByteArray encodedEtag = getEncoded(target, "br").header("etag");
        QVERIFY(encodedEtag != etag);
        part = getEncoded(target, accept, "Range: bytes=0-9\r\nIf-Range: " + encodedEtag + "\r\n");
        QCOMPARE(part.status, 200);
        QCOMPARE(part.header("content-encoding"), encoding);
        QVERIFY(decodeContent(encoding, part.body) == original);
        part = getEncoded(target, accept, "Range: bytes=" + total + "-\r\n");
        QCOMPARE(part.status, 416);
        QCOMPARE(part.header("content-range"), "bytes */" + total);
    }

    void headSendsTheChosenEncodingsLength()
    {
        for (const QByteArray &encoding : kEncodings) {
            const QByteArray accept = encoding.isEmpty() ? QByteArray("identity") : encoding;
            const RawResponse full = getEncoded("/site.css", accept);
            const RawResponse head = get(u"coded-site"_s, "/site.css", "Accept-Encoding: " + accept + "\r\n", "HEAD");
            QCOMPARE(head.status, 200);
            QCOMPARE(head.header("content-encoding"), encoding);
            QCOMPARE(head.header("content-length"), QByteArray::number(full.body.size()));
            QCOMPARE(head.header("etag"), full.header("etag"));
            QVERIFY(head.body.isEmpty());
        }
    }

    void incompressibleContentHasNoVariants()
    {
        for (const QByteArray &accept : {QByteArray("br, zstd, gzip"), QByteArray("*"), QByteArray("zstd")}) {
            const RawResponse response = getEncoded("/image.png", accept);
            QCOMPARE(response.status, 200);
            QVERIFY(response.header("content-encoding").isEmpty());
            QVERIFY(response.header("vary").isEmpty()); // its answer never depends on Accept-Encoding
            QCOMPARE(response.header("content-type"), QByteArray("image/png"));
            QVERIFY(response.body == m_png);
        }
        for (const QByteArray suffix : {"br", "zst", "gz"}) {
            QVERIFY2(!QFile::exists(variantPath(m_png, suffix)), suffix.constData());
            QVERIFY2(QFile::exists(variantPath(m_css, suffix)) || qEnvironmentVariableIsSet("BERTH_TEST_DATABASE"),
                suffix.constData());
        }
    }

    void singlePagesAreEncodedToo()
    {
        QString page = u"<!doctype html><html><head><title>One page</title></head><body>"_s;
        for (int i = 0; i < 60; ++i)
            page += u"<p class=\"line\">Paragraph %1 of a page written by hand.</p>\n"_s.arg(i);
        page += u"</body></html>"_s;
        QVERIFY(!deploy({{u"slug"_s, u"one-page"_s}, {u"html"_s, page}, {u"title"_s, u"Rendered"_s}}).isEmpty());
        const RawResponse plain = get(u"one-page"_s, "/", "Accept-Encoding: identity\r\n");
        QCOMPARE(plain.status, 200);
        QVERIFY(plain.body.contains("<title>Rendered</title>"));
        QSet<QByteArray> etags {plain.header("etag")};
        for (const QByteArray encoding : {"br", "zstd", "gzip"}) {
            const RawResponse encoded = get(u"one-page"_s, "/", "Accept-Encoding: " + encoding + "\r\n");
            QCOMPARE(encoded.status, 200);
            QCOMPARE(encoded.header("content-encoding"), encoding);
            QCOMPARE(encoded.header("vary"), QByteArray("Accept-Encoding"));
            QVERIFY(decodeContent(encoding, encoded.body) == plain.body);
            etags.insert(encoded.header("etag"));
            const RawResponse again = get(u"one-page"_s, "/",
                "Accept-Encoding: " + encoding + "\r\nIf-None-Match: " + encoded.header("etag") + "\r\n");
            QCOMPARE(again.status, 304);
        }
        QCOMPARE(etags.size(), 4);
    }

    void hostileAcceptEncodingIsAnsweredCorrectly()
    {
        // Over the front door's limit of a request head: refused before any parse.
        RawResponse response = getEncoded("/site.css", QByteArray(100 * 1024, ','));
        QCOMPARE(response.status, 431);
        // 10,000 items, all empty but the last: within the head's limit, beyond Accept-Encoding's own, so disregarded.
        response = getEncoded("/site.css", QByteArray(10000, ',') + "br");
        QCOMPARE(response.status, 200);
        QVERIFY(response.header("content-encoding").isEmpty());
        QCOMPARE(response.header("vary"), QByteArray("Accept-Encoding"));
        QVERIFY(response.body == m_css);
        // Several thousand items of unknown codings, refusals and malformed weights: disregarded too.
        response = getEncoded("/site.css", QByteArray("x;q=0.5,").repeated(1500) + "identity;q=0");
        QCOMPARE(response.status, 200);
        QVERIFY(response.header("content-encoding").isEmpty());
        QVERIFY(response.body == m_css);
        response = getEncoded("/site.css", QByteArray("br;q=0;q=;q=9;;;,").repeated(800));
        QCOMPARE(response.status, 200);
        QVERIFY(response.body == m_css);
        // The bound itself: 32 items are read, the 33rd makes the header disregarded.
        response = getEncoded("/site.css", QByteArray("x, ").repeated(31) + "br");
        QCOMPARE(response.header("content-encoding"), QByteArray("br"));
        response = getEncoded("/site.css", QByteArray("x, ").repeated(32) + "br");
        QVERIFY(response.header("content-encoding").isEmpty());
        // Empty items do not count: many of them within the length bound still let the coding through.
        response = getEncoded("/site.css", QByteArray(" ,").repeated(400) + "zstd");
        QCOMPARE(response.header("content-encoding"), QByteArray("zstd"));
        QVERIFY(decodeContent("zstd", response.body) == m_css);
        // And the server goes on answering.
        QCOMPARE(getEncoded("/site.css", "gzip").header("content-encoding"), QByteArray("gzip"));
    }

    void deploymentsWithoutTheNewVariantsKeepWorking()
    {
        if (qEnvironmentVariableIsSet("BERTH_TEST_DATABASE"))
            QSKIP("the variants live in the database there; this test removes them from the folder");
        // As a deployment made before brotli and zstd: only the gzip variant beside the blob.
        for (const QByteArray suffix : {"br", "zst"}) {
            QVERIFY(QFile::remove(variantPath(m_css, suffix)));
            QVERIFY(QFile::remove(variantPath(m_big, suffix)));
        }
        QVERIFY(m_fixture->restart());
        RawResponse response = getEncoded("/site.css", "br, zstd, gzip");
        QCOMPARE(response.status, 200);
        QCOMPARE(response.header("content-encoding"), QByteArray("gzip"));
        QVERIFY(decodeContent("gzip", response.body) == m_css);
        response = getEncoded("/site.css", "br, zstd");
        QCOMPARE(response.status, 200);
        QVERIFY(response.header("content-encoding").isEmpty());
        QVERIFY(response.body == m_css);

        // The next deploy that sends the content makes the missing variants.
        const auto reply = m_fixture->client().api(
            "PUT", u"/deploy/"_s + m_siteId, m_fixture->ownerKey(), QJsonObject {{u"files"_s, siteFiles()}});
        QCOMPARE(reply.status, 200);
        for (const QByteArray &encoding : {QByteArray("br"), QByteArray("zstd")}) {
            response = getEncoded("/site.css", encoding + ", gzip");
            QCOMPARE(response.header("content-encoding"), encoding);
            QVERIFY(decodeContent(encoding, response.body) == m_css);
            response = getEncoded("/big.js", encoding);
            QCOMPARE(response.header("content-encoding"), encoding);
            QVERIFY(decodeContent(encoding, response.body) == m_big);
        }
    }
};

QTEST_GUILESS_MAIN(TestEncodings)
#include "tst_encodings.moc"
