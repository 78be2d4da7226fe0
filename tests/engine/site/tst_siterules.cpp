// A deployment's _redirects and _headers on the wire: Netlify's documented examples as a table, shadowing and "!",
// Berth's own headers staying put, bad lines reported by the deploy (with line numbers), and a hostile rules file.
#include "common/deployfiles.h"
#include "engine/http/rawclient.h"
#include "enginefixture.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::base64File;
using berth::test::EngineFixture;
using berth::test::RawClient;
using berth::test::RawResponse;

namespace {

// Rules from Netlify's documentation of _redirects (status codes, splats, placeholders, rule order, shadowing),
// with a few of Berth's own around them.
constexpr const char *kRedirects = R"(# Redirects from what the browser requests to what we serve
/home              /
/blog/my-post.php  /blog/my-post
/news              /blog
/cuties            https://www.petsofnetlify.com
/authors/c%C3%A9line /authors/about-c%C3%A9line

/my-redirect       /              302
/temporary         /new-place     307
/permanent         /new-place     308
/see-other         /new-place     303
/ecommerce         /store-closed  404
/pass-through      /index.html    200

# splats and placeholders
/news/*            /blog/:splat
/articles/:year/:month/:date/:slug  /blog/:year/:month/:date/:slug
/posts/:year/:slug /blog-:year-:slug.html 200
/docs/*            https://docs.example.com/:splat 301
/go/:name          /:name

# the first match wins
/jobs/customer-ninja-rockstar  /careers/support-engineer
/jobs/*                        /careers/:splat

# a file of that path wins over a rule, unless the rule says "!"
/about             /elsewhere     301
/forced            /elsewhere     301!
/old.html          /index.html    200!
/en/*              /en/404.html   404
/app/*             /app/index.html 200
/search            /find?q=berth  302
/nowhere           /missing.html  200
)";

constexpr const char *kHeaders = R"(# Headers from Netlify's documentation, and a placeholder of Berth's tests
/*
  X-Frame-Options: DENY
  X-XSS-Protection: 1; mode=block
  Link: </style.css>; rel=preload; as=style
  Link: </script.js>; rel=preload; as=script
/assets/*
  Cache-Control: public, max-age=31536000, immutable
/templates/index.html
  Content-Security-Policy: default-src 'self'
  X-Frame-Options: SAMEORIGIN
/blog/:slug
  X-Blog-Post: yes
/about
  X-Content-Type-Options: nosniff
)";

} // namespace

class TestSiteRules : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineFixture> m_fixture;

    berth::test::TestReply deploy(const QString &slug, const QJsonArray &files, bool protect = false)
    {
        QJsonObject body {{u"slug"_s, slug}, {u"files"_s, files}};
        if (protect)
            body.insert(u"protect"_s, true);
        return m_fixture->client().api("POST", u"/deploy"_s, m_fixture->ownerKey(), body);
    }
    RawResponse get(const QString &slug, const QByteArray &target, const QByteArray &extraHeaders = {})
    {
        RawClient client;
        RawResponse response;
        if (!client.connectTo(m_fixture->client().port()))
            return response;
        client.send("GET " + target + " HTTP/1.1\r\nHost: " + slug.toLatin1()
            + ".localhost:" + QByteArray::number(m_fixture->client().port()) + "\r\n" + extraHeaders + "\r\n");
        client.waitResponse(&response, false, 30000);
        return response;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_fixture = std::make_unique<EngineFixture>();
        QVERIFY(m_fixture->start());
        const auto reply = deploy(u"rules-site"_s,
            QJsonArray {base64File(u"index.html"_s, "home"), base64File(u"about.html"_s, "about"),
                base64File(u"forced.html"_s, "forced file"), base64File(u"old.html"_s, "old"),
                base64File(u"store-closed.html"_s, "closed"), base64File(u"blog-2020-hello.html"_s, "hello 2020"),
                base64File(u"en/404.html"_s, "english missing"), base64File(u"en/present.html"_s, "present"),
                base64File(u"app/index.html"_s, "app shell"), base64File(u"assets/app.css"_s, "body{}"),
                base64File(u"templates/index.html"_s, "template"), base64File(u"blog/first.html"_s, "first post"),
                base64File(u"404.html"_s, "site missing"), base64File(u"_redirects"_s, kRedirects),
                base64File(u"_headers"_s, kHeaders)});
        QCOMPARE(reply.status, 200);
        QVERIFY2(!reply.json().contains(u"warnings"_s), reply.body.constData()); // every line is understood
    }
    void cleanupTestCase() { m_fixture.reset(); }

    void rules_data()
    {
        QTest::addColumn<QByteArray>("target");
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("location"); // for redirects
        QTest::addColumn<QByteArray>("body"); // for the rest
        const QByteArray none;
        QTest::newRow("301 by default") << QByteArray("/home") << 301 << QByteArray("/") << none;
        QTest::newRow("trailing slash") << QByteArray("/home/") << 301 << QByteArray("/") << none;
        QTest::newRow("old extension") << QByteArray("/blog/my-post.php") << 301 << QByteArray("/blog/my-post") << none;
        QTest::newRow("literal") << QByteArray("/news") << 301 << QByteArray("/blog") << none;
        QTest::newRow("other origin") << QByteArray("/cuties") << 301 << QByteArray("https://www.petsofnetlify.com")
                                      << none;
        QTest::newRow("encoded from") << QByteArray("/authors/c%C3%A9line") << 301
                                      << QByteArray("/authors/about-c%C3%A9line") << none;
        QTest::newRow("302") << QByteArray("/my-redirect") << 302 << QByteArray("/") << none;
        QTest::newRow("307") << QByteArray("/temporary") << 307 << QByteArray("/new-place") << none;
        QTest::newRow("308") << QByteArray("/permanent") << 308 << QByteArray("/new-place") << none;
        QTest::newRow("303") << QByteArray("/see-other") << 303 << QByteArray("/new-place") << none;
        QTest::newRow("query passed on") << QByteArray("/home?utm=1&x=2") << 301 << QByteArray("/?utm=1&x=2") << none;
        QTest::newRow("target's own query")
            << QByteArray("/search?q=other") << 302 << QByteArray("/find?q=berth") << none;
        QTest::newRow("custom 404") << QByteArray("/ecommerce") << 404 << none << QByteArray("closed");
        QTest::newRow("rewrite") << QByteArray("/pass-through") << 200 << none << QByteArray("home");
        QTest::newRow("rewrite ignores query") << QByteArray("/pass-through?a=b") << 200 << none << QByteArray("home");
        QTest::newRow("splat") << QByteArray("/news/2004/01/10/my-story") << 301
                               << QByteArray("/blog/2004/01/10/my-story") << none;
        QTest::newRow("splat one segment") << QByteArray("/news/today") << 301 << QByteArray("/blog/today") << none;
        QTest::newRow("splat re-encoded") << QByteArray("/news/a%20b") << 301 << QByteArray("/blog/a%20b") << none;
        QTest::newRow("splat keeps to the site")
            << QByteArray("/news/%2F%2Fevil.example") << 301 << QByteArray("/blog/evil.example") << none;
        QTest::newRow("placeholders") << QByteArray("/articles/2004/02/12/my-story") << 301
                                      << QByteArray("/blog/2004/02/12/my-story") << none;
        QTest::newRow("placeholders need every segment")
            << QByteArray("/articles/2004/02/12") << 404 << none << QByteArray("site missing");
        QTest::newRow("placeholders inside a name")
            << QByteArray("/posts/2020/hello") << 200 << none << QByteArray("hello 2020");
        QTest::newRow("splat to other origin")
            << QByteArray("/docs/guide/start") << 301 << QByteArray("https://docs.example.com/guide/start") << none;
        QTest::newRow("placeholder cannot leave the site")
            << QByteArray("/go/%2F%2Fevil.example") << 301 << QByteArray("/evil.example") << none;
        QTest::newRow("first match wins")
            << QByteArray("/jobs/customer-ninja-rockstar") << 301 << QByteArray("/careers/support-engineer") << none;
        QTest::newRow("later rule for the rest")
            << QByteArray("/jobs/designer") << 301 << QByteArray("/careers/designer") << none;
        QTest::newRow("file shadows a rule") << QByteArray("/about") << 200 << none << QByteArray("about");
        QTest::newRow("force beats a file") << QByteArray("/forced") << 301 << QByteArray("/elsewhere") << none;
        QTest::newRow("forced rewrite") << QByteArray("/old.html") << 200 << none << QByteArray("home");
        QTest::newRow("404 rule for a section")
            << QByteArray("/en/missing") << 404 << none << QByteArray("english missing");
        QTest::newRow("existing file in that section")
            << QByteArray("/en/present") << 200 << none << QByteArray("present");
        QTest::newRow("single-page app section")
            << QByteArray("/app/some/route") << 200 << none << QByteArray("app shell");
        QTest::newRow("paths are case-sensitive") << QByteArray("/HOME") << 404 << none << QByteArray("site missing");
        QTest::newRow("rewrite to a missing file")
            << QByteArray("/nowhere") << 404 << none << QByteArray("site missing");
        QTest::newRow("no rule") << QByteArray("/unknown") << 404 << none << QByteArray("site missing");
        QTest::newRow("rules file not served")
            << QByteArray("/_redirects") << 404 << none << QByteArray("site missing");
        QTest::newRow("headers file not served")
            << QByteArray("/_headers") << 404 << none << QByteArray("site missing");
    }
    void rules()
    {
        QFETCH(QByteArray, target);
        QFETCH(int, status);
        QFETCH(QByteArray, location);
        QFETCH(QByteArray, body);
        const RawResponse response = get(u"rules-site"_s, target);
        QCOMPARE(response.status, status);
        QCOMPARE(response.header("location"), location);
        if (!body.isNull())
            QCOMPARE(response.body, body);
        QCOMPARE(response.header("x-content-type-options"), QByteArray("nosniff"));
    }

    void headers_data()
    {
        QTest::addColumn<QByteArray>("target");
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<QByteArray>("value");
        QTest::newRow("all paths") << QByteArray("/") << QByteArray("x-xss-protection") << QByteArray("1; mode=block");
        QTest::newRow("repeated name joined") << QByteArray("/about") << QByteArray("link")
                                              << QByteArray("</style.css>; rel=preload; as=style, </script.js>; "
                                                            "rel=preload; as=script");
        QTest::newRow("caching by folder") << QByteArray("/assets/app.css") << QByteArray("cache-control")
                                           << QByteArray("public, max-age=31536000, immutable");
        QTest::newRow("default caching elsewhere")
            << QByteArray("/about") << QByteArray("cache-control") << QByteArray("no-cache");
        QTest::newRow("one file") << QByteArray("/templates/index.html") << QByteArray("content-security-policy")
                                  << QByteArray("default-src 'self'");
        QTest::newRow("several rules joined")
            << QByteArray("/templates/index.html") << QByteArray("x-frame-options") << QByteArray("DENY, SAMEORIGIN");
        QTest::newRow("placeholder") << QByteArray("/blog/first") << QByteArray("x-blog-post") << QByteArray("yes");
        QTest::newRow("placeholder is one segment")
            << QByteArray("/blog/first/x") << QByteArray("x-blog-post") << QByteArray();
        QTest::newRow("by request path on a rewrite")
            << QByteArray("/pass-through") << QByteArray("x-frame-options") << QByteArray("DENY");
        QTest::newRow("custom 404 page too")
            << QByteArray("/unknown") << QByteArray("x-frame-options") << QByteArray("DENY");
        QTest::newRow("nosniff stays single")
            << QByteArray("/about") << QByteArray("x-content-type-options") << QByteArray("nosniff");
    }
    void headers()
    {
        QFETCH(QByteArray, target);
        QFETCH(QByteArray, name);
        QFETCH(QByteArray, value);
        const RawResponse response = get(u"rules-site"_s, target);
        QCOMPARE(response.header(name), value);
        QVERIFY(response.count(name) <= 1);
    }

    void conditionalRequestKeepsHeaders()
    {
        const RawResponse first = get(u"rules-site"_s, "/assets/app.css");
        QCOMPARE(first.status, 200);
        const RawResponse again
            = get(u"rules-site"_s, "/assets/app.css", "If-None-Match: " + first.header("etag") + "\r\n");
        QCOMPARE(again.status, 304);
        QCOMPARE(again.header("cache-control"), QByteArray("public, max-age=31536000, immutable"));
    }

    void badLinesAreWarningsWithLineNumbers()
    {
        const QByteArray redirects = "# comment\n"
                                     "/ok /fine\n"
                                     "/lonely\n"
                                     "/odd /target 418\n"
                                     "/a*b /c\n"
                                     "/store id=:id /blog/:id 301\n"
                                     "/ /anz 302 Country=au,nz\n"
                                     "/proxy https://example.com/api 200\n"
                                     "relative /target\n"
                                     "/twice/:a/:a /x\n";
        const QByteArray headers = "  X-Early: 1\n"
                                   "/*\n"
                                   "  NoColon\n"
                                   "  Set-Cookie: a=b\n"
                                   "  X-Content-Type-Options: sniff\n"
                                   "  Bad Name: x\n"
                                   "  X-Fine: yes\n";
        const auto reply = deploy(u"bad-rules"_s,
            QJsonArray {base64File(u"index.html"_s, "home"), base64File(u"_redirects"_s, redirects),
                base64File(u"_headers"_s, headers)});
        QCOMPARE(reply.status, 200); // the deploy goes through
        QStringList warnings;
        for (const QJsonValue &warning : reply.json()[u"warnings"_s].toArray())
            warnings << warning.toString();
        const QStringList lines {u"_redirects line 3"_s, u"_redirects line 4"_s, u"_redirects line 5"_s,
            u"_redirects line 6"_s, u"_redirects line 7"_s, u"_redirects line 8"_s, u"_redirects line 9"_s,
            u"_redirects line 10"_s, u"_headers line 1"_s, u"_headers line 3"_s, u"_headers line 4"_s,
            u"_headers line 5"_s, u"_headers line 6"_s};
        QCOMPARE(warnings.size(), lines.size());
        for (const QString &line : lines) {
            QVERIFY2(std::any_of(warnings.cbegin(), warnings.cend(),
                         [&](const QString &warning) { return warning.startsWith(line + u": "_s); }),
                qPrintable(line + u" not in: "_s + warnings.join(u" | "_s)));
        }
        // The good lines work; at request time nothing is reported.
        QCOMPARE(get(u"bad-rules"_s, "/ok").header("location"), QByteArray("/fine"));
        QCOMPARE(get(u"bad-rules"_s, "/").header("x-fine"), QByteArray("yes"));
        QCOMPARE(get(u"bad-rules"_s, "/").header("x-content-type-options"), QByteArray("nosniff"));
        QCOMPARE(get(u"bad-rules"_s, "/").count("set-cookie"), 0);

        // An update reports its own file's warnings; one without rules files reports none.
        const auto update = m_fixture->client().api("PUT", u"/deploy/"_s + reply.json()[u"id"_s].toString(),
            m_fixture->ownerKey(), QJsonObject {{u"files"_s, QJsonArray {base64File(u"index.html"_s, "v2")}}});
        QCOMPARE(update.status, 200);
        QVERIFY(!update.json().contains(u"warnings"_s));
        QCOMPARE(get(u"bad-rules"_s, "/ok").status, 404);
    }

    void privateSiteKeepsItsCachePolicy()
    {
        const auto reply = deploy(u"private-rules"_s,
            QJsonArray {base64File(u"index.html"_s, "secret"),
                base64File(u"_headers"_s, "/*\n  Cache-Control: public, max-age=86400\n  X-Frame-Options: DENY\n")},
            true);
        QCOMPARE(reply.status, 200);
        // Through the share link the visitor gets a cookie; with it, the page, still kept out of shared caches.
        const QUrl share(reply.json()[u"share_url"_s].toString());
        RawResponse admitted = get(u"private-rules"_s,
            share.path(QUrl::FullyEncoded).toLatin1() + '?' + share.query(QUrl::FullyEncoded).toLatin1());
        const QByteArray cookie = admitted.header("set-cookie").split(';').first();
        QVERIFY2(!cookie.isEmpty(), admitted.body.constData());
        const RawResponse page = get(u"private-rules"_s, "/", "Cookie: " + cookie + "\r\n");
        QCOMPARE(page.status, 200);
        QCOMPARE(page.body, QByteArray("secret"));
        QCOMPARE(page.header("cache-control"), QByteArray("private, no-store"));
        QCOMPARE(page.header("x-frame-options"), QByteArray("DENY"));
    }

    void hostileRulesStayFast()
    {
        // Thousands of rules that all nearly match a long path: each costs one pass over its segments, so a request
        // costs rules x path length, never more (no backtracking), and stays well under the time budget.
        QByteArray redirects;
        const QByteArray prefix = "/" + QByteArray("seg/").repeated(24);
        for (int i = 0; i < 6000; ++i)
            redirects += prefix + ":a/:b/" + QByteArray::number(i) + " /x 301\n";
        QVERIFY(redirects.size() < 1024 * 1024);
        const auto reply = deploy(u"hostile-rules"_s,
            QJsonArray {base64File(u"index.html"_s, "home"), base64File(u"_redirects"_s, redirects)});
        QCOMPARE(reply.status, 200);
        QVERIFY(!reply.json().contains(u"warnings"_s));
        const QByteArray target = prefix + "a/b/" + QByteArray("z").repeated(2000);
        QElapsedTimer timer;
        timer.start();
        for (int i = 0; i < 20; ++i)
            QCOMPARE(get(u"hostile-rules"_s, target).status, 404);
        QVERIFY2(timer.elapsed() < 10000, qPrintable(QString::number(timer.elapsed())));
        QCOMPARE(get(u"hostile-rules"_s, prefix + "a/b/5999").header("location"), QByteArray("/x"));
    }
};

QTEST_GUILESS_MAIN(TestSiteRules)
#include "tst_siterules.moc"
