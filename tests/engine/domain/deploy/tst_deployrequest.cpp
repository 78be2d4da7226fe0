#include "deployrequesttest.h"
#include "domain/deploy/deploymentlimits.h"
#include "domain/deploy/filepath.h"
#include "domain/deploy/slugrules.h"

#include <QTest>
#include <QtConcurrent/QtConcurrentMap>

using namespace Qt::StringLiterals;
using namespace berth;
using namespace deployrequesttest;
using berth::test::base64File;
using berth::test::textFile;

namespace {

QString jsonError(const QByteArray &body)
{
    QJsonParseError error;
    QJsonDocument::fromJson(body, &error);
    return error.errorString();
}

} // namespace

void TestDeployRequest::refused_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<Mode>("mode");
    QTest::addColumn<Error::Kind>("kind");
    QTest::addColumn<QString>("message");

    const auto bad = Error::Kind::BadRequest;
    const auto add = [bad](const char *name, const QByteArray &body, const QString &message, Mode mode = Mode::Create) {
        QTest::newRow(name) << body << mode << bad << message;
    };
    const QByteArray html = R"("html": "<p>hi</p>")"_ba;

    add("empty body", QByteArray(), u"Malformed JSON: "_s + jsonError(QByteArray()));
    add("truncated", R"({"html": )"_ba, u"Malformed JSON: "_s + jsonError(R"({"html": )"_ba));
    add("array", "[]"_ba, u"Request body must be a JSON object"_s);
    add("array in update", "[1]"_ba, u"Request body must be a JSON object"_s, Mode::Update);

    add("html number", R"({"html": 5})"_ba, u"\"html\" must be a string"_s);
    add("html null", R"({"html": null})"_ba, u"\"html\" must be a string"_s);
    add("files object", R"({"files": {}})"_ba, u"\"files\" must be an array"_s);
    add("files string", R"({"files": "index.html"})"_ba, u"\"files\" must be an array"_s);
    add("slug number", R"({"html": "x", "slug": 1})"_ba, u"\"slug\" must be a string"_s);
    add("title bool", R"({"html": "x", "title": true})"_ba, u"\"title\" must be a string"_s);
    add("title null", R"({"html": "x", "title": null})"_ba, u"\"title\" must be a string"_s);
    add("description number", R"({"html": "x", "description": 3})"_ba, u"\"description\" must be a string or null"_s);
    add("favicon array", R"({"html": "x", "favicon": []})"_ba, u"\"favicon\" must be a string"_s);
    add("og_image number", R"({"html": "x", "og_image": 1})"_ba, u"\"og_image\" must be a string"_s);
    add("is_spa string", R"({"html": "x", "is_spa": "true"})"_ba, u"\"is_spa\" must be a boolean"_s);
    add("protect number", R"({"html": "x", "protect": 1})"_ba, u"\"protect\" must be a boolean"_s);
    add("password number", R"({"html": "x", "password": 1234})"_ba, u"\"password\" must be a string"_s);
    add("remove_password string", R"({"remove_password": "yes"})"_ba, u"\"remove_password\" must be a boolean"_s,
        Mode::Update);
    add("type error before both", R"({"html": "x", "files": [], "is_spa": 0})"_ba, u"\"is_spa\" must be a boolean"_s);

    add("slug on update", R"({"slug": "my-site"})"_ba, u"slug cannot be changed here; use PATCH /deploy/:id/slug"_s,
        Mode::Update);
    add("slug of any type on update", R"({"html": "x", "slug": 5})"_ba,
        u"slug cannot be changed here; use PATCH /deploy/:id/slug"_s, Mode::Update);
    add("remove_password on create", R"({"html": "x", "remove_password": true})"_ba,
        u"remove_password is only valid on update"_s);

    add("both", R"({"html": "x", "files": [{"path": "a", "content": "b"}]})"_ba,
        u"Provide either html or files, not both"_s);
    add("both in update", R"({"html": "x", "files": []})"_ba, u"Provide either html or files, not both"_s,
        Mode::Update);
    add("neither", "{}"_ba, u"html is required"_s);
    add("neither, metadata only", R"({"title": "t", "slug": "my-site"})"_ba, u"html is required"_s);
    add("html empty", R"({"html": ""})"_ba, u"html must not be empty"_s);
    add("html empty on update", R"({"html": ""})"_ba, u"html must not be empty"_s, Mode::Update);
    add("content before slug", R"({"html": "", "slug": "BAD"})"_ba, u"html must not be empty"_s);

    add("files empty", R"({"files": []})"_ba, u"files must not be empty"_s);
    add("entry not an object", R"({"files": ["index.html"]})"_ba, u"files[0] must be an object"_s);
    add("path missing", R"({"files": [{"path": "a", "content": ""}, {"path": "b", "content": ""},
        {"path": "c", "content": ""}, {"content": "x"}]})"_ba,
        u"files[3].path is required"_s);
    add("path null", R"({"files": [{"path": null, "content": "x"}]})"_ba, u"files[0].path is required"_s);
    add("path number", R"({"files": [{"path": 7, "content": "x"}]})"_ba, u"files[0].path must be a string"_s);
    const Result<QString> refused = FilePath::normalise(u"../etc/passwd"_s);
    QVERIFY(!refused);
    const QString traversal = refused.error().message;
    add("path traversal", R"({"files": [{"path": "../etc/passwd", "content": "x"}]})"_ba, traversal);
    add("path absolute", R"({"files": [{"path": "/index.html", "content": "x"}]})"_ba,
        u"file path \"/index.html\" must be relative, not start with \"/\""_s);
    add("duplicate after normalising", R"({"files": [{"path": "a/b.css", "content": "x"},
        {"path": "./a//b.css", "content": "y"}]})"_ba,
        u"duplicate file path \"a/b.css\""_s);
    add("content missing", R"({"files": [{"path": "a.txt"}]})"_ba, u"files[0].content is required"_s);
    add("content number", R"({"files": [{"path": "a.txt", "content": 1}]})"_ba, u"files[0].content must be a string"_s);
    add("encoding other", R"({"files": [{"path": "a", "content": "x"}, {"path": "b", "content": "x",
        "encoding": "utf-8"}]})"_ba,
        u"files[1].encoding must be \"base64\" or absent"_s);
    add("encoding case", R"({"files": [{"path": "a", "content": "eA==", "encoding": "BASE64"}]})"_ba,
        u"files[0].encoding must be \"base64\" or absent"_s);
    add("encoding number", R"({"files": [{"path": "a", "content": "x", "encoding": 64}]})"_ba,
        u"files[0].encoding must be \"base64\" or absent"_s);
    add("invalid base64", R"({"files": [{"path": "a", "content": "not base64!", "encoding": "base64"}]})"_ba,
        u"files[0].content is not valid base64"_s);
    add("contentType number", R"({"files": [{"path": "a", "content": "x", "contentType": 5}]})"_ba,
        u"files[0].contentType must be a string"_s);

    const QString slugRule = SlugRules::validate(u"x"_s);
    add("slug uppercase", R"({"html": "x", "slug": "My-Site"})"_ba, slugRule);
    add("slug single word", R"({"html": "x", "slug": "portfolio"})"_ba, slugRule);
    add("slug empty", R"({"html": "x", "slug": ""})"_ba, slugRule);

    const auto withHtml = [](const char *field, const QJsonValue &value) {
        return json(QJsonObject {{u"html"_s, u"x"_s}, {QString::fromLatin1(field), value}});
    };
    add("title 501", withHtml("title", QString(501, u't')), u"title must be at most 500 characters"_s);
    add("description 2001", withHtml("description", QString(2001, u'd')),
        u"description must be at most 2000 characters"_s);
    add("favicon 33", withHtml("favicon", QString(33, u'f')), u"favicon must be at most 32 characters"_s);
    add("og_image 2049", withHtml("og_image", u"https://a.example/"_s + QString(2049 - 18, u'i')),
        u"og_image must be at most 2048 characters"_s);
    const QString notUrl = u"og_image must be an absolute http or https URL"_s;
    add("og_image relative", withHtml("og_image", u"/og.png"_s), notUrl);
    add("og_image ftp", withHtml("og_image", u"ftp://example.com/og.png"_s), notUrl);
    add("og_image javascript", withHtml("og_image", u"javascript:alert(1)"_s), notUrl);
    add("og_image no host", withHtml("og_image", u"https:///og.png"_s), notUrl);
    add("og_image spaces", withHtml("og_image", u"https://exa mple.com/"_s), notUrl);
    add("password empty", withHtml("password", u""_s), u"password must not be empty"_s);
    add("password 1025", withHtml("password", QString(1025, u'p')), u"password must be at most 1024 characters"_s);
    add("metadata in update", R"({"favicon": "this is not an emoji, it is far too long"})"_ba,
        u"favicon must be at most 32 characters"_s, Mode::Update);
}

