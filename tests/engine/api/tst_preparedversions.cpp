// Prepare, then publish, over real HTTP: PUT /deploy/:id with "publish": false stores a version that is served at its
// own address only, until a rollback makes it live.
#include "enginefixture.h"

#include <QJsonArray>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::EngineFixture;
using berth::test::TestReply;

class TestPreparedVersions : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineFixture> m_fixture;

    berth::test::HttpTestClient &client() { return m_fixture->client(); }
    static QJsonArray page(const QString &text)
    {
        return {QJsonObject {{u"path"_s, u"index.html"_s}, {u"content"_s, u"<h1>"_s + text + u"</h1>"_s}}};
    }
    QString create(const QString &slug)
    {
        const TestReply reply = client().api(
            "POST", u"/deploy"_s, m_fixture->ownerKey(), QJsonObject {{u"slug"_s, slug}, {u"files"_s, page(u"one"_s)}});
        return reply.json()[u"id"_s].toString();
    }
    TestReply put(const QString &id, const QJsonObject &body)
    {
        return client().api("PUT", u"/deploy/"_s + id, m_fixture->ownerKey(), body);
    }
    QJsonArray versions(const QString &id)
    {
        return client()
            .api("GET", u"/deploy/%1/versions"_s.arg(id), m_fixture->ownerKey())
            .json()[u"versions"_s]
            .toArray();
    }
    bool liveShows(const QString &slug, const QByteArray &text)
    {
        return client().site(slug).body.contains("<h1>" + text + "</h1>");
    }

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<EngineFixture>();
        QVERIFY(m_fixture->start());
    }
    void cleanup() { m_fixture.reset(); }

    void aPreparedVersionIsNotLiveUntilPromoted()
    {
        const QString id = create(u"staged-site"_s);
        QVERIFY(!id.isEmpty());
        const TestReply prepared
            = put(id, {{u"files"_s, page(u"two"_s)}, {u"title"_s, u"Second"_s}, {u"publish"_s, false}});
        QCOMPARE(prepared.status, 200);
        QCOMPARE(prepared.json()[u"version"_s].toInt(), 2);
        QCOMPARE(prepared.json()[u"live"_s].toBool(true), false);
        QCOMPARE(prepared.json()[u"url"_s].toString(), u"http://v2--staged-site.localhost:%1"_s.arg(client().port()));
        QVERIFY(liveShows(u"staged-site"_s, "one"));
        QVERIFY(client().site(u"v2--staged-site"_s).body.contains("<h1>two"));

        // Another prepared version; the live site and its record never change meanwhile.
        QCOMPARE(put(id, {{u"files"_s, page(u"three"_s)}, {u"publish"_s, false}}).json()[u"version"_s].toInt(), 3);
        QVERIFY(liveShows(u"staged-site"_s, "one"));
        const QJsonObject record = client().api("GET", u"/deploy/"_s + id, m_fixture->ownerKey()).json();
        QVERIFY(record[u"title"_s].toString() != u"Second"_s);
        const QJsonArray kept = versions(id);
        QCOMPARE(kept.size(), 3);
        for (const QJsonValue &version : kept)
            QCOMPARE(version[u"live"_s].toBool(), version[u"version"_s].toInt() == 1);

        // Promoted by a rollback, as any kept version.
        const TestReply promoted = client().api(
            "POST", u"/deploy/%1/rollback"_s.arg(id), m_fixture->ownerKey(), QJsonObject {{u"version"_s, 2}});
        QCOMPARE(promoted.status, 200);
        QVERIFY(liveShows(u"staged-site"_s, "two"));
        QCOMPARE(
            client().api("GET", u"/deploy/"_s + id, m_fixture->ownerKey()).json()[u"title"_s].toString(), u"Second"_s);
    }

    void publishingStaysTheDefault()
    {
        const QString id = create(u"plain-site"_s);
        const TestReply published = put(id, {{u"files"_s, page(u"two"_s)}, {u"publish"_s, true}});
        QCOMPARE(published.status, 200);
        QVERIFY(liveShows(u"plain-site"_s, "two"));
    }

    void preparingNeedsContentOnly()
    {
        const QString id = create(u"strict-site"_s);
        QCOMPARE(put(id, {{u"title"_s, u"x"_s}, {u"publish"_s, false}}).status, 400);
        QCOMPARE(put(id, {{u"files"_s, page(u"two"_s)}, {u"protect"_s, true}, {u"publish"_s, false}}).status, 400);
        QCOMPARE(put(id, {{u"files"_s, page(u"two"_s)}, {u"publish"_s, u"no"_s}}).status, 400);
        const TestReply created = client().api("POST", u"/deploy"_s, m_fixture->ownerKey(),
            QJsonObject {{u"files"_s, page(u"x"_s)}, {u"publish"_s, false}});
        QCOMPARE(created.status, 400);
        QCOMPARE(versions(id).size(), 1);
        QVERIFY(liveShows(u"strict-site"_s, "one"));
    }
};

QTEST_GUILESS_MAIN(TestPreparedVersions)
#include "tst_preparedversions.moc"
