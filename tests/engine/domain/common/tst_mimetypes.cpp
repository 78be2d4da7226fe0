#include "domain/common/mimetypes.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;

class TestMimeTypes final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void forPath_data();
    void forPath();
    void forPathFallsBackToSystemDatabase();
    void isCompressible_data();
    void isCompressible();
    void normaliseDeclared_data();
    void normaliseDeclared();
};

void TestMimeTypes::forPath_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QByteArray>("expected");

    const QByteArray utf8 = "; charset=utf-8"_ba;
    QTest::newRow("html") << u"index.html"_s << "text/html"_ba + utf8;
    QTest::newRow("htm, uppercase") << u"OLD.HTM"_s << "text/html"_ba + utf8;
    QTest::newRow("css nested") << u"assets/css/site.css"_s << "text/css"_ba + utf8;
    QTest::newRow("js") << u"app.js"_s << "text/javascript"_ba + utf8;
    QTest::newRow("mjs") << u"mod.mjs"_s << "text/javascript"_ba + utf8;
    QTest::newRow("json") << u"data.json"_s << "application/json"_ba + utf8;
    QTest::newRow("map") << u"app.js.map"_s << "application/json"_ba + utf8;
    QTest::newRow("webmanifest") << u"site.webmanifest"_s << "application/manifest+json"_ba + utf8;
    QTest::newRow("xml") << u"sitemap.xml"_s << "application/xml"_ba + utf8;
    QTest::newRow("txt") << u"robots.txt"_s << "text/plain"_ba + utf8;
    QTest::newRow("svg") << u"logo.svg"_s << "image/svg+xml"_ba + utf8;
    QTest::newRow("png") << u"a.png"_s << "image/png"_ba;
    QTest::newRow("jpg") << u"a.jpg"_s << "image/jpeg"_ba;
    QTest::newRow("jpeg") << u"a.JPEG"_s << "image/jpeg"_ba;
    QTest::newRow("gif") << u"a.gif"_s << "image/gif"_ba;
    QTest::newRow("webp") << u"a.webp"_s << "image/webp"_ba;
    QTest::newRow("avif") << u"a.avif"_s << "image/avif"_ba;
    QTest::newRow("ico") << u"favicon.ico"_s << "image/x-icon"_ba;
    QTest::newRow("wasm") << u"a.wasm"_s << "application/wasm"_ba;
    QTest::newRow("woff") << u"f.woff"_s << "font/woff"_ba;
    QTest::newRow("woff2") << u"f.woff2"_s << "font/woff2"_ba;
    QTest::newRow("ttf") << u"f.ttf"_s << "font/ttf"_ba;
    QTest::newRow("otf") << u"f.otf"_s << "font/otf"_ba;
    QTest::newRow("mp4") << u"v.mp4"_s << "video/mp4"_ba;
    QTest::newRow("webm") << u"v.webm"_s << "video/webm"_ba;
    QTest::newRow("mp3") << u"s.mp3"_s << "audio/mpeg"_ba;
    QTest::newRow("ogg") << u"s.ogg"_s << "audio/ogg"_ba;
    QTest::newRow("wav") << u"s.wav"_s << "audio/wav"_ba;
    QTest::newRow("pdf") << u"doc.pdf"_s << "application/pdf"_ba;
    QTest::newRow("no extension") << u"LICENSE"_s << "application/octet-stream"_ba;
    QTest::newRow("dot in folder only") << u"v1.2/berthblob"_s << "application/octet-stream"_ba;
    QTest::newRow("unknown extension") << u"blob.berthunknownext"_s << "application/octet-stream"_ba;
    QTest::newRow("trailing dot") << u"file."_s << "application/octet-stream"_ba;
}

void TestMimeTypes::forPath()
{
    QFETCH(QString, path);
    QFETCH(QByteArray, expected);
    QCOMPARE(MimeTypes::forPath(path), expected);
}

void TestMimeTypes::forPathFallsBackToSystemDatabase()
{
    // Not in the built-in table; the shared-mime-info database (a Qt Core dependency) knows it.
    const QByteArray csv = MimeTypes::forPath(u"table.csv"_s);
    QVERIFY2(csv.startsWith("text/") && csv.endsWith("; charset=utf-8"), csv.constData());
    QCOMPARE(MimeTypes::forPath(u"archive.zip"_s), "application/zip"_ba);
}