void TestDeployRequest::refused()
{
    QFETCH(QByteArray, body);
    QFETCH(Mode, mode);
    QFETCH(Error::Kind, kind);
    QFETCH(QString, message);
    const Result<DeployRequest> result = parseDeployRequest(body, mode);
    QVERIFY(!result.ok());
    QCOMPARE(result.error().message, message);
    QCOMPARE(result.error().kind, kind);
}

void TestDeployRequest::htmlWithMetadata()
{
    const QByteArray body = R"({"html": "<h1>Grüße</h1>", "slug": "my-site", "title": "Hello", "description": "d",
        "favicon": "🚀", "og_image": "https://cdn.example.com/og.png?v=2", "is_spa": true, "protect": true,
        "password": "hunter2"})"_ba;
    const Result<DeployRequest> result = parseDeployRequest(body, Mode::Create);
    QVERIFY(result.ok());
    const DeployRequest &request = result.value();
    QCOMPARE(request.html, u"<h1>Grüße</h1>"_s);
    QVERIFY(!request.files);
    QCOMPARE(request.slug, u"my-site"_s);
    QCOMPARE(request.title, u"Hello"_s);
    QCOMPARE(request.description, u"d"_s);
    QCOMPARE(request.favicon, u"🚀"_s);
    QCOMPARE(request.ogImage, u"https://cdn.example.com/og.png?v=2"_s);
    QCOMPARE(request.isSpa, true);
    QCOMPARE(request.protect, true);
    QCOMPARE(request.password, u"hunter2"_s);
    QVERIFY(!request.removePassword);
    QCOMPARE(request.contentBytes(), qint64(u"<h1>Grüße</h1>"_s.toUtf8().size()));
}

