// Every transition of a deployment (docs/api.md) over real HTTP: replace, rename, protect,
// unprotect, remove the password, delete; ownership; persistence; serving during a deploy.
#include "common/deployfiles.h"
#include "enginefixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::EngineFixture;
using berth::test::TestReply;
using berth::test::textFile;

class TestDeploymentLifecycle : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineFixture> m_fixture;
    QByteArray m_key;

    berth::test::HttpTestClient &client() { return m_fixture->client(); }
    QString create(const QJsonObject &body)
    {
        const TestReply reply = client().api("POST", u"/deploy"_s, m_key, body);
        if (reply.status != 200)
            qWarning("create failed: %d %s", reply.status, reply.body.constData());
        return reply.json()[u"id"_s].toString();
    }
    TestReply put(const QString &id, const QJsonObject &body, const QByteArray &key = {})
    {
        return client().api("PUT", u"/deploy/"_s + id, key.isEmpty() ? m_key : key, body);
    }
    QJsonObject get(const QString &id) { return client().api("GET", u"/deploy/"_s + id, m_key).json(); }

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<EngineFixture>();
        QVERIFY(m_fixture->start());
        m_key = m_fixture->ownerKey();
    }
    void cleanup() { m_fixture.reset(); }

    void putReplacesContentKeepingUrl()
    {
        const QString id = create({{u"slug"_s, u"replace-me"_s},
            {u"files"_s, QJsonArray {textFile(u"index.html"_s, u"v1"_s), textFile(u"old.css"_s, u"o"_s)}}});
        const QJsonObject before = get(id);
        const TestReply reply = put(id, {{u"files"_s, QJsonArray {textFile(u"index.html"_s, u"v2"_s)}}});
        QCOMPARE(reply.status, 200);
        QCOMPARE(reply.json()[u"id"_s].toString(), id);
        QCOMPARE(reply.json()[u"slug"_s].toString(), u"replace-me"_s);
        QCOMPARE(reply.json()[u"url"_s].toString(), before[u"url"_s].toString());

        QCOMPARE(client().site(u"replace-me"_s).body, QByteArray("v2"));
        QCOMPARE(client().site(u"replace-me"_s, u"/old.css"_s).status, 404); // every old file is gone
        const QJsonObject after = get(id);
        QCOMPARE(after[u"created_at"_s], before[u"created_at"_s]);

        QCOMPARE(put(id, {{u"html"_s, u"<p>single</p>"_s}}).status, 200);
        QCOMPARE(get(id)[u"storage_type"_s].toString(), u"html"_s);
        QCOMPARE(client().site(u"replace-me"_s).body, QByteArray("<p>single</p>"));
    }

    void putWithoutContentUpdatesOnlyGivenFields()
    {
        const QString id = create({{u"html"_s, u"keep"_s}, {u"title"_s, u"Old"_s}, {u"description"_s, u"d"_s}});
        QCOMPARE(put(id, {{u"title"_s, u"New"_s}, {u"is_spa"_s, true}}).status, 200);
        const QJsonObject d = get(id);
        QCOMPARE(d[u"title"_s].toString(), u"New"_s);
        QCOMPARE(d[u"description"_s].toString(), u"d"_s);
        QCOMPARE(d[u"is_spa"_s].toBool(), true);
        const QByteArray page = client().site(d[u"slug"_s].toString()).body; // content kept, new title written in
        QVERIFY(page.endsWith("keep"));
        QVERIFY(page.contains("<title>New</title>"));

        QCOMPARE(put(id, {{u"description"_s, QJsonValue::Null}}).status, 200);
        QVERIFY(get(id)[u"description"_s].isNull());
    }

    void putRefusesSlugAndBadBodies()
    {
        const QString id = create({{u"html"_s, u"x"_s}});
        TestReply reply = put(id, {{u"slug"_s, u"new-name"_s}});
        QCOMPARE(reply.status, 400);
        reply = put(id, {{u"html"_s, u"a"_s}, {u"files"_s, QJsonArray {textFile(u"a.html"_s, u"a"_s)}}});
        QCOMPARE(reply.status, 400);
        reply = client().api("PUT", u"/deploy/"_s + id, m_key, QByteArray("nope"));
        QCOMPARE(reply.status, 400);
        reply = put(id, {{u"html"_s, QString(int(5.5 * 1048576), u'a')}});
        QCOMPARE(reply.status, 413);
        QCOMPARE(reply.error(), u"HTML exceeds the 5 MB limit (5.5 MB)"_s);
        QCOMPARE(client().site(get(id)[u"slug"_s].toString()).body, QByteArray("x"));
    }

    void renameMovesTheSiteAndFreesTheOldSlug()
    {
        const QString id = create({{u"html"_s, u"moving"_s}, {u"slug"_s, u"old-name"_s}});
        TestReply reply
            = client().api("PATCH", u"/deploy/%1/slug"_s.arg(id), m_key, QJsonObject {{u"slug"_s, u"new-name"_s}});
        QCOMPARE(reply.status, 200);
        QCOMPARE(reply.json()[u"slug"_s].toString(), u"new-name"_s);
        QCOMPARE(reply.json()[u"url"_s].toString(), u"http://new-name.localhost:%1"_s.arg(client().port()));
        QCOMPARE(client().site(u"new-name"_s).body, QByteArray("moving"));
        QCOMPARE(client().site(u"old-name"_s).status, 404);

        // Someone else can claim the released slug at once.
        const QByteArray other = m_fixture->keyFor(u"claimer@example.com"_s);
        reply = client().api(
            "POST", u"/deploy"_s, other, QJsonObject {{u"html"_s, u"claimed"_s}, {u"slug"_s, u"old-name"_s}});
        QCOMPARE(reply.status, 200);
        QCOMPARE(client().site(u"old-name"_s).body, QByteArray("claimed"));

        reply = client().api("PATCH", u"/deploy/%1/slug"_s.arg(id), m_key, QJsonObject {{u"slug"_s, u"old-name"_s}});
        QCOMPARE(reply.status, 409);
        QCOMPARE(reply.error(), u"slug \"old-name\" is already taken"_s);
        reply = client().api("PATCH", u"/deploy/%1/slug"_s.arg(id), m_key, QJsonObject {{u"slug"_s, u"Bad_Slug"_s}});
        QCOMPARE(reply.status, 400);
        reply = client().api("PATCH", u"/deploy/%1/slug"_s.arg(id), m_key, QJsonObject {});
        QCOMPARE(reply.status, 400);
        QCOMPARE(reply.error(), u"slug is required"_s);
    }

    void protectionTransitions()
    {
        const TestReply created = client().api("POST", u"/deploy"_s, m_key,
            QJsonObject {{u"html"_s, u"secret"_s}, {u"protect"_s, true}, {u"password"_s, u"hunter22"_s}});
        QCOMPARE(created.status, 200);
        const QString id = created.json()[u"id"_s].toString();
        const QString shareUrl = created.json()[u"share_url"_s].toString();
        QVERIFY(shareUrl.startsWith(created.json()[u"url"_s].toString() + u"/?_token="_s));
        QVERIFY(shareUrl.size() > created.json()[u"url"_s].toString().size() + 30);
        QJsonObject d = get(id);
        QCOMPARE(d[u"protected"_s].toBool(), true);
        QCOMPARE(d[u"has_password"_s].toBool(), true);
        QVERIFY(!d.contains(u"password"_s));

        QCOMPARE(put(id, {{u"remove_password"_s, true}}).status, 200); // share link only now
        d = get(id);
        QCOMPARE(d[u"protected"_s].toBool(), true);
        QCOMPARE(d[u"has_password"_s].toBool(), false);
        QCOMPARE(d[u"share_url"_s].toString(), shareUrl);

        QCOMPARE(put(id, {{u"protect"_s, false}}).status, 200); // all protection removed
        d = get(id);
        QCOMPARE(d[u"protected"_s].toBool(), false);
        QVERIFY(!d.contains(u"share_url"_s));
        QCOMPARE(put(id, {{u"password"_s, u"again"_s}}).status, 400); // a password needs protection

        const TestReply again = put(id, {{u"protect"_s, true}, {u"password"_s, u"again"_s}});
        QCOMPARE(again.status, 200);
        QVERIFY(!again.json()[u"share_url"_s].toString().isEmpty());
        QVERIFY(again.json()[u"share_url"_s].toString() != shareUrl); // a new token after off and on
        QCOMPARE(get(id)[u"has_password"_s].toBool(), true);
    }

    void deleteTakesTheSiteOffline()
    {
        const QString id = create({{u"html"_s, u"bye"_s}, {u"slug"_s, u"short-lived"_s}});
        const TestReply reply = client().api("DELETE", u"/deploy/"_s + id, m_key);
        QCOMPARE(reply.status, 200);
        QCOMPARE(reply.json()[u"id"_s].toString(), id);
        QVERIFY(!reply.json()[u"message"_s].toString().isEmpty());
        QCOMPARE(client().site(u"short-lived"_s).status, 404);
        QCOMPARE(client().api("GET", u"/deploy/"_s + id, m_key).status, 404);
        QCOMPARE(client().api("DELETE", u"/deploy/"_s + id, m_key).status, 404);
        QCOMPARE(create({{u"html"_s, u"reborn"_s}, {u"slug"_s, u"short-lived"_s}}).isEmpty(), false);
    }

    void otherUsersGet404()
    {
        const QString id = create({{u"html"_s, u"private to owner"_s}, {u"slug"_s, u"owned-site"_s}});
        const QByteArray stranger = m_fixture->keyFor(u"stranger@example.com"_s);
        const QString path = u"/deploy/"_s + id;
        for (const TestReply &reply : {client().api("GET", path, stranger),
                 client().api("PUT", path, stranger, QJsonObject {{u"title"_s, u"x"_s}}),
                 client().api("PATCH", path + u"/slug"_s, stranger, QJsonObject {{u"slug"_s, u"stolen-site"_s}}),
                 client().api("DELETE", path, stranger),
                 client().api("GET", u"/deploy/dep_doesnotexist0000000"_s, m_key)}) {
            QCOMPARE(reply.status, 404);
            QCOMPARE(reply.json(), QJsonObject({{u"error"_s, u"Deployment not found"_s}}));
        }
        QCOMPARE(get(id)[u"title"_s].toString(), QString());
        QCOMPARE(client().site(u"owned-site"_s).body, QByteArray("private to owner"));
    }

    void deploymentsSurviveRestart()
    {
        const QString id = create(
            {{u"files"_s, QJsonArray {textFile(u"index.html"_s, u"persisted"_s)}}, {u"slug"_s, u"durable-site"_s}});
        QVERIFY(!id.isEmpty());
        QVERIFY(m_fixture->restart());
        QCOMPARE(client().site(u"durable-site"_s).body, QByteArray("persisted"));
        QCOMPARE(get(id)[u"slug"_s].toString(), u"durable-site"_s);
    }

    void servingDoesNotWaitForADeploy()
    {
        QVERIFY(!create({{u"html"_s, u"small"_s}, {u"slug"_s, u"quick-site"_s}}).isEmpty());
        // A 40 MiB deploy in flight; a page request issued after it must be answered before it.
        QJsonArray files;
        for (int i = 0; i < 4; ++i) {
            files.append(QJsonObject {{u"path"_s, u"blob%1.bin"_s.arg(i)},
                {u"content"_s, QString::fromLatin1(QByteArray(10 * 1048576 - 1, char('a' + i)).toBase64())},
                {u"encoding"_s, u"base64"_s}});
        }
        const QByteArray body = QJsonDocument(QJsonObject {{u"files"_s, files}}).toJson(QJsonDocument::Compact);

        QNetworkAccessManager manager;
        QNetworkRequest deployRequest(QUrl(u"http://127.0.0.1:%1/deploy"_s.arg(client().port())));
        deployRequest.setRawHeader("Host", client().apiHost().toLatin1());
        deployRequest.setRawHeader("Authorization", "Bearer " + m_key);
        deployRequest.setRawHeader("Content-Type", "application/json");
        QNetworkReply *deploy = manager.post(deployRequest, body);
        QSignalSpy uploaded(deploy, &QNetworkReply::uploadProgress);
        QTRY_VERIFY_WITH_TIMEOUT(!uploaded.isEmpty() && uploaded.last().at(0).toLongLong() == body.size(), 60000);

        QList<QString> finishedOrder;
        connect(deploy, &QNetworkReply::finished, this, [&] { finishedOrder << u"deploy"_s; });
        QNetworkRequest pageRequest(QUrl(u"http://127.0.0.1:%1/"_s.arg(client().port())));
        pageRequest.setRawHeader("Host", u"quick-site.localhost:%1"_s.arg(client().port()).toLatin1());
        QNetworkReply *page = manager.get(pageRequest);
        connect(page, &QNetworkReply::finished, this, [&] { finishedOrder << u"page"_s; });
        QTRY_COMPARE_WITH_TIMEOUT(finishedOrder.size(), 2, 120000);
        QCOMPARE(page->readAll(), QByteArray("small"));
        QCOMPARE(deploy->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
        QCOMPARE(finishedOrder.first(), u"page"_s);
        delete page;
        delete deploy;
    }
};

QTEST_GUILESS_MAIN(TestDeploymentLifecycle)
#include "tst_deploymentlifecycle.moc"
