// A deploy whose root address answers 404 (no index.html at the top, no _redirects rule for "/") goes through with a
// warning that says so, on POST /deploy and PUT /deploy/:id alike, over real HTTP; a site whose root answers gets none.
#include "common/deployfiles.h"
#include "enginefixture.h"

#include <QJsonArray>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::base64File;
using berth::test::EngineFixture;
using berth::test::TestReply;

namespace {
const QString kNoIndex = u"no index.html: the site's root address answers 404"_s;
} // namespace

class TestDeployWarnings : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineFixture> m_fixture;

    TestReply deploy(const QString &slug, const QJsonArray &files, bool spa = false)
    {
        QJsonObject body {{u"slug"_s, slug}, {u"files"_s, files}};
        if (spa)
            body.insert(u"is_spa"_s, true);
        return m_fixture->client().api("POST", u"/deploy"_s, m_fixture->ownerKey(), body);
    }
    TestReply update(const QString &id, const QJsonObject &body)
    {
        return m_fixture->client().api("PUT", u"/deploy/"_s + id, m_fixture->ownerKey(), body);
    }
    static QJsonValue warnings(const TestReply &reply) { return reply.json().value(u"warnings"_s); }

private Q_SLOTS:
    void initTestCase()
    {
        m_fixture = std::make_unique<EngineFixture>();
        QVERIFY(m_fixture->start());
    }
    void cleanupTestCase() { m_fixture.reset(); }

    void noIndexAtTheRoot()
    {
        const TestReply reply = deploy(u"no-index"_s,
            {base64File(u"about.html"_s, "about"), base64File(u"docs/index.html"_s, "docs"),
                base64File(u"404.html"_s, "missing")});
        QCOMPARE(reply.status, 200);
        QCOMPARE(warnings(reply), QJsonArray {kNoIndex});
        QVERIFY(reply.json().contains(u"url"_s)); // published all the same
        const TestReply root = m_fixture->client().site(u"no-index"_s);
        QCOMPARE(root.status, 404); // what the warning says, the site's own 404 page
        QCOMPARE(root.body, QByteArray("missing"));
        QCOMPARE(m_fixture->client().site(u"no-index"_s, u"/about"_s).status, 200);
    }

    void singlePageAppWithoutIndex()
    {
        const TestReply reply = deploy(u"spa-no-index"_s, {base64File(u"app.js"_s, "x")}, true);
        QCOMPARE(reply.status, 200);
        QCOMPARE(warnings(reply), QJsonArray {kNoIndex + u", and is_spa has no page to fall back to"_s});
        QCOMPARE(m_fixture->client().site(u"spa-no-index"_s).status, 404);
        QCOMPARE(m_fixture->client().site(u"spa-no-index"_s, u"/route"_s).status, 404);
    }

    void rootAnsweredGetsNoWarning_data()
    {
        QTest::addColumn<QString>("slug");
        QTest::addColumn<QJsonArray>("files");
        QTest::addColumn<int>("rootStatus");
        QTest::newRow("index.html") << u"with-index"_s << QJsonArray {base64File(u"index.html"_s, "home")} << 200;
        QTest::newRow("rewrite of /") << u"root-rewritten"_s
                                      << QJsonArray {base64File(u"home.html"_s, "home"),
                                             base64File(u"_redirects"_s, "/ /home.html 200\n")}
                                      << 200;
        QTest::newRow("redirect of /") << u"root-redirected"_s
                                       << QJsonArray {base64File(u"home.html"_s, "home"),
                                              base64File(u"_redirects"_s, "/ /home 302\n")}
                                       << 302;
    }
    void rootAnsweredGetsNoWarning()
    {
        QFETCH(QString, slug);
        QFETCH(QJsonArray, files);
        QFETCH(int, rootStatus);
        const TestReply reply = deploy(slug, files);
        QCOMPARE(reply.status, 200);
        QVERIFY2(!reply.json().contains(u"warnings"_s), reply.body.constData());
        QCOMPARE(m_fixture->client().site(slug).status, rootStatus);
    }

    void singleHtmlGetsNoWarning()
    {
        const TestReply reply = m_fixture->client().api("POST", u"/deploy"_s, m_fixture->ownerKey(),
            QJsonObject {{u"html"_s, u"<h1>one page</h1>"_s}, {u"slug"_s, u"one-page"_s}});
        QCOMPARE(reply.status, 200);
        QVERIFY(!reply.json().contains(u"warnings"_s));
    }

    void withSkippedRulesLines()
    {
        const TestReply reply = deploy(
            u"rules-no-index"_s, {base64File(u"page.html"_s, "page"), base64File(u"_redirects"_s, "/a /b 999\n")});
        QCOMPARE(reply.status, 200);
        const QJsonArray all = warnings(reply).toArray();
        QCOMPARE(all.size(), 2);
        QVERIFY2(all.at(0).toString().startsWith(u"_redirects line 1: "_s), qPrintable(all.at(0).toString()));
        QCOMPARE(all.at(1).toString(), kNoIndex);
    }

    void updates()
    {
        const TestReply created = deploy(u"updated-site"_s, {base64File(u"index.html"_s, "home")});
        QCOMPARE(created.status, 200);
        QVERIFY(!created.json().contains(u"warnings"_s));
        const QString id = created.json().value(u"id"_s).toString();

        // New files without index.html: said on the update.
        TestReply reply = update(id, {{u"files"_s, QJsonArray {base64File(u"other.html"_s, "other")}}});
        QCOMPARE(reply.status, 200);
        QCOMPARE(warnings(reply), QJsonArray {kNoIndex});
        QCOMPARE(m_fixture->client().site(u"updated-site"_s).status, 404);
        // An update of settings alone reports the site as it stands.
        reply = update(id, {{u"title"_s, u"Still no home"_s}});
        QCOMPARE(reply.status, 200);
        QCOMPARE(warnings(reply), QJsonArray {kNoIndex});
        // An index again: no warning.
        reply = update(id, {{u"files"_s, QJsonArray {base64File(u"index.html"_s, "back")}}});
        QCOMPARE(reply.status, 200);
        QVERIFY(!reply.json().contains(u"warnings"_s));
        QCOMPARE(m_fixture->client().site(u"updated-site"_s).body, QByteArray("back"));
    }
};

QTEST_GUILESS_MAIN(TestDeployWarnings)
#include "tst_deploywarnings.moc"