void TestDeployRequest::descriptionNullAndEmpty()
{
    Result<DeployRequest> result = parseDeployRequest(R"({"html": "x", "description": null})"_ba, Mode::Create);
    QVERIFY(result.ok());
    QVERIFY(result.value().description.has_value());
    QVERIFY(result.value().description->isNull()); // null: "unset"

    result = parseDeployRequest(R"({"description": "", "favicon": "", "og_image": ""})"_ba, Mode::Update);
    QVERIFY(result.ok());
    QVERIFY(result.value().description.has_value());
    QVERIFY(!result.value().description->isNull()); // "": set to empty, not unset
    QVERIFY(result.value().description->isEmpty());
    QCOMPARE(result.value().favicon, u""_s);
    QVERIFY(!result.value().favicon->isNull());
    QCOMPARE(result.value().ogImage, u""_s);

    result = parseDeployRequest(R"({"html": "x"})"_ba, Mode::Create);
    QVERIFY(!result.value().description.has_value()); // omitted: keep
}

void TestDeployRequest::updateMetadataOnly()
{
    Result<DeployRequest> result = parseDeployRequest(
        R"({"title": "New", "is_spa": false, "protect": false, "remove_password": true})"_ba, Mode::Update);
    QVERIFY(result.ok());
    const DeployRequest &request = result.value();
    QVERIFY(!request.html && !request.files && !request.slug);
    QCOMPARE(request.title, u"New"_s);
    QCOMPARE(request.isSpa, false);
    QCOMPARE(request.protect, false);
    QCOMPARE(request.removePassword, true);
    QCOMPARE(request.contentBytes(), 0);

    result = parseDeployRequest("{}"_ba, Mode::Update);
    QVERIFY(result.ok());
    QVERIFY(!result.value().html && !result.value().title && !result.value().isSpa && !result.value().protect);
}

