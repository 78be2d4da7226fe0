// What a deploy's content and body decide, over real HTTP: the page title follows the document unless the owner
// set one; file paths are NFC and never hold invisible characters.
#include "enginefixture.h"
#include "storage/database.h"

#include <QJsonArray>
#include <QSqlQuery>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::EngineFixture;
using berth::test::TestReply;

class TestDeploymentContent : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineFixture> m_fixture;
    QByteArray m_key;

    berth::test::HttpTestClient &client() { return m_fixture->client(); }
    TestReply post(const QJsonObject &body) { return client().api("POST", u"/deploy"_s, m_key, body); }
    QString create(const QJsonObject &body)
    {
        const TestReply reply = post(body);
        if (reply.status != 200)
            qWarning("create failed: %d %s", reply.status, reply.body.constData());
        return reply.json()[u"id"_s].toString();
    }
    TestReply put(const QString &id, const QJsonObject &body)
    {
        return client().api("PUT", u"/deploy/"_s + id, m_key, body);
    }
    QJsonObject get(const QString &id) { return client().api("GET", u"/deploy/"_s + id, m_key).json(); }
    static QString page(const QString &title)
    {
        return u"<html><head><title>%1</title></head><body>x</body></html>"_s.arg(title);
    }

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<EngineFixture>();
        QVERIFY(m_fixture->start());
        m_key = m_fixture->ownerKey();
    }
    void cleanup() { m_fixture.reset(); }

    void titleFollowsTheDocument()
    {
        const QString id = create({{u"html"_s, page(u"First"_s)}, {u"slug"_s, u"title-follows"_s}});
        QCOMPARE(get(id)[u"title"_s].toString(), u"First"_s);
        QCOMPARE(put(id, {{u"html"_s, page(u"Second"_s)}}).status, 200);
        QCOMPARE(get(id)[u"title"_s].toString(), u"Second"_s);
        const QByteArray served = client().site(u"title-follows"_s).body;
        QVERIFY2(served.contains("<title>Second</title>"), served.constData());
        QVERIFY(!served.contains("First"));
        QVERIFY(served.contains("<meta property=\"og:title\" content=\"Second\">"));

        // Files too: the title of index.html.
        const QJsonArray files {
            QJsonObject {{u"path"_s, u"index.html"_s}, {u"content"_s, page(u"Third &amp; last"_s)}}};
        QCOMPARE(put(id, {{u"files"_s, files}}).status, 200);
        QCOMPARE(get(id)[u"title"_s].toString(), u"Third & last"_s);
        QVERIFY(client().site(u"title-follows"_s).body.contains("<title>Third &amp; last</title>"));
    }

    void explicitTitleOverridesUntilCleared()
    {
        const QString id = create({{u"html"_s, page(u"First"_s)}, {u"slug"_s, u"my-title"_s}, {u"title"_s, u"Mine"_s}});
        QCOMPARE(put(id, {{u"html"_s, page(u"Second"_s)}}).status, 200);
        QCOMPARE(get(id)[u"title"_s].toString(), u"Mine"_s);
        QVERIFY(client().site(u"my-title"_s).body.contains("<title>Mine</title>"));

        // Set on an update, it overrides from then on; an empty title hands the title back to the document.
        const QString other = create({{u"html"_s, page(u"Doc"_s)}, {u"slug"_s, u"set-later"_s}});
        QCOMPARE(put(other, {{u"title"_s, u"Chosen"_s}}).status, 200);
        QCOMPARE(put(other, {{u"html"_s, page(u"Doc two"_s)}}).status, 200);
        QCOMPARE(get(other)[u"title"_s].toString(), u"Chosen"_s);
        QCOMPARE(put(other, {{u"title"_s, u""_s}}).status, 200);
        QCOMPARE(get(other)[u"title"_s].toString(), u"Doc two"_s);
        QVERIFY(client().site(u"set-later"_s).body.contains("<title>Doc two</title>"));
    }

    // Rows from before schema 4 carry no title source: at start, a title equal to the document's follows it from
    // then on, any other stays the owner's.
    void titlesFromBeforeTheMigrationAreResolved()
    {
        const QString documentTitled = create({{u"html"_s, page(u"Old"_s)}, {u"slug"_s, u"legacy-doc"_s}});
        const QString ownerTitled
            = create({{u"html"_s, page(u"Old"_s)}, {u"slug"_s, u"legacy-own"_s}, {u"title"_s, u"Own"_s}});
        m_fixture->stop();
        {
            const auto db = m_fixture->database();
            QVERIFY(db->open());
            QSqlQuery query(db->connection());
            QVERIFY(query.exec(u"UPDATE deployments SET title_is_custom = NULL, document_title = ''"_s));
        }
        QVERIFY(m_fixture->restart());
        QCOMPARE(put(documentTitled, {{u"html"_s, page(u"New"_s)}}).status, 200);
        QCOMPARE(put(ownerTitled, {{u"html"_s, page(u"New"_s)}}).status, 200);
        QCOMPARE(get(documentTitled)[u"title"_s].toString(), u"New"_s);
        QCOMPARE(get(ownerTitled)[u"title"_s].toString(), u"Own"_s);
    }

    void filePathsAreNormalisedOrRefused()
    {
        const auto files = [](const QString &path) {
            return QJsonObject {{u"files"_s, QJsonArray {QJsonObject {{u"path"_s, path}, {u"content"_s, u"x"_s}}}}};
        };
        // Escaped in the JSON (Qt's parser drops a raw U+FEFF inside a string on its own).
        const auto postPath = [this](const QByteArray &escapedPath) {
            return client().api(
                "POST", u"/deploy"_s, m_key, "{\"files\":[{\"path\":\"" + escapedPath + "\",\"content\":\"x\"}]}");
        };
        for (const QByteArray path : {"\\ufeffindex.html", "a\\u200b.css", "a\\u2060.css", "a\\u0007.css"}) {
            const TestReply reply = postPath(path);
            QVERIFY2(reply.status == 400, (path + " " + reply.body).constData());
            QVERIFY2(reply.error().startsWith(u"file path"_s), qPrintable(reply.error()));
        }
        QCOMPARE(postPath("\\ufeffindex.html").error(),
            u"file path \"\\ufeffindex.html\" contains an invisible character (U+FEFF)"_s);

        // A decomposed name is stored composed, and served under the composed name, also after a restart.
        QJsonObject body = files(u"cafe\u0301.txt"_s);
        body.insert(u"slug"_s, u"nfc-paths"_s);
        QCOMPARE(post(body).status, 200);
        QCOMPARE(client().site(u"nfc-paths"_s, u"/caf%C3%A9.txt"_s).body, QByteArray("x"));
        QVERIFY(m_fixture->restart());
        QCOMPARE(client().site(u"nfc-paths"_s, u"/caf%C3%A9.txt"_s).body, QByteArray("x"));
    }

    // A misspelt field is refused with the name it likely meant, and changes nothing.
    void unknownFieldsAreRefusedWithAHint()
    {
        const QString id = create({{u"html"_s, page(u"Open"_s)}, {u"slug"_s, u"stays-public"_s}});
        TestReply reply = put(id, {{u"html"_s, page(u"Changed"_s)}, {u"protected"_s, true}});
        QCOMPARE(reply.status, 400);
        QCOMPARE(reply.error(), u"unknown field \"protected\"; did you mean \"protect\"?"_s);
        QCOMPARE(get(id)[u"title"_s].toString(), u"Open"_s);
        QCOMPARE(client().site(u"stays-public"_s).status, 200);

        reply = post({{u"html"_s, page(u"New"_s)}, {u"protected"_s, true}});
        QCOMPARE(reply.status, 400);
        QCOMPARE(reply.error(), u"unknown field \"protected\"; did you mean \"protect\"?"_s);
    }

    // PUT {"rotate_share_link": true}: a new share link for a private site; the old link and the cookies it gave stop
    // working and the site stays private. A public site has no link to rotate.
    void rotateShareLink()
    {
        const TestReply created = post({{u"html"_s, u"private"_s}, {u"slug"_s, u"rotate-me"_s}, {u"protect"_s, true}});
        QCOMPARE(created.status, 200);
        const QString id = created.json()[u"id"_s].toString();
        const auto tokenOf = [](const QString &shareUrl) { return shareUrl.mid(shareUrl.indexOf(u"_token="_s) + 7); };
        const QString oldToken = tokenOf(created.json()[u"share_url"_s].toString());
        const TestReply entered = client().site(u"rotate-me"_s, u"/?_token="_s + oldToken);
        QCOMPARE(entered.status, 302);
        const QByteArray setCookie = entered.header("set-cookie");
        const QByteArray cookie = setCookie.left(setCookie.indexOf(';'));
        QVERIFY(!cookie.isEmpty());
        QCOMPARE(client().site(u"rotate-me"_s, u"/"_s, "GET", {{"Cookie", cookie}}).status, 200);

        const TestReply rotated = put(id, {{u"rotate_share_link"_s, true}});
        QCOMPARE(rotated.status, 200);
        const QString newToken = tokenOf(rotated.json()[u"share_url"_s].toString());
        QVERIFY(!newToken.isEmpty());
        QVERIFY(newToken != oldToken);
        QCOMPARE(get(id)[u"protected"_s].toBool(), true);
        QCOMPARE(tokenOf(get(id)[u"share_url"_s].toString()), newToken);

        QCOMPARE(client().site(u"rotate-me"_s, u"/?_token="_s + oldToken).status, 403);
        QCOMPARE(client().site(u"rotate-me"_s, u"/"_s, "GET", {{"Cookie", cookie}}).status, 403);
        QCOMPARE(client().site(u"rotate-me"_s, u"/"_s).status, 403);
        QCOMPARE(client().site(u"rotate-me"_s, u"/?_token="_s + newToken).status, 302);

        const QString open = create({{u"html"_s, u"public"_s}, {u"slug"_s, u"open-site"_s}});
        const TestReply refused = put(open, {{u"rotate_share_link"_s, true}});
        QCOMPARE(refused.status, 400);
        QCOMPARE(refused.error(), u"rotate_share_link needs a private site; this one is public"_s);
        QCOMPARE(post({{u"html"_s, u"x"_s}, {u"rotate_share_link"_s, true}}).status, 400);
    }

    // A hostile page (a title, then "<meta " repeated to about 220 KB) rendered with the owner's metadata: the first
    // GET answers with the page rewritten, and another site answers as usual after it.
    void hostilePageIsRendered()
    {
        QString html = u"<title>t</title>"_s;
        while (html.size() < 220 * 1024)
            html += u"<meta "_s;
        QVERIFY(!create({{u"html"_s, html}, {u"slug"_s, u"hostile-page"_s}, {u"title"_s, u"Mine"_s}}).isEmpty());
        QVERIFY(!create({{u"html"_s, u"<p>other</p>"_s}, {u"slug"_s, u"other-site"_s}}).isEmpty());
        const TestReply page = client().site(u"hostile-page"_s);
        QCOMPARE(page.status, 200);
        QVERIFY(page.body.startsWith("<head>\n<title>Mine</title>"));
        QVERIFY(page.body.endsWith("<meta "));
        QCOMPARE(client().site(u"other-site"_s).body, QByteArray("<p>other</p>"));
    }
};

QTEST_GUILESS_MAIN(TestDeploymentContent)
#include "tst_deploymentcontent.moc"
