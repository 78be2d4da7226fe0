// Every kept version at its own address over real HTTP: http://v<N>--<slug>.<site domain> serves that version's
// files and rules read-only and noindex, with the site's access rules, following renames; the live site stays the
// newest.
#include "engine/http/rawclient.h"
#include "enginefixture.h"
#include "site/versionloadbudget.h"

#include <QJsonArray>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::EngineFixture;
using berth::test::RawClient;
using berth::test::RawResponse;

class TestVersionAddresses : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineFixture> m_fixture;

    QJsonObject deploy(const QJsonObject &body) { return m_fixture->deployAsOwner(body).json(); }
    int put(const QString &id, const QJsonArray &files)
    {
        return m_fixture->client()
            .api("PUT", u"/deploy/"_s + id, m_fixture->ownerKey(), QJsonObject {{u"files"_s, files}})
            .status;
    }
    RawResponse request(
        const QString &label, const QByteArray &method, const QByteArray &target, const QByteArray &headers = {})
    {
        RawClient client;
        RawResponse response;
        if (!client.connectTo(m_fixture->client().port()))
            return response;
        client.send(method + ' ' + target + " HTTP/1.1\r\nHost: " + label.toLatin1() + ".localhost:"
            + QByteArray::number(m_fixture->client().port()) + "\r\n" + headers + "Content-Length: 0\r\n\r\n");
        client.waitResponse(&response, false, 30000);
        return response;
    }
    static QJsonArray page(const QString &text, const QString &redirects = {})
    {
        QJsonArray files {QJsonObject {{u"path"_s, u"index.html"_s}, {u"content"_s, u"<h1>"_s + text + u"</h1>"_s}}};
        if (!redirects.isEmpty())
            files.append(QJsonObject {{u"path"_s, u"_redirects"_s}, {u"content"_s, redirects}});
        return files;
    }
    // Three versions of one site, "one" (with a _redirects of its own), "two", "three"; its id.
    QString threeVersions(const QString &slug, bool protect = false)
    {
        const QJsonObject created
            = deploy({{u"slug"_s, slug}, {u"protect"_s, protect}, {u"files"_s, page(u"one"_s, u"/old /new 301\n"_s)}});
        const QString id = created[u"id"_s].toString();
        if (put(id, page(u"two"_s)) != 200 || put(id, page(u"three"_s)) != 200)
            return {};
        return id;
    }

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<EngineFixture>();
        QVERIFY(m_fixture->start());
    }
    void cleanup() { m_fixture.reset(); }

    void eachVersionIsServedAtItsAddress()
    {
        QVERIFY(!threeVersions(u"kept-site"_s).isEmpty());
        const char *const texts[] = {"one", "two", "three"};
        for (int number = 1; number <= 3; ++number) {
            const RawResponse version = request(u"v%1--kept-site"_s.arg(number), "GET", "/");
            QCOMPARE(version.status, 200);
            QVERIFY2(version.body.contains(QByteArray("<h1>") + texts[number - 1]), version.body.constData());
            QCOMPARE(version.header("x-robots-tag"), QByteArray("noindex"));
        }
        const RawResponse live = request(u"kept-site"_s, "GET", "/");
        QVERIFY(live.body.contains("<h1>three"));
        QCOMPARE(live.count("x-robots-tag"), 0);
        // Served again from memory, the same.
        QVERIFY(request(u"v1--kept-site"_s, "GET", "/").body.contains("<h1>one"));
    }

    void aVersionHasItsOwnRules()
    {
        QVERIFY(!threeVersions(u"ruled-site"_s).isEmpty());
        const RawResponse redirect = request(u"v1--ruled-site"_s, "GET", "/old");
        QCOMPARE(redirect.status, 301);
        QCOMPARE(redirect.header("location"), QByteArray("/new"));
        QCOMPARE(redirect.header("x-robots-tag"), QByteArray("noindex"));
        QCOMPARE(request(u"v2--ruled-site"_s, "GET", "/old").status, 404);
        QCOMPARE(request(u"ruled-site"_s, "GET", "/old").status, 404);
    }

    void unknownVersionsAndSitesAreNotFound()
    {
        QVERIFY(!threeVersions(u"known-site"_s).isEmpty());
        QCOMPARE(request(u"v4--known-site"_s, "GET", "/").status, 404);
        QCOMPARE(request(u"v0--known-site"_s, "GET", "/").status, 404);
        QCOMPARE(request(u"v01--known-site"_s, "GET", "/").status, 404);
        QCOMPARE(request(u"v1--other-site"_s, "GET", "/").status, 404);
    }

    void aVersionIsReadOnly()
    {
        QVERIFY(!threeVersions(u"quiet-site"_s).isEmpty());
        const RawResponse submit = request(u"v1--quiet-site"_s, "POST", "/_submit");
        QCOMPARE(submit.status, 404);
        QCOMPARE(request(u"v1--quiet-site"_s, "GET", "/_counter").status, 404);
        QCOMPARE(request(u"v1--quiet-site"_s, "DELETE", "/").status, 405);
    }

    void theListingGivesEachVersionsAddress()
    {
        const QString id = threeVersions(u"listed-site"_s);
        const auto reply = m_fixture->client().api("GET", u"/deploy/"_s + id + u"/versions"_s, m_fixture->ownerKey());
        QCOMPARE(reply.status, 200);
        const QJsonArray versions = reply.json()[u"versions"_s].toArray();
        QCOMPARE(versions.size(), 3);
        for (const QJsonValue &entry : versions) {
            const int number = entry[u"version"_s].toInt();
            QCOMPARE(entry[u"url"_s].toString(),
                u"http://v%1--listed-site.localhost:%2"_s.arg(number).arg(m_fixture->client().port()));
        }
    }

    void aPrivateSitesVersionsArePrivate()
    {
        const QString id = threeVersions(u"hidden-site"_s, true);
        QVERIFY(!id.isEmpty());
        const RawResponse refused = request(u"v1--hidden-site"_s, "GET", "/");
        QCOMPARE(refused.status, 403);
        QVERIFY(!refused.body.contains("<h1>one"));
        QCOMPARE(request(u"v9--hidden-site"_s, "GET", "/").status, 403); // which versions exist is private too

        const QString shareUrl = m_fixture->client()
                                     .api("GET", u"/deploy/"_s + id, m_fixture->ownerKey())
                                     .json()[u"share_url"_s]
                                     .toString();
        const QByteArray token = shareUrl.mid(shareUrl.indexOf(u"_token="_s) + 7).toLatin1();
        const RawResponse link = request(u"v1--hidden-site"_s, "GET", "/?_token=" + token);
        QCOMPARE(link.status, 302);
        const QByteArray setCookie = link.header("set-cookie");
        const QByteArray cookie = "Cookie: " + setCookie.left(setCookie.indexOf(';')) + "\r\n";
        const RawResponse admitted = request(u"v1--hidden-site"_s, "GET", "/", cookie);
        QCOMPARE(admitted.status, 200);
        QVERIFY(admitted.body.contains("<h1>one"));
        QVERIFY(admitted.header("cache-control").contains("private"));
    }

    void versionAddressesFollowARename()
    {
        const QString id = threeVersions(u"first-name"_s);
        QVERIFY(request(u"v2--first-name"_s, "GET", "/").body.contains("<h1>two"));
        const auto renamed = m_fixture->client().api(
            "PATCH", u"/deploy/"_s + id + u"/slug"_s, m_fixture->ownerKey(), QJsonObject {{u"slug"_s, u"new-name"_s}});
        QCOMPARE(renamed.status, 200);
        QVERIFY(request(u"v2--new-name"_s, "GET", "/").body.contains("<h1>two"));
        QCOMPARE(request(u"v2--first-name"_s, "GET", "/").status, 404);
    }

    void versionShapedSlugsAreRefused()
    {
        for (const QString &slug : {u"v2--my-site"_s, u"v10--abc"_s}) {
            const auto reply = m_fixture->client().api("POST", u"/deploy"_s, m_fixture->ownerKey(),
                QJsonObject {{u"slug"_s, slug}, {u"files"_s, page(u"x"_s)}});
            QCOMPARE(reply.status, 400);
        }
    }

    void openingVersionsFromStorageIsBounded()
    {
        // Versions not in memory are read on the engine's thread: a visitor asking for many of them, or for numbers
        // that do not exist, gets a 503 once the second's budget is spent, and the next second has a new one.
        m_fixture = std::make_unique<EngineFixture>();
        QVERIFY(m_fixture->startWithClock(QDateTime(QDate(2026, 11, 27), QTime(12, 0), Qt::UTC)));
        QVERIFY(!threeVersions(u"busy-site"_s).isEmpty());
        int notFound = 0;
        int busy = 0;
        for (int number = 100; number < 140; ++number) {
            const RawResponse response = request(u"v%1--busy-site"_s.arg(number), "GET", "/");
            if (response.status == 404)
                ++notFound;
            else if (response.status == 503 && response.header("retry-after") == "1")
                ++busy;
        }
        QCOMPARE(notFound, berth::VersionLoadBudget::kPerSecond);
        QCOMPARE(busy, 40 - berth::VersionLoadBudget::kPerSecond);
        QCOMPARE(request(u"v2--busy-site"_s, "GET", "/").status, 503);
        QCOMPARE(request(u"busy-site"_s, "GET", "/").status, 200); // the live site costs no load

        m_fixture->clock().advance(1000);
        const RawResponse second = request(u"v2--busy-site"_s, "GET", "/");
        QCOMPARE(second.status, 200);
        QVERIFY(second.body.contains("two"));
        // Now in memory: no load, whatever the budget.
        for (int i = 0; i < berth::VersionLoadBudget::kPerSecond; ++i)
            request(u"v%1--busy-site"_s.arg(200 + i), "GET", "/");
        QCOMPARE(request(u"v2--busy-site"_s, "GET", "/").status, 200);
    }
};

QTEST_GUILESS_MAIN(TestVersionAddresses)
#include "tst_versionaddresses.moc"