void TestDeployRequest::unknownFieldsRefused()
{
    // A misspelt field must not pass silently: {"protected": true} used to publish the site publicly.
    const auto refusal = [](const QByteArray &body, Mode mode = Mode::Create) {
        const Result<DeployRequest> result = parseDeployRequest(body, mode);
        return result.ok() ? QString() : result.error().message;
    };
    QCOMPARE(
        refusal(R"({"html": "x", "protected": true})"_ba), u"unknown field \"protected\"; did you mean \"protect\"?"_s);
    QCOMPARE(refusal(R"({"html": "x", "protected": true})"_ba, Mode::Update),
        u"unknown field \"protected\"; did you mean \"protect\"?"_s);
    QCOMPARE(refusal(R"({"html": "x", "isSpa": true})"_ba), u"unknown field \"isSpa\"; did you mean \"is_spa\"?"_s);
    QCOMPARE(refusal(R"({"html": "x", "Slug": "a-b"})"_ba), u"unknown field \"Slug\"; did you mean \"slug\"?"_s);
    QCOMPARE(refusal(R"({"html": "x", "tittle": "T"})"_ba), u"unknown field \"tittle\"; did you mean \"title\"?"_s);
    QCOMPARE(refusal(R"({"html": "x", "theme": 5})"_ba), u"unknown field \"theme\""_s); // nothing close
    QCOMPARE(refusal(R"({"files": [{"path": "a", "content": "x", "content_type": "text/plain"}]})"_ba),
        u"unknown field \"files[0].content_type\"; did you mean \"files[0].contentType\"?"_s);
    // A long name is shortened in the message and not compared.
    const QString longName(5000, u'p');
    QCOMPARE(refusal("{\"html\": \"x\", \"" + longName.toLatin1() + "\": 1}"),
        u"unknown field \"%1...\""_s.arg(QString(64, u'p')));
}

void TestDeployRequest::passwordWithoutProtectIsLeftToTheService()
{
    const Result<DeployRequest> result = parseDeployRequest(R"({"password": "secret"})"_ba, Mode::Update);
    QVERIFY(result.ok());
    QCOMPARE(result.value().password, u"secret"_s);
    QVERIFY(!result.value().protect);
}

void TestDeployRequest::files()
{
    QJsonObject declared = textFile(u"data/report"_s, u"a,b"_s);
    declared.insert(u"contentType"_s, u"Text/CSV"_s);
    QJsonObject nullEncoding = textFile(u"notes.md"_s, u"# x"_s);
    nullEncoding.insert(u"encoding"_s, QJsonValue::Null);
    nullEncoding.insert(u"contentType"_s, QJsonValue::Null);
    const QJsonArray entries {textFile(u"./index.html"_s, u"<p>Grüße</p>"_s), textFile(u"css//site.css"_s, u""_s),
        base64File(u"img/logo.png"_s, "\x89PNG\r\n\x1a\n"_ba), declared, nullEncoding};
    const Result<DeployRequest> result = parseDeployRequest(json(withFiles(entries)), Mode::Create);
    QVERIFY(result.ok());
    QVERIFY(!result.value().html);
    const QList<FileUpload> &files = *result.value().files;
    QCOMPARE(files.size(), 5);

    QCOMPARE(files[0].path, u"index.html"_s);
    QCOMPARE(files[0].content, u"<p>Grüße</p>"_s.toUtf8()); // literal text is stored as UTF-8
    QCOMPARE(files[0].contentType, "text/html; charset=utf-8"_ba);
    QCOMPARE(files[1].path, u"css/site.css"_s);
    QCOMPARE(files[1].content, QByteArray()); // empty files are allowed
    QCOMPARE(files[1].contentType, "text/css; charset=utf-8"_ba);
    QCOMPARE(files[2].path, u"img/logo.png"_s);
    QCOMPARE(files[2].content, "\x89PNG\r\n\x1a\n"_ba);
    QCOMPARE(files[2].contentType, "image/png"_ba);
    QCOMPARE(files[3].contentType, "text/csv; charset=utf-8"_ba);
    QCOMPARE(files[4].content, "# x"_ba);

    qint64 total = 0;
    for (const FileUpload &upload : files)
        total += upload.content.size();
    QCOMPARE(result.value().contentBytes(), total);
}

