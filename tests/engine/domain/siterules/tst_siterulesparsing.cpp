// The _redirects and _headers compilers on their own: what a line becomes, and that hostile files (many rules that
// nearly match, very long paths, lines that restart a pattern over and over) cost time in proportion to their size.
#include "domain/siterules/headerrules.h"
#include "domain/siterules/redirectrules.h"

#include <QElapsedTimer>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::HeaderRules;
using berth::RedirectMatch;
using berth::RedirectRules;

namespace {

// The least time of many runs of each piece of work, in nanoseconds, the runs interleaved: the machine is shared, and
// the minimum over runs that alternate is the cost of the work itself, measured under the same conditions for both.
template<typename First, typename Second>
QPair<qint64, qint64> fastest(First first, Second second)
{
    qint64 bestFirst = std::numeric_limits<qint64>::max();
    qint64 bestSecond = std::numeric_limits<qint64>::max();
    for (int run = 0; run < 30; ++run) {
        QElapsedTimer timer;
        timer.start();
        first();
        bestFirst = std::min(bestFirst, timer.nsecsElapsed());
        timer.restart();
        second();
        bestSecond = std::min(bestSecond, timer.nsecsElapsed());
    }
    return {std::max<qint64>(bestFirst, 1), std::max<qint64>(bestSecond, 1)};
}

QByteArray nearlyMatchingRules(int count, int depth)
{
    QByteArray text;
    const QByteArray prefix = "/" + QByteArray("deep/").repeated(depth);
    // Each rule follows the path for 60 segments and fails only at its last literal before the splat.
    for (int i = 0; i < count; ++i)
        text += prefix + ":a/" + QByteArray("b/").repeated(50) + "x" + QByteArray::number(i) + "/*  /to/:a 301\n";
    return text;
}

} // namespace

