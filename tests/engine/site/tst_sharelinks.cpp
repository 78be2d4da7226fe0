// Named share links over real HTTP: each link opens its private site and sets a cookie that names it; a revoke, an
// expiry (on the injected clock) or used-up opens take effect at the next request with a page that says which; opens
// and their last time are counted and kept across a restart; only the owner sees a site's links; at most 100 per site;
// a cookie of another site or a forged one opens nothing; a password gate and version addresses honour links too; on
// PostgreSQL, a link made or revoked through one server takes effect on the others.
#include "domain/sharing/sharelinkservice.h"
#include "engine/http/rawclient.h"
#include "enginefixture.h"
#include "twonodes.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::EngineFixture;
using berth::test::RawClient;
using berth::test::RawResponse;

namespace {
const QDateTime kStart = QDateTime(QDate(2026, 11, 27), QTime(9, 0), Qt::UTC);
}

class TestShareLinks : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineFixture> m_fixture;

    QString deploy(const QString &slug, const QJsonObject &extra = {})
    {
        QJsonObject body {{u"slug"_s, slug}, {u"protect"_s, true},
            {u"files"_s,
                QJsonArray {QJsonObject {{u"path"_s, u"index.html"_s}, {u"content"_s, u"<h1>Inside</h1>"_s}}}}};
        for (auto it = extra.begin(); it != extra.end(); ++it)
            body.insert(it.key(), it.value());
        const auto reply = m_fixture->client().api("POST", u"/deploy"_s, m_fixture->ownerKey(), body);
        if (reply.status != 200)
            qWarning("deploy failed: %d %s", reply.status, reply.body.constData());
        return reply.json()[u"id"_s].toString();
    }
    berth::test::TestReply createLink(const QString &id, const QJsonObject &body = {}, QByteArray key = {})
    {
        return m_fixture->client().api(
            "POST", u"/deploy/%1/links"_s.arg(id), key.isEmpty() ? m_fixture->ownerKey() : key, body);
    }
    QJsonObject link(const QString &id, const QJsonObject &body = {})
    {
        const auto reply = createLink(id, body);
        if (reply.status != 200)
            qWarning("link failed: %d %s", reply.status, reply.body.constData());
        return reply.json();
    }
    // The site's links by id, as the owner lists them.
    QHash<QString, QJsonObject> links(const QString &id)
    {
        QHash<QString, QJsonObject> byId;
        const auto reply = m_fixture->client().api("GET", u"/deploy/%1/links"_s.arg(id), m_fixture->ownerKey());
        for (const QJsonValue entry : reply.json()[u"links"_s].toArray())
            byId.insert(entry[u"id"_s].toString(), entry.toObject());
        return byId;
    }
    int revoke(const QString &id, const QString &linkId)
    {
        return m_fixture->client()
            .api("DELETE", u"/deploy/%1/links/%2"_s.arg(id, linkId), m_fixture->ownerKey())
            .status;
    }
    RawResponse request(const QString &label, const QByteArray &target, const QByteArray &headers = {})
    {
        RawClient client;
        RawResponse response;
        if (!client.connectTo(m_fixture->client().port()))
            return response;
        client.send("GET " + target + " HTTP/1.1\r\nHost: " + label.toLatin1()
            + ".localhost:" + QByteArray::number(m_fixture->client().port()) + "\r\n" + headers + "\r\n");
        client.waitResponse(&response, false, 30000);
        return response;
    }
    static QByteArray pathOf(const QJsonObject &created)
    {
        const QString url = created[u"url"_s].toString();
        return url.mid(url.indexOf(u"/?_token="_s)).toLatin1();
    }
    static QByteArray cookieHeader(const RawResponse &response)
    {
        const QByteArray setCookie = response.header("set-cookie");
        return "Cookie: " + setCookie.left(setCookie.indexOf(';')) + "\r\n";
    }
    // Opens the link like a browser: its token, then the cookie it set. The cookie header, or empty when refused.
    QByteArray open(const QString &slug, const QJsonObject &created)
    {
        const RawResponse redirect = request(slug, pathOf(created));
        if (redirect.status != 302)
            return {};
        return cookieHeader(redirect);
    }

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<EngineFixture>();
        QVERIFY(m_fixture->startWithClock(kStart));
    }
    void cleanup() { m_fixture.reset(); }

    void eachLinkOpensTheSiteAndCountsItsOpens()
    {
        const QString id = deploy(u"client-review"_s);
        QList<QJsonObject> created;
        for (const QString &label : {u"Client"_s, u"Reviewer"_s, u"Colleague"_s}) {
            created.append(link(id, {{u"label"_s, label}}));
            QVERIFY(created.last()[u"id"_s].toString().startsWith(u"lnk_"_s));
            QCOMPARE(created.last()[u"label"_s].toString(), label);
            QCOMPARE(created.last()[u"opens"_s].toInt(), 0);
            QVERIFY(created.last()[u"last_opened_at"_s].isNull());
            QVERIFY(created.last()[u"url"_s].toString().startsWith(u"http://client-review.localhost:"_s));
        }
        for (const QJsonObject &made : created) {
            const RawResponse redirect = request(u"client-review"_s, pathOf(made));
            QCOMPARE(redirect.status, 302);
            QCOMPARE(redirect.header("location"), QByteArray("/"));
            QVERIFY(redirect.header("set-cookie").startsWith("berth_access=" + made[u"id"_s].toString().toLatin1()));
            QCOMPARE(request(u"client-review"_s, "/", cookieHeader(redirect)).body, QByteArray("<h1>Inside</h1>"));
        }
        m_fixture->clock().advance(60 * 1000);
        QVERIFY(!open(u"client-review"_s, created.at(0)).isEmpty());

        const auto listed = links(id);
        QCOMPARE(listed.size(), 3);
        QCOMPARE(listed[created.at(0)[u"id"_s].toString()][u"opens"_s].toInt(), 2);
        QCOMPARE(listed[created.at(0)[u"id"_s].toString()][u"last_opened_at"_s].toString(), u"2026-11-27T09:01:00Z"_s);
        QCOMPARE(listed[created.at(1)[u"id"_s].toString()][u"opens"_s].toInt(), 1);
        QCOMPARE(listed[created.at(1)[u"id"_s].toString()][u"last_opened_at"_s].toString(), u"2026-11-27T09:00:00Z"_s);
        for (const QJsonObject &entry : listed) {
            QVERIFY(!entry.contains(u"url"_s)); // the token is shown once
            QCOMPARE(entry[u"status"_s].toString(), u"active"_s);
        }
        // The site's own share link keeps working beside them, and is listed as such.
        const auto list = m_fixture->client().api("GET", u"/deploy/%1/links"_s.arg(id), m_fixture->ownerKey()).json();
        QJsonObject siteLink {{u"url"_s, list[u"share_url"_s]}};
        QVERIFY(!open(u"client-review"_s, siteLink).isEmpty());

        // What was counted survives a restart.
        m_fixture->engine().shareLinks().flush();
        QVERIFY(m_fixture->restart());
        const auto reread = links(id);
        QCOMPARE(reread[created.at(0)[u"id"_s].toString()][u"opens"_s].toInt(), 2);
        QCOMPARE(reread[created.at(0)[u"id"_s].toString()][u"last_opened_at"_s].toString(), u"2026-11-27T09:01:00Z"_s);
    }

    void aRevokeEndsTheVisitAtOnce()
    {
        const QString id = deploy(u"client-review"_s);
        const QJsonObject kept = link(id);
        const QJsonObject revoked = link(id, {{u"label"_s, u"Leaving"_s}});
        const QByteArray keptCookie = open(u"client-review"_s, kept);
        const QByteArray cookie = open(u"client-review"_s, revoked);
        QCOMPARE(request(u"client-review"_s, "/", cookie).status, 200);

        QCOMPARE(revoke(id, revoked[u"id"_s].toString()), 200);
        const RawResponse refused = request(u"client-review"_s, "/", cookie);
        QCOMPARE(refused.status, 403);
        QVERIFY(refused.body.contains("This share link was revoked"));
        QVERIFY(!refused.body.contains("Inside"));
        const RawResponse again = request(u"client-review"_s, pathOf(revoked));
        QCOMPARE(again.status, 403);
        QVERIFY(again.body.contains("revoked"));
        QVERIFY(again.header("set-cookie").isEmpty());
        QCOMPARE(links(id)[revoked[u"id"_s].toString()][u"status"_s].toString(), u"revoked"_s);
        // The others stay open.
        QCOMPARE(request(u"client-review"_s, "/", keptCookie).status, 200);
        // Also after a restart.
        QVERIFY(m_fixture->restart());
        QCOMPARE(request(u"client-review"_s, "/", cookie).status, 403);
        QCOMPARE(request(u"client-review"_s, "/", keptCookie).status, 200);
        QCOMPARE(revoke(id, u"lnk_unknown"_s), 404);
    }

    void anExpiredLinkOpensNothing()
    {
        const QString id = deploy(u"client-review"_s);
        const QJsonObject created = link(id, {{u"expires_in"_s, 3600}});
        QCOMPARE(created[u"expires_at"_s].toString(), u"2026-11-27T10:00:00Z"_s);
        const QByteArray cookie = open(u"client-review"_s, created);
        QCOMPARE(request(u"client-review"_s, "/", cookie).status, 200);

        m_fixture->clock().advance(3600 * 1000);
        const RawResponse refused = request(u"client-review"_s, "/", cookie);
        QCOMPARE(refused.status, 403);
        QVERIFY(refused.body.contains("This share link has expired"));
        const RawResponse token = request(u"client-review"_s, pathOf(created));
        QCOMPARE(token.status, 403);
        QVERIFY(token.body.contains("expired"));
        QCOMPARE(links(id)[created[u"id"_s].toString()][u"status"_s].toString(), u"expired"_s);

        const QJsonObject dated = link(id, {{u"expires_at"_s, u"2026-11-28T00:00:00Z"_s}});
        QCOMPARE(dated[u"expires_at"_s].toString(), u"2026-11-28T00:00:00Z"_s);
        QCOMPARE(createLink(id, {{u"expires_at"_s, u"2026-11-01T00:00:00Z"_s}}).status, 400);
        QCOMPARE(createLink(id, {{u"expires_in"_s, 60}, {u"expires_at"_s, u"2026-11-28T00:00:00Z"_s}}).status, 400);
    }

    void maxOpensLetsThatManyVisitorsIn()
    {
        const QString id = deploy(u"client-review"_s);
        const QJsonObject created = link(id, {{u"max_opens"_s, 2}});
        QCOMPARE(created[u"max_opens"_s].toInt(), 2);
        const QByteArray first = open(u"client-review"_s, created);
        const QByteArray second = open(u"client-review"_s, created);
        QVERIFY(!first.isEmpty() && !second.isEmpty());
        const RawResponse third = request(u"client-review"_s, pathOf(created));
        QCOMPARE(third.status, 403);
        QVERIFY(third.body.contains("This share link is used up"));
        // Those it let in stay in.
        QCOMPARE(request(u"client-review"_s, "/", first).status, 200);
        const QJsonObject listed = links(id)[created[u"id"_s].toString()];
        QCOMPARE(listed[u"opens"_s].toInt(), 2);
        QCOMPARE(listed[u"status"_s].toString(), u"exhausted"_s);
        QCOMPARE(createLink(id, {{u"max_opens"_s, 0}}).status, 400);
        QCOMPARE(createLink(id, {{u"max_opens"_s, 1.5}}).status, 400);
    }

    void onlyTheOwnerSeesTheLinks()
    {
        const QString id = deploy(u"client-review"_s);
        const QJsonObject created = link(id);
        const QByteArray stranger = m_fixture->keyFor(u"stranger@example.com"_s);
        QCOMPARE(createLink(id, {}, stranger).status, 404);
        QCOMPARE(m_fixture->client().api("GET", u"/deploy/%1/links"_s.arg(id), stranger).status, 404);
        QCOMPARE(m_fixture->client()
                     .api("DELETE", u"/deploy/%1/links/%2"_s.arg(id, created[u"id"_s].toString()), stranger)
                     .status,
            404);
        QCOMPARE(links(id)[created[u"id"_s].toString()][u"status"_s].toString(), u"active"_s);
        QCOMPARE(m_fixture->client().api("GET", u"/deploy/%1/links"_s.arg(id), {}).status, 401);
    }

    void atMostAHundredPerSite()
    {
        const QString id = deploy(u"client-review"_s);
        QString first;
        for (int i = 0; i < berth::ShareLinkService::kMaxLinksPerSite; ++i) {
            const auto reply = createLink(id);
            QCOMPARE(reply.status, 200);
            if (first.isEmpty())
                first = reply.json()[u"id"_s].toString();
        }
        const auto refused = createLink(id);
        QCOMPARE(refused.status, 403);
        QCOMPARE(refused.error(), u"At most 100 share links per site; revoke one to make another"_s);
        QCOMPARE(revoke(id, first), 200);
        QCOMPARE(createLink(id).status, 200);
    }

    void anotherSitesOrAForgedCookieOpensNothing()
    {
        const QString id = deploy(u"client-review"_s);
        deploy(u"other-site"_s);
        const QJsonObject created = link(id);
        const QByteArray cookie = open(u"client-review"_s, created);
        QCOMPARE(request(u"client-review"_s, "/", cookie).status, 200);
        const RawResponse elsewhere = request(u"other-site"_s, "/", cookie);
        QCOMPARE(elsewhere.status, 403);
        QVERIFY(elsewhere.body.contains("This site is private"));
        // Nor does its token open another site.
        QCOMPARE(request(u"other-site"_s, pathOf(created)).status, 403);

        const QByteArray value = cookie.mid(cookie.indexOf('=') + 1).trimmed();
        const QByteArray otherLink = "Cookie: berth_access=lnk_forged" + value.mid(value.indexOf('.')) + "\r\n";
        QVERIFY(request(u"client-review"_s, "/", otherLink).body.contains("This site is private"));
        QByteArray tampered = cookie.trimmed();
        tampered[tampered.size() - 1] = tampered.endsWith('A') ? 'B' : 'A';
        QVERIFY(request(u"client-review"_s, "/", tampered + "\r\n").body.contains("This site is private"));
        QCOMPARE(request(u"client-review"_s, "/?_token=not-a-token").status, 403);
    }

    void aLinkPassesThePasswordGate()
    {
        const QString id = deploy(u"gated-site"_s, {{u"password"_s, u"open sesame"_s}});
        const QJsonObject created = link(id);
        QCOMPARE(request(u"gated-site"_s, "/").status, 401);
        const QByteArray cookie = open(u"gated-site"_s, created);
        QCOMPARE(request(u"gated-site"_s, "/", cookie).body, QByteArray("<h1>Inside</h1>"));
        QCOMPARE(revoke(id, created[u"id"_s].toString()), 200);
        // The gate again, saying why: the password still opens it.
        const RawResponse gate = request(u"gated-site"_s, "/", cookie);
        QCOMPARE(gate.status, 401);
        QVERIFY(gate.body.contains("action=\"/_gate\""));
        QVERIFY(gate.body.contains("This share link was revoked"));
    }

    void versionAddressesHonourLinks()
    {
        const QString id = deploy(u"client-review"_s);
        QCOMPARE(m_fixture->client()
                     .api("PUT", u"/deploy/"_s + id, m_fixture->ownerKey(),
                         QJsonObject {{u"files"_s,
                             QJsonArray {QJsonObject {{u"path"_s, u"index.html"_s}, {u"content"_s, u"two"_s}}}}})
                     .status,
            200);
        const QJsonObject created = link(id);
        QCOMPARE(request(u"v1--client-review"_s, "/").status, 403);
        // A link's token works at a version's address too, and its cookie there.
        const RawResponse redirect = request(u"v1--client-review"_s, pathOf(created));
        QCOMPARE(redirect.status, 302);
        const QByteArray cookie = cookieHeader(redirect);
        QCOMPARE(request(u"v1--client-review"_s, "/", cookie).body, QByteArray("<h1>Inside</h1>"));
        QCOMPARE(revoke(id, created[u"id"_s].toString()), 200);
        const RawResponse refused = request(u"v1--client-review"_s, "/", cookie);
        QCOMPARE(refused.status, 403);
        QVERIFY(refused.body.contains("revoked"));
    }

    void aDeletedSiteTakesItsLinks()
    {
        const QString id = deploy(u"client-review"_s);
        const QJsonObject created = link(id);
        const QByteArray cookie = open(u"client-review"_s, created);
        QCOMPARE(m_fixture->client().api("DELETE", u"/deploy/"_s + id, m_fixture->ownerKey()).status, 200);
        deploy(u"client-review"_s); // the slug again, a new site
        QCOMPARE(request(u"client-review"_s, pathOf(created)).status, 403);
        QVERIFY(request(u"client-review"_s, "/", cookie).body.contains("This site is private"));
    }

    void linksReachEveryServerOfACluster()
    {
        if (qEnvironmentVariable("BERTH_TEST_DATABASE") != u"postgresql")
            QSKIP("two servers need PostgreSQL: the @postgresql variant runs this");
        berth::test::TwoNodes nodes;
        QString error;
        QVERIFY2(nodes.createDatabase(&error), qPrintable(error));
        QVERIFY(nodes.startA());
        QTemporaryDir folder;
        const auto b = nodes.startNode(folder.path());
        QVERIFY(b);
        berth::test::HttpTestClient atB(b->port());
        auto &a = nodes.a().client();
        const QString id = a.api("POST", u"/deploy"_s, nodes.a().ownerKey(),
                                QJsonObject {{u"slug"_s, u"cluster-review"_s}, {u"protect"_s, true},
                                    {u"html"_s, u"<h1>Inside</h1>"_s}})
                               .json()[u"id"_s]
                               .toString();
        QVERIFY(!id.isEmpty());
        const QJsonObject created
            = a.api("POST", u"/deploy/%1/links"_s.arg(id), nodes.a().ownerKey(), QJsonObject {}).json();
        const QString target = QString::fromLatin1(pathOf(created));
        // Made through A, it opens the site on B as soon as B hears of it.
        QTRY_COMPARE_WITH_TIMEOUT(atB.site(u"cluster-review"_s, target).status, 302, 10000);
        const QByteArray setCookie = atB.site(u"cluster-review"_s, target).header("set-cookie");
        const QList<QPair<QByteArray, QByteArray>> cookie {{"Cookie", setCookie.left(setCookie.indexOf(';'))}};
        QCOMPARE(atB.site(u"cluster-review"_s, u"/"_s, "GET", cookie).status, 200);
        // Revoked through A, it ends the visit on B.
        QCOMPARE(
            a.api("DELETE", u"/deploy/%1/links/%2"_s.arg(id, created[u"id"_s].toString()), nodes.a().ownerKey()).status,
            200);
        QTRY_COMPARE_WITH_TIMEOUT(atB.site(u"cluster-review"_s, u"/"_s, "GET", cookie).status, 403, 10000);
    }
};

QTEST_GUILESS_MAIN(TestShareLinks)
#include "tst_sharelinks.moc"
