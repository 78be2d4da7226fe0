// Sites after a start: every site is a placeholder until its first request, which reads its files off the serving
// threads and goes on from there; at most EngineSettings::loadedSites file tables stay in memory; refreshSite
// rebuilds one site from the database. All over real HTTP against a real engine and its SQLite file.
#include "common/deployfiles.h"
#include "domain/deploy/siteloader.h"
#include "domain/siterules/sitetable.h"
#include "engine/http/rawclient.h"
#include "enginefixture.h"

#include <QDeadlineTimer>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QtTest>

using namespace Qt::StringLiterals;
using berth::EngineSettings;
using berth::test::EngineFixture;
using berth::test::RawClient;
using berth::test::RawResponse;
using berth::test::textFile;

class TestSiteStartup : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineFixture> m_fixture;

    bool start(int loadedSites)
    {
        m_fixture = std::make_unique<EngineFixture>();
        EngineSettings settings;
        settings.loadedSites = loadedSites;
        return m_fixture->start(settings);
    }
    // A site of three files and a redirect rule: what a site's file table holds.
    QString deployFiles(const QString &slug)
    {
        const QJsonArray files {textFile(u"index.html"_s, u"<p>home of "_s + slug + u"</p>"_s),
            textFile(u"css/site.css"_s, u"body{}/*"_s + slug + u"*/"_s),
            textFile(u"_redirects"_s, u"/old /css/site.css 301\n"_s)};
        const auto reply = m_fixture->client().api(
            "POST", u"/deploy"_s, m_fixture->ownerKey(), QJsonObject {{u"slug"_s, slug}, {u"files"_s, files}});
        if (reply.status != 200)
            qWarning("deploy failed: %d %s", reply.status, reply.body.constData());
        return reply.json()[u"id"_s].toString();
    }
    bool servesHome(const QString &slug)
    {
        const auto reply = m_fixture->client().site(slug);
        return reply.status == 200 && reply.body == "<p>home of " + slug.toUtf8() + "</p>";
    }
    bool isLoaded(const QString &slug)
    {
        const auto site = m_fixture->engine().sites().find(slug);
        return site && site->loaded;
    }
    QByteArray siteRequest(const QString &slug)
    {
        return "GET / HTTP/1.1\r\nHost: " + slug.toLatin1()
            + ".localhost:" + QByteArray::number(m_fixture->client().port()) + "\r\n\r\n";
    }
    // Waits on the socket alone: this thread (the engine's) runs no events meanwhile.
    static bool waitWithoutEvents(RawClient &client, RawResponse *response)
    {
        QDeadlineTimer deadline(10000);
        while (!client.takeResponse(response)) {
            if (deadline.hasExpired())
                return false;
            client.socket().waitForReadyRead(100);
        }
        return true;
    }