class TestSiteRulesParsing : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void redirectLines()
    {
        QStringList warnings;
        const RedirectRules rules = RedirectRules::parse("/a/:x/*  /b/:x/:splat?k=1  307!\r\n/c  /d\n", &warnings);
        QVERIFY(warnings.isEmpty());
        QCOMPARE(rules.size(), 2);
        const auto match = rules.match(u"/a/one/two/three", "q=2", true); // forced: applies over a file
        QVERIFY(match);
        QCOMPARE(match->kind, RedirectMatch::Kind::Redirect);
        QCOMPARE(match->status, 307);
        QCOMPARE(match->location, u"/b/one/two/three?k=1"_s); // the target's own query: the request's is not added
        QVERIFY(!rules.match(u"/c", {}, true)); // not forced, and a file answers
        QCOMPARE(rules.match(u"/c//", {}, false)->location, u"/d"_s);
    }

    void emptyCapturesNeverMakeASecondLeadingSlash()
    {
        // "/:splat/:splat" for "/news/" would be "//": a Location naming another host. The leading slashes become one.
        const RedirectRules rules
            = RedirectRules::parse("/news/*  /:splat/:splat  301\n/docs/*  /:splat/guide  200\n", nullptr);
        const auto redirect = rules.match(u"/news/", {}, false);
        QVERIFY(redirect);
        QCOMPARE(redirect->location, u"/"_s);
        QCOMPARE(rules.match(u"/news/a", {}, false)->location, u"/a/a"_s);
        const auto rewrite = rules.match(u"/docs/", {}, false);
        QVERIFY(rewrite);
        QCOMPARE(rewrite->path, u"/guide"_s);
    }

    void queryInFromIsAWarning()
    {
        QStringList warnings;
        const RedirectRules rules = RedirectRules::parse("/ok /fine\n/page?id=1 /other\n", &warnings);
        QCOMPARE(rules.size(), 1);
        QCOMPARE(warnings.size(), 1);
        QVERIFY(warnings.first().startsWith(u"_redirects line 2: "_s));
    }

    void headerBlocks()
    {
        QStringList warnings;
        const HeaderRules rules = HeaderRules::parse("/*\n  A: 1\n\t B : 2 \n# note\n/x/:y\n  A: 3\n", &warnings);
        QVERIFY(warnings.isEmpty());
        const HeaderRules::Headers headers = rules.match(u"/x/z");
        QCOMPARE(headers.size(), 2);
        QCOMPARE(headers.at(0).first, QByteArray("A"));
        QCOMPARE(headers.at(0).second, QByteArray("1, 3"));
        QCOMPARE(headers.at(1).second, QByteArray("2"));
        QCOMPARE(rules.match(u"/y").size(), 2);
    }

    void reservedNamesAreWarnings()
    {
        QStringList warnings;
        const HeaderRules rules = HeaderRules::parse("/*\n  Clear-Site-Data: \"cookies\"\n  te: trailers\n"
                                                     "  Proxy-Connection: close\n  X-Fine: 1\n",
            &warnings);
        QCOMPARE(warnings.size(), 3);
        QVERIFY(warnings.at(0).startsWith(u"_headers line 2: Clear-Site-Data would reach every site"_s));
        QVERIFY(warnings.at(1).startsWith(u"_headers line 3: te belongs to the connection"_s));
        QCOMPARE(rules.match(u"/"), (HeaderRules::Headers {{"X-Fine", "1"}}));
    }

    void cachePolicyNames()
    {
        for (const QByteArrayView name : {"Cache-Control", "cdn-cache-control", "Cloudflare-CDN-Cache-Control",
                 "Vercel-CDN-Cache-Control", "Surrogate-Control", "EXPIRES", "Pragma"})
            QVERIFY2(HeaderRules::isCachePolicy(name), name.data());
        for (const QByteArrayView name : {"X-Cache-Control", "CDN-Cache-Controls", "Surrogate-Key", "Age", ""})
            QVERIFY2(!HeaderRules::isCachePolicy(name), name.data());
    }

    void limitsAreWarnings()
    {
        QStringList warnings;
        const RedirectRules rules = RedirectRules::parse(
            QByteArray("/a /b\n").repeated(RedirectRules::kMaxRules + 3) + "/" + QByteArray(5000, 'x') + " /y\n",
            &warnings);
        QCOMPARE(rules.size(), RedirectRules::kMaxRules);
        QCOMPARE(warnings.size(), 1); // one line says the rest is ignored, then parsing stops
        QVERIFY(warnings.first().startsWith(u"_redirects line %1: "_s.arg(RedirectRules::kMaxRules + 1)));
    }

    void hostileRedirectsStayLinear()
    {
        // Four times the rules and four times the path: a linear matcher takes about sixteen times as long for
        // both together, four for each alone. A backtracking one would take far more; the bound leaves room for noise.
        const RedirectRules small = RedirectRules::parse(nearlyMatchingRules(1000, 8), nullptr);
        const RedirectRules large = RedirectRules::parse(nearlyMatchingRules(4000, 8), nullptr);
        QCOMPARE(large.size(), 4000);
        const QString path = u"/"_s + u"deep/"_s.repeated(8) + u"a/"_s + u"b/"_s.repeated(200) + u"nomatch"_s;
        QVERIFY(!small.match(path, {}, false));
        const auto [smallCost, largeCost]
            = fastest([&] { small.match(path, {}, false); }, [&] { large.match(path, {}, false); });
        QVERIFY2(largeCost < smallCost * 12, qPrintable(u"%1 ns vs %2 ns"_s.arg(largeCost).arg(smallCost)));

        const QString longPath = u"/"_s + u"deep/"_s.repeated(8) + u"a/"_s + u"b/"_s.repeated(800) + u"nomatch"_s;
        const qint64 longCost
            = fastest([&] { small.match(path, {}, false); }, [&] { small.match(longPath, {}, false); }).second;
        QVERIFY2(longCost < smallCost * 12, qPrintable(u"%1 ns vs %2 ns"_s.arg(longCost).arg(smallCost)));
        QVERIFY2(largeCost < 50'000'000, qPrintable(u"%1 ns"_s.arg(largeCost))); // 4,000 rules: well under 50 ms
    }

    void hostileFilesParseLinearly()
    {
        QByteArray from;
        for (int i = 0; i < 16; ++i)
            from += "/:p" + QByteArray::number(i);
        const QByteArray oneLine = from + "/*  " + QByteArray("/:p1:splat:nope").repeated(200) + " 302\n";
        const QByteArray small = oneLine.repeated(100);
        const QByteArray large = oneLine.repeated(400);
        const auto [smallCost, largeCost]
            = fastest([&] { RedirectRules::parse(small, nullptr); }, [&] { RedirectRules::parse(large, nullptr); });
        QVERIFY2(largeCost < smallCost * 12, qPrintable(u"%1 ns vs %2 ns"_s.arg(largeCost).arg(smallCost)));

        const QByteArray block = "/*\n" + QByteArray("  X-A: " + QByteArray(500, 'v') + "\n").repeated(60);
        const QByteArray fewBlocks = block.repeated(4);
        const QByteArray manyBlocks = block.repeated(16);
        const auto [smallHeaders, largeHeaders] = fastest(
            [&] { HeaderRules::parse(fewBlocks, nullptr); }, [&] { HeaderRules::parse(manyBlocks, nullptr); });
        QVERIFY2(largeHeaders < smallHeaders * 12, qPrintable(u"%1 ns vs %2 ns"_s.arg(largeHeaders).arg(smallHeaders)));
    }
};

QTEST_APPLESS_MAIN(TestSiteRulesParsing)
#include "tst_siterulesparsing.moc"