void TestDeployRequest::base64Decoding()
{
    QByteArray everyByte(256, Qt::Uninitialized);
    for (int i = 0; i < 256; ++i)
        everyByte[i] = char(i);
    const QByteArray encoded = everyByte.toBase64();
    // Line-wrapped output, as base64(1) writes it.
    QString wrapped;
    for (qsizetype i = 0; i < encoded.size(); i += 76)
        wrapped += QString::fromLatin1(encoded.mid(i, 76)) + u"\r\n"_s;

    const QJsonArray entries {
        base64File(u"all.bin"_s, everyByte),
        QJsonObject {{u"path"_s, u"wrapped.bin"_s}, {u"content"_s, wrapped}, {u"encoding"_s, u"base64"_s}},
        base64File(u"empty.bin"_s, QByteArray()),
        QJsonObject {{u"path"_s, u"unpadded.txt"_s}, {u"content"_s, u"aGk"_s}, {u"encoding"_s, u"base64"_s}},
    };
    const Result<DeployRequest> result = parseDeployRequest(json(withFiles(entries)), Mode::Create);
    QVERIFY2(result.ok(), qPrintable(result.error().message));
    const QList<FileUpload> &files = *result.value().files;
    QCOMPARE(files[0].content, everyByte);
    QCOMPARE(files[0].contentType, "application/octet-stream"_ba);
    QCOMPARE(files[1].content, everyByte);
    QCOMPARE(files[2].content, QByteArray());
    QCOMPARE(files[3].content, "hi"_ba);
}

void TestDeployRequest::base64Refused_data()
{
    QTest::addColumn<QString>("content");
    QTest::newRow("bang") << u"aGk!"_s;
    QTest::newRow("url-safe alphabet") << u"_-__"_s;
    QTest::newRow("padding in the middle") << u"aA==aGk="_s;
    QTest::newRow("non-latin1") << u"aGk\u2603"_s;
    QTest::newRow("latin1 letter") << u"aGké"_s;
    QTest::newRow("data uri") << u"data:image/png;base64,aGk="_s;
}

void TestDeployRequest::base64Refused()
{
    QFETCH(QString, content);
    const QJsonObject entry {{u"path"_s, u"a.bin"_s}, {u"content"_s, content}, {u"encoding"_s, u"base64"_s}};
    const Result<DeployRequest> result = parseDeployRequest(json(withFiles({entry})), Mode::Create);
    QVERIFY(!result.ok());
    QCOMPARE(result.error().kind, Error::Kind::BadRequest);
    QCOMPARE(result.error().message, u"files[0].content is not valid base64"_s);
}