private Q_SLOTS:
    void cleanup() { m_fixture.reset(); }

    void aSiteIsServedWholeAfterARestart()
    {
        QVERIFY(start(100));
        QVERIFY(!deployFiles(u"site-alpha"_s).isEmpty());
        QVERIFY(m_fixture->restart());
        QVERIFY(!isLoaded(u"site-alpha"_s)); // a placeholder until requested
        QCOMPARE(m_fixture->engine().sites().find(u"site-alpha"_s)->fileCount, 3);
        QCOMPARE(m_fixture->engine().sites().loadedCount(), 0);

        QVERIFY(servesHome(u"site-alpha"_s));
        QVERIFY(isLoaded(u"site-alpha"_s));
        const auto css = m_fixture->client().site(u"site-alpha"_s, u"/css/site.css"_s);
        QCOMPARE(css.status, 200);
        QCOMPARE(css.body, QByteArray("body{}/*site-alpha*/"));
        const auto moved = m_fixture->client().site(u"site-alpha"_s, u"/old"_s); // the compiled _redirects
        QCOMPARE(moved.status, 301);
        QCOMPARE(m_fixture->client().site(u"site-alpha"_s, u"/missing.html"_s).status, 404);
        QCOMPARE(m_fixture->client().site(u"nosuchsite"_s).status, 404);
    }

    void aSiteNotLoadedYetIsLoadedByItsFirstRequestOfAnyKind()
    {
        QVERIFY(start(100));
        QVERIFY(!deployFiles(u"site-beta"_s).isEmpty());
        QVERIFY(m_fixture->restart());
        const auto moved = m_fixture->client().site(u"site-beta"_s, u"/old"_s);
        QCOMPARE(moved.status, 301);
        QVERIFY(moved.header("location").endsWith("/css/site.css"));
        QCOMPARE(m_fixture->client().site(u"site-beta"_s, u"/"_s, "POST").status, 405);
        QCOMPARE(m_fixture->engine().sites().loadedCount(), 1);
    }

    void manySitesEachServeTheirOwnFiles()
    {
        QVERIFY(start(5));
        QStringList slugs;
        for (int i = 0; i < 30; ++i) {
            slugs.append(u"many-%1"_s.arg(i));
            QVERIFY(
                !m_fixture->deploySite(m_fixture->ownerKey(), slugs.last(), u"<p>home of %1</p>"_s.arg(slugs.last()))
                     .isEmpty());
        }
        QVERIFY(m_fixture->restart());
        QCOMPARE(m_fixture->engine().sites().size(), 30);
        for (int round = 0; round < 2; ++round) {
            for (const QString &slug : std::as_const(slugs))
                QVERIFY2(servesHome(slug), qPrintable(slug));
        }
        QCOMPARE(m_fixture->engine().sites().loadedCount(), 5);
    }

    void theLeastRecentlyUsedTableIsDroppedAndReadAgain()
    {
        QVERIFY(start(2));
        for (const QString &slug : {u"site-one"_s, u"site-two"_s, u"site-three"_s})
            QVERIFY(!deployFiles(slug).isEmpty());
        QVERIFY(m_fixture->restart());
        QVERIFY(servesHome(u"site-one"_s));
        QVERIFY(servesHome(u"site-two"_s));
        QVERIFY(servesHome(u"site-one"_s)); // "one" is now used more recently than "two"
        QVERIFY(servesHome(u"site-three"_s));
        QVERIFY(isLoaded(u"site-one"_s));
        QVERIFY(!isLoaded(u"site-two"_s)); // dropped back to a placeholder
        QVERIFY(isLoaded(u"site-three"_s));
        QCOMPARE(m_fixture->engine().sites().loadedCount(), 2);

        QVERIFY(servesHome(u"site-two"_s)); // read again, whole
        QCOMPARE(m_fixture->client().site(u"site-two"_s, u"/css/site.css"_s).body, QByteArray("body{}/*site-two*/"));
        QVERIFY(isLoaded(u"site-two"_s));
        QCOMPARE(m_fixture->engine().sites().loadedCount(), 2);
    }

    void aLoadedSiteAnswersWhileAnotherWaitsForItsFiles()
    {
        QVERIFY(start(100));
        QVERIFY(!deployFiles(u"site-ready"_s).isEmpty());
        QVERIFY(!deployFiles(u"site-cold"_s).isEmpty());
        QVERIFY(m_fixture->restart());
        QVERIFY(servesHome(u"site-ready"_s));

        // The files of "cold" are read on the engine's thread, which is this one: while it runs no events, "cold"
        // cannot be answered, and "ready" must still be, from a serving thread.
        RawClient cold;
        RawClient ready;
        QVERIFY(cold.connectTo(m_fixture->client().port()));
        QVERIFY(ready.connectTo(m_fixture->client().port()));
        cold.send(siteRequest(u"site-cold"_s));
        ready.send(siteRequest(u"site-ready"_s));
        RawResponse response;
        QVERIFY(waitWithoutEvents(ready, &response));
        QCOMPARE(response.status, 200);
        QCOMPARE(response.body, QByteArray("<p>home of site-ready</p>"));
        QVERIFY(!cold.takeResponse(&response));
        QVERIFY(!isLoaded(u"site-cold"_s));

        QVERIFY(cold.waitResponse(&response, false, 10000));
        QCOMPARE(response.status, 200);
        QCOMPARE(response.body, QByteArray("<p>home of site-cold</p>"));
    }

    void refreshSitePutsAndRemovesFromTheDatabase()
    {
        QVERIFY(start(100));
        const QString id = deployFiles(u"site-before"_s);
        QVERIFY(!id.isEmpty());
        QVERIFY(servesHome(u"site-before"_s));
        berth::SiteLoader &loader = m_fixture->engine().siteLoader();
        QSignalSpy changed(&loader, &berth::SiteLoader::deploymentChanged);
        QSignalSpy removed(&loader, &berth::SiteLoader::deploymentRemoved);

        // As another node would: the row changes in the database, this node's table does not know yet.
        {
            const auto db = m_fixture->database();
            QVERIFY(db->open());
            QSqlQuery query(db->connection());
            QVERIFY(query.exec(u"UPDATE deployments SET slug = 'site-after' WHERE id = '%1'"_s.arg(id)));
        }
        QVERIFY(servesHome(u"site-before"_s));
        loader.refreshSite(id);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.first().first().toString(), id);
        loader.refreshSite(id); // unchanged since (as after the notice of this node's own change): not announced
        QCOMPARE(changed.count(), 1);
        QCOMPARE(m_fixture->client().site(u"site-before"_s).status, 404);
        const auto css = m_fixture->client().site(u"site-after"_s, u"/css/site.css"_s);
        QCOMPARE(css.status, 200);
        QCOMPARE(css.body, QByteArray("body{}/*site-before*/"));

        {
            const auto db = m_fixture->database();
            QVERIFY(db->open());
            QSqlQuery query(db->connection());
            QVERIFY(query.exec(u"DELETE FROM deployments WHERE id = '%1'"_s.arg(id)));
        }
        loader.refreshSite(id);
        QCOMPARE(removed.count(), 1);
        QCOMPARE(m_fixture->client().site(u"site-after"_s).status, 404);
        QCOMPARE(m_fixture->engine().sites().size(), 0);
        loader.refreshSite(id); // gone already: nothing changes, nothing is announced
        QCOMPARE(removed.count(), 1);
        QCOMPARE(changed.count(), 1);
    }
};

QTEST_GUILESS_MAIN(TestSiteStartup)
#include "tst_sitestartup.moc"