void TestMimeTypes::isCompressible_data()
{
    QTest::addColumn<QByteArray>("type");
    QTest::addColumn<bool>("compressible");

    QTest::newRow("html") << "text/html; charset=utf-8"_ba << true;
    QTest::newRow("css, uppercase") << "TEXT/CSS"_ba << true;
    QTest::newRow("js") << "text/javascript"_ba << true;
    QTest::newRow("legacy js") << "application/javascript"_ba << true;
    QTest::newRow("json") << "application/json; charset=utf-8"_ba << true;
    QTest::newRow("ld+json") << "application/ld+json"_ba << true;
    QTest::newRow("xml") << "application/xml"_ba << true;
    QTest::newRow("svg") << "image/svg+xml"_ba << true;
    QTest::newRow("wasm") << "application/wasm"_ba << true;
    QTest::newRow("manifest") << "application/manifest+json"_ba << true;
    QTest::newRow("ttf") << "font/ttf"_ba << true;
    QTest::newRow("otf") << "font/otf"_ba << true;
    QTest::newRow("png") << "image/png"_ba << false;
    QTest::newRow("jpeg") << "image/jpeg"_ba << false;
    QTest::newRow("webp") << "image/webp"_ba << false;
    QTest::newRow("avif") << "image/avif"_ba << false;
    QTest::newRow("woff") << "font/woff"_ba << false;
    QTest::newRow("woff2") << "font/woff2"_ba << false;
    QTest::newRow("mp4") << "video/mp4"_ba << false;
    QTest::newRow("mp3") << "audio/mpeg"_ba << false;
    QTest::newRow("zip") << "application/zip"_ba << false;
    QTest::newRow("octet-stream") << "application/octet-stream"_ba << false;
    QTest::newRow("empty") << QByteArray() << false;
}

void TestMimeTypes::isCompressible()
{
    QFETCH(QByteArray, type);
    QFETCH(bool, compressible);
    QCOMPARE(MimeTypes::isCompressible(type), compressible);
}

void TestMimeTypes::normaliseDeclared_data()
{
    QTest::addColumn<QString>("declared");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QByteArray>("expected");

    const QString png = u"image.png"_s;
    QTest::newRow("plain") << u"image/png"_s << u"x.bin"_s << "image/png"_ba;
    QTest::newRow("trimmed, lowercased") << u"  Image/PNG  "_s << u"x.bin"_s << "image/png"_ba;
    QTest::newRow("text gets charset") << u"text/html"_s << png << "text/html; charset=utf-8"_ba;
    QTest::newRow("json gets charset") << u"application/json"_s << png << "application/json; charset=utf-8"_ba;
    QTest::newRow("charset kept") << u"text/plain; charset=iso-8859-1"_s << png << "text/plain; charset=iso-8859-1"_ba;
    QTest::newRow("charset any case") << u"text/plain;CHARSET=UTF-8"_s << png << "text/plain; CHARSET=UTF-8"_ba;
    QTest::newRow("other param") << u"text/csv; header=present"_s << png
                                 << "text/csv; header=present; charset=utf-8"_ba;
    QTest::newRow("quoted param") << u"application/x-foo; name=\"a; b\""_s << png
                                  << "application/x-foo; name=\"a; b\""_ba;
    QTest::newRow("trailing semicolon") << u"image/gif;"_s << png << "image/gif"_ba;

    QTest::newRow("empty -> path") << QString() << png << "image/png"_ba;
    QTest::newRow("blank -> path") << u"   "_s << u"a.css"_s << "text/css; charset=utf-8"_ba;
    QTest::newRow("no subtype") << u"text"_s << png << "image/png"_ba;
    QTest::newRow("empty subtype") << u"text/"_s << png << "image/png"_ba;
    QTest::newRow("two slashes") << u"text/html/x"_s << png << "image/png"_ba;
    QTest::newRow("header injection") << u"text/html\r\nSet-Cookie: a=b"_s << png << "image/png"_ba;
    QTest::newRow("nul") << QString(u"text/html\u0000"_s) << png << "image/png"_ba;
    QTest::newRow("non-ascii") << u"text/htmł"_s << png << "image/png"_ba;
    QTest::newRow("space inside") << u"text /html"_s << png << "image/png"_ba;
    QTest::newRow("bad param") << u"text/html; charset"_s << png << "image/png"_ba;
    QTest::newRow("unterminated quote") << u"text/html; a=\"b"_s << png << "image/png"_ba;
    QTest::newRow("too long") << (u"application/x-"_s + QString(190, u'a')) << png << "image/png"_ba;
    QTest::newRow("200 chars") << (u"application/x-"_s + QString(186, u'a')) << png
                               << (u"application/x-"_s + QString(186, u'a')).toLatin1();
}

void TestMimeTypes::normaliseDeclared()
{
    QFETCH(QString, declared);
    QFETCH(QString, path);
    QFETCH(QByteArray, expected);
    QCOMPARE(MimeTypes::normaliseDeclared(declared, path), expected);
}

QTEST_APPLESS_MAIN(TestMimeTypes)
#include "tst_mimetypes.moc"