// parseDeployRequest reads each "content" value without escapes from the body's bytes (LiftedContent) and parses the
// whole body instead when those bytes are not printable ASCII: every answer is still the one of Qt's parse.
void TestDeployRequest::contentReadAsQtReadsIt_data()
{
    QTest::addColumn<QByteArray>("entry"); // one entry of the files array, as raw JSON
    QTest::addColumn<QByteArray>("content"); // the file's bytes; empty when the body is malformed

    // Long enough to be lifted (LiftedContent::kMinimumLength), where the row is about lifted values.
    const QByteArray pad(300, 'x');
    const QByteArray hs(300, 'h');
    const QByteArray spaced = hs.toBase64().insert(200, ' ');
    const auto entry = [](const QByteArray &content, const QByteArray &more = {}) {
        return "{\"path\": \"a.txt\", \"content\": \"" + content + "\"" + more + "}";
    };
    QTest::newRow("printable ascii") << entry(pad) << pad;
    QTest::newRow("utf-8 text") << entry("Gr\xc3\xbc\xc3\x9f" + pad) << "Gr\xc3\xbc\xc3\x9f" + pad;
    QTest::newRow("raw tab, which Qt accepts") << entry("a\tb" + pad) << "a\tb" + pad;
    QTest::newRow("base64") << entry(hs.toBase64(), R"(, "encoding": "base64")") << hs;
    QTest::newRow("base64 with a raw space") << entry(spaced, R"(, "encoding": "base64")") << hs;
    QTest::newRow("base64 with an escaped newline")
        << entry(R"(aGkg\naGk=)", R"(, "encoding": "base64")") << "hi hi"_ba;
    QTest::newRow("escaped slash") << entry(R"(a\/b)") << "a/b"_ba;
    QTest::newRow("escaped look-alike, never read as one")
        << entry(R"(berth\u002dlifted-0123456789abcdefghijkl-0)") << "berth-lifted-0123456789abcdefghijkl-0"_ba;
    QTest::newRow("key spaced from its value") << "{\"path\": \"a.txt\", \"content\"\n :\t\"" + pad + "\"}" << pad;
    QTest::newRow("invalid utf-8") << entry("\xff" + pad) << QByteArray();
    QTest::newRow("invalid utf-8 in a duplicate key Qt drops")
        << entry("\xc3" + pad, R"(, "content": "ok")") << QByteArray();
}

void TestDeployRequest::contentReadAsQtReadsIt()
{
    QFETCH(QByteArray, entry);
    QFETCH(QByteArray, content);
    const QByteArray body = R"({"files": [)"_ba + entry + "]}";
    const Result<DeployRequest> result = parseDeployRequest(body, Mode::Create);
    if (content.isEmpty()) {
        QVERIFY(!result.ok());
        QCOMPARE(result.error().message, u"Malformed JSON: "_s + jsonError(body));
        QCOMPARE_NE(jsonError(body), jsonError("{}"));
        return;
    }
    QVERIFY2(result.ok(), qPrintable(result.error().message));
    QCOMPARE(result.value().files->at(0).content, content);
}

void TestDeployRequest::parsesOnWorkerThreads()
{
    // The API parses on a thread pool: same answers from many threads at once (QMimeDatabase included).
    QList<QByteArray> bodies;
    for (int i = 0; i < 64; ++i) {
        bodies.append(json(withFiles({textFile(u"index.html"_s, u"<p>%1</p>"_s.arg(i)),
            base64File(u"img/%1.webp"_s.arg(i), QByteArray(1000 + i, char(i))),
            textFile(u"table%1.csv"_s.arg(i), u"a,b"_s)})));
    }
    const QList<qint64> sizes = QtConcurrent::blockingMapped(bodies, [](const QByteArray &body) -> qint64 {
        const Result<DeployRequest> result = parseDeployRequest(body, DeployRequest::Mode::Create);
        if (!result.ok() || result.value().files->at(1).contentType != "image/webp"
            || !result.value().files->at(2).contentType.startsWith("text/"))
            return -1;
        return result.value().contentBytes();
    });
    for (int i = 0; i < 64; ++i)
        QCOMPARE(sizes.at(i), qint64(u"<p>%1</p>"_s.arg(i).size() + 1000 + i + 3));
}

QTEST_APPLESS_MAIN(TestDeployRequest)
