// POST /deploy, GET /deploy/:id, GET /deploys and the error table of docs/api.md, over real HTTP.
#include "common/deployfiles.h"
#include "domain/common/workerpriority.h"
#include "enginefixture.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::base64File;
using berth::test::EngineFixture;
using berth::test::TestReply;
using berth::test::textFile;

class TestDeploymentsApi : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineFixture> m_fixture;
    QByteArray m_key;

    berth::test::HttpTestClient &client() { return m_fixture->client(); }
    TestReply deploy(const QJsonObject &body, const QByteArray &key = {})
    {
        return client().api("POST", u"/deploy"_s, key.isEmpty() ? m_key : key, body);
    }

    // How many of this process's threads run at a nice of `nice`, read from /proc (field 19 of a task's stat).
    static int threadsAtNice(int nice)
    {
        int count = 0;
        const QStringList tasks = QDir(u"/proc/self/task"_s).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        for (const QString &task : tasks) {
            QFile stat(u"/proc/self/task/%1/stat"_s.arg(task));
            if (!stat.open(QIODevice::ReadOnly))
                continue;
            const QByteArray text = stat.readAll();
            const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' '); // from field 3 on
            if (fields.size() > 16 && fields.at(16).toInt() == nice)
                ++count;
        }
        return count;
    }

    TestReply deployRandomBinary(const QString &slug, const QByteArray &content)
    {
        return deploy({{u"slug"_s, slug}, {u"files"_s, QJsonArray {base64File(u"data.bin"_s, content)}}});
    }

    static QByteArray randomBytes(int size)
    {
        QByteArray content(size, Qt::Uninitialized);
        QRandomGenerator(7).fillRange(reinterpret_cast<quint32 *>(content.data()), content.size() / 4);
        return content;
    }

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<EngineFixture>();
        QVERIFY(m_fixture->start());
        m_key = m_fixture->ownerKey();
    }
    void cleanup() { m_fixture.reset(); }

    void createHtmlGoesLiveAtOnce()
    {
        const TestReply reply = deploy({{u"html"_s, u"<h1>Hello</h1>"_s}});
        QCOMPARE(reply.status, 200);
        const QJsonObject created = reply.json();
        QVERIFY(QRegularExpression(u"^dep_[A-Za-z0-9]{16,}$"_s).match(created[u"id"_s].toString()).hasMatch());
        const QString slug = created[u"slug"_s].toString();
        QVERIFY2(QRegularExpression(u"^[a-z0-9]+(-[a-z0-9]+)+$"_s).match(slug).hasMatch(), qPrintable(slug));
        QCOMPARE(created[u"url"_s].toString(), u"http://%1.localhost:%2"_s.arg(slug).arg(client().port()));
        QVERIFY(!created.contains(u"share_url"_s));

        const TestReply page = client().site(slug);
        QCOMPARE(page.status, 200);
        QCOMPARE(page.body, QByteArray("<h1>Hello</h1>"));
        QVERIFY(page.header("content-type").startsWith("text/html"));
    }

    void getReturnsEveryField()
    {
        const QJsonObject created = deploy(
            {{u"html"_s, u"<p>x</p>"_s}, {u"slug"_s, u"field-check"_s}, {u"title"_s, u"Fields"_s},
                {u"favicon"_s, u"🚀"_s}}).json();
        const TestReply reply = client().api("GET", u"/deploy/"_s + created[u"id"_s].toString(), m_key);
        QCOMPARE(reply.status, 200);
        const QJsonObject d = reply.json();
        QCOMPARE(d[u"id"_s].toString(), created[u"id"_s].toString());
        QCOMPARE(d[u"slug"_s].toString(), u"field-check"_s);
        QCOMPARE(d[u"url"_s].toString(), created[u"url"_s].toString());
        QCOMPARE(d[u"status"_s].toString(), u"active"_s);
        QCOMPARE(d[u"storage_type"_s].toString(), u"html"_s);
        QCOMPARE(d[u"is_spa"_s].toBool(true), false);
        QCOMPARE(d[u"title"_s].toString(), u"Fields"_s);
        QVERIFY(d[u"description"_s].isNull());
        QCOMPARE(d[u"favicon"_s].toString(), u"🚀"_s);
        QCOMPARE(d[u"protected"_s].toBool(true), false);
        QCOMPARE(d[u"has_password"_s].toBool(true), false);
        const QRegularExpression iso(u"^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$"_s);
        QVERIFY(iso.match(d[u"created_at"_s].toString()).hasMatch());
        QVERIFY(iso.match(d[u"updated_at"_s].toString()).hasMatch());
    }

    void multiFileSiteServesEveryFile()
    {
        const QByteArray png = QByteArray::fromHex("89504e470d0a1a0a0000000d4948445200");
        const TestReply reply = deploy({{u"slug"_s, u"multi-site"_s},
            {u"files"_s,
                QJsonArray {textFile(u"index.html"_s, u"<h1>Home</h1>"_s), textFile(u"css/site.css"_s, u"body{}"_s),
                    textFile(u"docs/index.html"_s, u"<h1>Docs</h1>"_s), base64File(u"img/logo.png"_s, png)}}});
        QCOMPARE(reply.status, 200);
        const QString id = reply.json()[u"id"_s].toString();
        QCOMPARE(client().api("GET", u"/deploy/"_s + id, m_key).json()[u"storage_type"_s].toString(), u"files"_s);

        QCOMPARE(client().site(u"multi-site"_s).body, QByteArray("<h1>Home</h1>"));
        const TestReply css = client().site(u"multi-site"_s, u"/css/site.css"_s);
        QCOMPARE(css.status, 200);
        QCOMPARE(css.body, QByteArray("body{}"));
        QVERIFY(css.header("content-type").startsWith("text/css"));
        const TestReply image = client().site(u"multi-site"_s, u"/img/logo.png"_s);
        QCOMPARE(image.body, png);
        QCOMPARE(image.header("content-type"), QByteArray("image/png"));
        QCOMPARE(client().site(u"multi-site"_s, u"/docs/"_s).body, QByteArray("<h1>Docs</h1>"));
        QCOMPARE(client().site(u"multi-site"_s, u"/missing.txt"_s).status, 404);
    }

    // Long contents take the fast path when printable ASCII and the whole-body parse otherwise: each is served as
    // sent.
    void longContentsServedAsSent()
    {
        const QString ascii(1000, u'x');
        const QString accented(300, QChar(0xe9));
        const QByteArray bytes = randomBytes(3000);
        QString spaced = QString::fromLatin1(bytes.toBase64());
        spaced.insert(1000, u' ');
        const TestReply reply = deploy({{u"slug"_s, u"long-contents"_s},
            {u"files"_s,
                QJsonArray {textFile(u"ascii.txt"_s, ascii), textFile(u"accented.txt"_s, accented),
                    base64File(u"plain.bin"_s, bytes),
                    QJsonObject {
                        {u"path"_s, u"spaced.bin"_s}, {u"content"_s, spaced}, {u"encoding"_s, u"base64"_s}}}}});
        QCOMPARE(reply.status, 200);
        QCOMPARE(client().site(u"long-contents"_s, u"/ascii.txt"_s).body, ascii.toUtf8());
        QCOMPARE(client().site(u"long-contents"_s, u"/accented.txt"_s).body, accented.toUtf8());
        QCOMPARE(client().site(u"long-contents"_s, u"/plain.bin"_s).body, bytes);
        QCOMPARE(client().site(u"long-contents"_s, u"/spaced.bin"_s).body, bytes);
    }

    void unknownSlugIsNotFound()
    {
        const TestReply reply = client().site(u"nobody-here"_s);
        QCOMPARE(reply.status, 404);
        QVERIFY(reply.body.contains("No site here"));
    }

    void listShowsOnlyOwnDeployments()
    {
        const QByteArray other = m_fixture->keyFor(u"other@example.com"_s);
        QCOMPARE(deploy({{u"html"_s, u"a"_s}, {u"slug"_s, u"mine-one"_s}, {u"title"_s, u"Mine"_s}}).status, 200);
        QCOMPARE(deploy({{u"html"_s, u"b"_s}, {u"slug"_s, u"theirs-one"_s}}, other).status, 200);

        const TestReply reply = client().api("GET", u"/deploys"_s, m_key);
        QCOMPARE(reply.status, 200);
        const QJsonArray list = reply.json()[u"deployments"_s].toArray();
        QCOMPARE(list.size(), 1);
        const QJsonObject entry = list.at(0).toObject();
        QCOMPARE(entry[u"slug"_s].toString(), u"mine-one"_s);
        QCOMPARE(entry[u"title"_s].toString(), u"Mine"_s);
        QVERIFY(entry.contains(u"id"_s) && entry.contains(u"url"_s) && entry.contains(u"updated_at"_s));
    }

    void authenticationComesFirst_data()
    {
        QTest::addColumn<QByteArray>("authorization");
        QTest::newRow("missing") << QByteArray();
        QTest::newRow("unknown key") << QByteArray("Bearer bk_notarealkey000000000000000000000000");
        QTest::newRow("wrong scheme") << QByteArray("Basic dXNlcjpwYXNz");
        QTest::newRow("empty bearer") << QByteArray("Bearer ");
    }
    void authenticationComesFirst()
    {
        QFETCH(QByteArray, authorization);
        QList<QPair<QByteArray, QByteArray>> headers;
        if (!authorization.isEmpty())
            headers.append({"Authorization", authorization});
        const auto host = client().apiHost();
        for (const auto &[method, path] : QList<QPair<QByteArray, QString>> {{"POST", u"/deploy"_s},
                 {"GET", u"/deploys"_s}, {"GET", u"/deploy/dep_x"_s}, {"PUT", u"/deploy/dep_x"_s},
                 {"PATCH", u"/deploy/dep_x/slug"_s}, {"DELETE", u"/deploy/dep_x"_s}}) {
            const TestReply reply = client().request(method, host, path, "{not json", headers);
            QCOMPARE(reply.status, 401);
            QCOMPARE(reply.json(), QJsonObject({{u"error"_s, u"Unauthorized"_s}}));
        }
    }

    void badBodiesAre400_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("error");
        QTest::newRow("malformed") << QByteArray("{\"html\": ") << QString();
        QTest::newRow("array") << QByteArray("[1,2]") << u"Request body must be a JSON object"_s;
        QTest::newRow("neither") << QByteArray("{\"title\":\"x\"}") << u"html is required"_s;
        QTest::newRow("both") << QByteArray("{\"html\":\"a\",\"files\":[{\"path\":\"a.html\",\"content\":\"a\"}]}")
                              << u"Provide either html or files, not both"_s;
        QTest::newRow("html type") << QByteArray("{\"html\":42}") << QString();
        QTest::newRow("is_spa type") << QByteArray("{\"html\":\"a\",\"is_spa\":\"yes\"}") << QString();
        QTest::newRow("empty slug") << QByteArray("{\"html\":\"a\",\"slug\":\"\"}") << QString();
        QTest::newRow("single word") << QByteArray("{\"html\":\"a\",\"slug\":\"site\"}") << QString();
        QTest::newRow("uppercase") << QByteArray("{\"html\":\"a\",\"slug\":\"My-Site\"}") << QString();
        QTest::newRow("traversal") << QByteArray("{\"files\":[{\"path\":\"../x.html\",\"content\":\"a\"}]}")
                                   << QString();
        QTest::newRow("absolute") << QByteArray("{\"files\":[{\"path\":\"/x.html\",\"content\":\"a\"}]}") << QString();
        QTest::newRow("backslash") << QByteArray("{\"files\":[{\"path\":\"a\\\\b.html\",\"content\":\"a\"}]}")
                                   << QString();
        QTest::newRow("duplicate") << QByteArray(
            "{\"files\":[{\"path\":\"a.html\",\"content\":\"a\"},{\"path\":\"./a.html\",\"content\":\"b\"}]}")
                                   << QString();
        QTest::newRow("no content") << QByteArray("{\"files\":[{\"path\":\"a.html\"}]}") << QString();
        QTest::newRow("bad encoding") << QByteArray(
            "{\"files\":[{\"path\":\"a\",\"content\":\"a\",\"encoding\":\"hex\"}]}")
                                      << QString();
        QTest::newRow("bad base64") << QByteArray(
            "{\"files\":[{\"path\":\"a\",\"content\":\"!!!\",\"encoding\":\"base64\"}]}")
                                    << QString();
        // Contents of 256 bytes or more are read from the body's bytes when printable ASCII (LiftedContent); these
        // are not, and must be refused as Qt's parse of the whole body refuses them.
        const QByteArray invalidUtf8
            = "{\"files\":[{\"path\":\"a\",\"content\":\"\xff" + QByteArray(300, 'a') + "\"}]}";
        QJsonParseError parseError;
        QJsonDocument::fromJson(invalidUtf8, &parseError);
        QTest::newRow("long content, invalid utf-8") << invalidUtf8 << u"Malformed JSON: "_s + parseError.errorString();
        QTest::newRow("long bad base64") << "{\"files\":[{\"path\":\"a\",\"content\":\"" + QByteArray(300, 'A')
                + "!\",\"encoding\":\"base64\"}]}"
                                         << u"files[0].content is not valid base64"_s;
        QTest::newRow("password unprotected")
            << QByteArray("{\"html\":\"a\",\"password\":\"secret\"}") << u"password requires protect: true"_s;
    }
    void badBodiesAre400()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, error);
        const TestReply reply = client().api("POST", u"/deploy"_s, m_key, body);
        QCOMPARE(reply.status, 400);
        QVERIFY2(!reply.error().isEmpty(), reply.body.constData());
        QCOMPARE(reply.json().size(), 1);
        if (!error.isEmpty())
            QCOMPARE(reply.error(), error);
        QCOMPARE(client().api("GET", u"/deploys"_s, m_key).json()[u"deployments"_s].toArray().size(), 0);
    }

    void oversizedContentIs413()
    {
        const QString html = QString(int(5.5 * 1048576), u'a');
        TestReply reply = deploy({{u"html"_s, html}});
        QCOMPARE(reply.status, 413);
        QCOMPARE(reply.error(), u"HTML exceeds the 5 MB limit (5.5 MB)"_s);

        const QByteArray big(10 * 1048576 + 1, 'x');
        reply = deploy({{u"files"_s, QJsonArray {base64File(u"big.bin"_s, big)}}});
        QCOMPARE(reply.status, 413);
        QCOMPARE(reply.error(), u"File \"big.bin\" exceeds the 10 MB per-file limit"_s);

        // 51 MiB in all: over the limit, yet small enough as base64 that the front door lets it in and
        // the deploy check itself answers.
        QJsonArray files;
        const QByteArray chunk(8.5 * 1048576, 'y');
        for (int i = 0; i < 6; ++i)
            files.append(base64File(u"part%1.bin"_s.arg(i), chunk));
        reply = deploy({{u"files"_s, files}});
        QCOMPARE(reply.status, 413);
        QCOMPARE(reply.error(), u"Total deployment size exceeds the 50 MB limit"_s);
        QCOMPARE(client().api("GET", u"/deploys"_s, m_key).json()[u"deployments"_s].toArray().size(), 0);
    }

    // berthd's setting: the start-up sweep and the deploy's decoding, hashing and storing run on workers at a nice of
    // 10, below the serving threads; the deploy itself is unchanged, its bytes served exactly.
    void deployWorkYieldsToServingWhenAsked()
    {
#ifndef Q_OS_LINUX
        QSKIP("a nice per thread is Linux's");
#endif
        QCOMPARE(threadsAtNice(0) > 0, true); // the test itself runs at 0 (else the comparison below means nothing)
        m_fixture = std::make_unique<EngineFixture>();
        berth::EngineSettings settings;
        settings.workersYieldToServing = true;
        QVERIFY(m_fixture->start(settings));
        // The start-up sweep goes through the same pool: lowered as well, before any deploy.
        QTRY_VERIFY_WITH_TIMEOUT(threadsAtNice(berth::kBackgroundNice) >= 1, 10000);
        m_key = m_fixture->ownerKey();
        const QByteArray content = randomBytes(256 * 1024);
        QCOMPARE(deployRandomBinary(u"yielding-workers"_s, content).status, 200);
        QVERIFY(threadsAtNice(berth::kBackgroundNice) >= 1); // the pool keeps its threads a while after the work
        const TestReply served = client().site(u"yielding-workers"_s, u"/data.bin"_s);
        QCOMPARE(served.status, 200);
        QVERIFY(served.body == content);
    }

    // The default (the dashboard, where the person publishing is the one waiting): no thread is lowered.
    void deployWorkAtNormalPriorityByDefault()
    {
        QCOMPARE(deployRandomBinary(u"normal-workers"_s, randomBytes(256 * 1024)).status, 200);
        QCOMPARE(threadsAtNice(berth::kBackgroundNice), 0);
    }

    void slugConflictIs409()
    {
        QCOMPARE(deploy({{u"html"_s, u"a"_s}, {u"slug"_s, u"taken-slug"_s}}).status, 200);
        const QByteArray other = m_fixture->keyFor(u"someone@example.com"_s);
        const TestReply reply = deploy({{u"html"_s, u"b"_s}, {u"slug"_s, u"taken-slug"_s}}, other);
        QCOMPARE(reply.status, 409);
        QCOMPARE(reply.error(), u"slug \"taken-slug\" is already taken"_s);
        QCOMPARE(client().site(u"taken-slug"_s).body, QByteArray("a"));
    }

    void planLimitIs403AndDeleteFreesASlot()
    {
        const QByteArray free = m_fixture->keyFor(u"free@example.com"_s, u"free"_s);
        QString firstId;
        for (int i = 0; i < 5; ++i) {
            const TestReply reply = deploy({{u"html"_s, u"n"_s}}, free);
            QCOMPARE(reply.status, 200);
            if (firstId.isEmpty())
                firstId = reply.json()[u"id"_s].toString();
        }
        TestReply reply = deploy({{u"html"_s, u"sixth"_s}}, free);
        QCOMPARE(reply.status, 403);
        QCOMPARE(reply.error(), u"Deployment limit reached. Delete an existing deployment or upgrade your plan."_s);
        QCOMPARE(client().api("DELETE", u"/deploy/"_s + firstId, free).status, 200);
        QCOMPARE(deploy({{u"html"_s, u"sixth"_s}}, free).status, 200);
    }

    void routingErrors()
    {
        TestReply reply = client().api("GET", u"/nothing/here"_s, m_key);
        QCOMPARE(reply.status, 404);
        QCOMPARE(reply.json(), QJsonObject({{u"error"_s, u"Not found"_s}}));

        reply = client().api("DELETE", u"/deploys"_s, m_key);
        QCOMPARE(reply.status, 405);
        QCOMPARE(reply.header("allow"), QByteArray("GET, HEAD"));
        QVERIFY(!reply.error().isEmpty());

        reply = client().api("POST", u"/deploy/dep_x/slug"_s, m_key);
        QCOMPARE(reply.status, 405);
        QCOMPARE(reply.header("allow"), QByteArray("PATCH"));

        reply = client().api("HEAD", u"/deploys"_s, m_key);
        QCOMPARE(reply.status, 200);
        QVERIFY(reply.body.isEmpty());
        QVERIFY(reply.header("content-length").toInt() > 0);
    }

    void rootDescribesTheInstance()
    {
        TestReply reply = client().request("GET", client().apiHost(), u"/"_s); // no key needed
        QCOMPARE(reply.status, 200);
        QCOMPARE(reply.json()[u"name"_s].toString(), u"Berth"_s);
        QCOMPARE(reply.json()[u"sign_in"_s].toString(), u"http://localhost:%1/auth/login"_s.arg(client().port()));
        QCOMPARE(reply.json()[u"sites"_s].toString(), u"http://<slug>.localhost:%1"_s.arg(client().port()));
        reply = client().request("GET", client().apiHost(), u"/"_s, {}, {{"Accept", "text/html,*/*"}});
        QCOMPARE(reply.status, 200);
        QVERIFY(reply.header("content-type").startsWith("text/html"));
        QVERIFY(reply.body.contains("Berth is running"));
        QVERIFY(reply.body.contains("/auth/login"));
        QCOMPARE(client().request("POST", client().apiHost(), u"/"_s).status, 405);
    }

    void unknownHostIsRefused()
    {
        const TestReply reply = client().request("GET", u"evil.example:%1"_s.arg(client().port()), u"/deploys"_s, {},
            {{"Authorization", "Bearer " + m_key}});
        QCOMPARE(reply.status, 421);
        QVERIFY(!reply.error().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestDeploymentsApi)
#include "tst_deploymentsapi.moc"
