// POST /_submit (docs/api.md) and the owner's GET|DELETE /deploy/:id/submissions, over real HTTP. Time
// is a ManualClock: days pass without waiting.
#include "domain/common/clock.h"
#include "domain/visitors/submissionservice.h"
#include "enginefixture.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::EngineFixture;
using berth::test::TestReply;
using Headers = QList<QPair<QByteArray, QByteArray>>;

namespace {
const QDateTime kStart(QDate(2026, 11, 21), QTime(6, 0), Qt::UTC);
constexpr qint64 kSubmitSpacingMs = 6'000; // 10 a minute: the per-IP limit, never reached by these tests
const QByteArray kJson = "application/json";
const QByteArray kForm = "application/x-www-form-urlencoded";

// RFC 4180, as the owner's spreadsheet would read it.
QList<QStringList> parseCsv(const QByteArray &csv)
{
    QList<QStringList> rows;
    QStringList row;
    QString cell;
    bool quoted = false;
    const QString text = QString::fromUtf8(csv);
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (quoted) {
            if (c == u'"' && i + 1 < text.size() && text.at(i + 1) == u'"') {
                cell += u'"';
                ++i;
            } else if (c == u'"') {
                quoted = false;
            } else {
                cell += c;
            }
        } else if (c == u'"') {
            quoted = true;
        } else if (c == u',') {
            row.append(cell);
            cell.clear();
        } else if (c == u'\r' && i + 1 < text.size() && text.at(i + 1) == u'\n') {
            row.append(cell);
            rows.append(row);
            row.clear();
            cell.clear();
            ++i;
        } else {
            cell += c;
        }
    }
    return rows;
}
} // namespace

class TestSubmissions : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineFixture> m_fixture;
    QByteArray m_key;
    QString m_id;
    QString m_slug;

    berth::test::HttpTestClient &client() { return m_fixture->client(); }
    berth::ManualClock &clock() { return m_fixture->clock(); }
    QString siteHost(const QString &slug) const { return m_fixture->siteHost(slug); }
    QString deploySite(const QByteArray &key, const QString &slug) { return m_fixture->deploySite(key, slug); }
    TestReply submit(
        const QByteArray &body, const QByteArray &contentType = kJson, Headers headers = {}, const QString &slug = {})
    {
        clock().advance(kSubmitSpacingMs);
        headers.append({"Content-Type", contentType});
        return client().request("POST", siteHost(slug.isEmpty() ? m_slug : slug), u"/_submit"_s, body, headers);
    }
    QJsonObject listing(const QString &query = {}, const QString &id = {})
    {
        const TestReply reply
            = client().api("GET", u"/deploy/%1/submissions%2"_s.arg(id.isEmpty() ? m_id : id, query), m_key);
        return reply.status == 200 ? reply.json() : QJsonObject {{u"status"_s, reply.status}};
    }
    int total() { return listing()[u"total"_s].toInt(-1); }

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<EngineFixture>();
        QVERIFY(m_fixture->startWithClock(kStart));
        m_key = m_fixture->ownerKey();
        m_slug = u"form-site"_s;
        m_id = deploySite(m_key, m_slug);
        QVERIFY(!m_id.isEmpty());
    }
    void cleanup() { m_fixture.reset(); }

    void jsonSubmissionIsStored()
    {
        QSignalSpy received(&m_fixture->engine().submissions(), &berth::SubmissionService::submissionReceived);
        const TestReply reply = submit(R"({"name":"Ada","age":36,"_hp":"","_next":"/x"})");
        QCOMPARE(reply.status, 200);
        const QJsonObject answer = reply.json();
        QCOMPARE(answer[u"success"_s].toBool(), true);
        const QString id = answer[u"id"_s].toString();
        QVERIFY2(QRegularExpression(u"^sub_[A-Za-z0-9]{16,}$"_s).match(id).hasMatch(), qPrintable(id));
        QCOMPARE(received.size(), 1);
        QCOMPARE(received.at(0).at(0).toString(), m_id);
        QCOMPARE(received.at(0).at(1).toString(), id);

        const QJsonObject list = listing();
        QCOMPARE(list[u"total"_s].toInt(), 1);
        QVERIFY(list[u"next_before"_s].isNull());
        const QJsonObject stored = list[u"submissions"_s].toArray().at(0).toObject();
        QCOMPARE(stored[u"id"_s].toString(), id);
        QCOMPARE(stored[u"data"_s].toObject(), (QJsonObject {{u"name"_s, u"Ada"_s}, {u"age"_s, 36}}));
        QCOMPARE(stored[u"created_at"_s].toString(), berth::isoTimestamp(clock().now()));
    }

    void formPostRedirectsToNextOnTheSameSite()
    {
        const TestReply reply = submit("name=Ada+Lovelace&sum=1%2B1&note=caf%C3%A9&_next=%2Fthanks%3Fform%3D1", kForm);
        QCOMPARE(reply.status, 303);
        QCOMPARE(reply.header("location"), QByteArray("/thanks?form=1"));
        const QJsonObject data = listing()[u"submissions"_s].toArray().at(0).toObject()[u"data"_s].toObject();
        QCOMPARE(data, (QJsonObject {{u"name"_s, u"Ada Lovelace"_s}, {u"sum"_s, u"1+1"_s}, {u"note"_s, u"café"_s}}));

        // An absolute URL on this very site is a path on it too.
        const QByteArray next = QUrl::toPercentEncoding(u"http://%1/done"_s.arg(siteHost(m_slug)));
        const TestReply absolute = submit("a=1&_next=" + next, kForm);
        QCOMPARE(absolute.status, 303);
        QCOMPARE(absolute.header("location"), QByteArray("/done"));
    }

    void formPostWithoutUsableNextShowsThankYouPage_data()
    {
        QTest::addColumn<QByteArray>("next");
        QTest::addColumn<QByteArray>("referer");
        QTest::addColumn<QByteArray>("back");
        const QByteArray here = "http://form-site.localhost:PORT";
        QTest::newRow("no next") << QByteArray() << here + "/contact?x=1" << QByteArray("/contact?x=1");
        QTest::newRow("other site") << QByteArray("https://evil.example/x") << here + "/c" << QByteArray("/c");
        QTest::newRow("scheme-relative") << QByteArray("//evil.example/") << here + "/c" << QByteArray("/c");
        QTest::newRow("javascript") << QByteArray("javascript:alert(1)") << here + "/c" << QByteArray("/c");
        QTest::newRow("sibling site") << QByteArray("http://other-site.localhost:PORT/")
                                      << QByteArray("http://other-site.localhost:PORT/") << QByteArray("/");
        QTest::newRow("no referer") << QByteArray() << QByteArray() << QByteArray("/");
        QTest::newRow("escaped back link")
            << QByteArray() << here + "/a?q=%22%3E%3Cb%3E" << QByteArray("/a?q=%22%3E%3Cb%3E");
    }
    void formPostWithoutUsableNextShowsThankYouPage()
    {
        QFETCH(QByteArray, next);
        QFETCH(QByteArray, referer);
        QFETCH(QByteArray, back);
        const QByteArray port = QByteArray::number(m_fixture->engine().port());
        Headers headers;
        if (!referer.isEmpty())
            headers.append({"Referer", QByteArray(referer).replace("PORT", port)});
        QByteArray body = "message=hello";
        if (!next.isEmpty())
            body += "&_next=" + QUrl::toPercentEncoding(QString::fromLatin1(QByteArray(next).replace("PORT", port)));
        const TestReply reply = submit(body, kForm, headers);
        QCOMPARE(reply.status, 200);
        QVERIFY(reply.header("content-type").startsWith("text/html"));
        QVERIFY(reply.body.contains("Thank you"));
        const QByteArray link = "<a id=\"back\" href=\"" + back + "\">";
        QVERIFY2(reply.body.contains(link), reply.body.constData());
        QCOMPARE(total(), 1);
    }

    void formPostAskingForJsonGetsJson()
    {
        const TestReply reply = submit("email=a%40b.example", kForm, {{"Accept", "application/json"}});
        QCOMPARE(reply.status, 200);
        QCOMPARE(reply.json()[u"success"_s].toBool(), true);
    }

    void multipartTextFieldsAreStored()
    {
        const QByteArray body = "--XyZ\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nGrace\r\n"
                                "--XyZ\r\nContent-Disposition: form-data; name=\"topic\"\r\n\r\nships\r\n"
                                "--XyZ\r\nContent-Disposition: form-data; name=\"topic\"\r\n\r\ncompilers\r\n"
                                "--XyZ\r\nContent-Disposition: form-data; name=\"bio\"\r\n\r\nline 1\r\nline 2\r\n"
                                "--XyZ\r\nContent-Disposition: form-data; name=\"_hp\"\r\n\r\n\r\n"
                                "--XyZ--\r\n";
        const TestReply reply = submit(body, "multipart/form-data; boundary=XyZ", {{"Accept", "application/json"}});
        QCOMPARE(reply.status, 200);
        const QJsonObject data = listing()[u"submissions"_s].toArray().at(0).toObject()[u"data"_s].toObject();
        QCOMPARE(data,
            (QJsonObject {{u"name"_s, u"Grace"_s}, {u"topic"_s, QJsonArray {u"ships"_s, u"compilers"_s}},
                {u"bio"_s, u"line 1\r\nline 2"_s}}));
    }

    void rejectionsStoreNothing_data()
    {
        QTest::addColumn<QByteArray>("contentType");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("error"); // empty: any message
        QTest::newRow("honeypot json") << kJson << QByteArray(R"({"name":"x","_hp":"bot"})")
                                       << u"Submission rejected"_s;
        QTest::newRow("honeypot form") << kForm << QByteArray("name=x&_hp=http%3A%2F%2Fspam")
                                       << u"Submission rejected"_s;
        QTest::newRow("honeypot number") << kJson << QByteArray(R"({"name":"x","_hp":1})") << u"Submission rejected"_s;
        QTest::newRow("empty json") << kJson << QByteArray() << u"Submission is empty"_s;
        QTest::newRow("empty object") << kJson << QByteArray("{}") << u"Submission is empty"_s;
        QTest::newRow("only hidden fields") << kForm << QByteArray("_hp=&_next=%2F") << u"Submission is empty"_s;
        QTest::newRow("empty form") << kForm << QByteArray() << u"Submission is empty"_s;
        QTest::newRow("array") << kJson << QByteArray("[1,2]") << u"Request body must be a JSON object"_s;
        QTest::newRow("string") << kJson << QByteArray("\"x\"") << QString();
        QTest::newRow("malformed") << kJson << QByteArray("{\"a\":") << QString();
        QTest::newRow("file part") << QByteArray("multipart/form-data; boundary=b")
                                   << QByteArray("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n"
                                                 "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x.txt\""
                                                 "\r\nContent-Type: text/plain\r\n\r\nhi\r\n--b--\r\n")
                                   << u"File uploads are not accepted"_s;
        QTest::newRow("unterminated multipart") << QByteArray("multipart/form-data; boundary=b")
                                                << QByteArray("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n"
                                                              "\r\n1\r\n")
                                                << QString();
        QTest::newRow("no boundary") << QByteArray("multipart/form-data") << QByteArray("a") << QString();
        QTest::newRow("plain text") << QByteArray("text/plain") << QByteArray("name=x") << QString();
    }
    void rejectionsStoreNothing()
    {
        QFETCH(QByteArray, contentType);
        QFETCH(QByteArray, body);
        QFETCH(QString, error);
        // A script asking for JSON gets JSON.
        const TestReply reply = submit(body, contentType, {{"Accept", "application/json"}});
        QCOMPARE(reply.status, 400);
        QCOMPARE(reply.json().keys(), QStringList {u"error"_s});
        if (!error.isEmpty())
            QCOMPARE(reply.error(), error);
        // A browser's form post gets a page with the same status and words; a JSON body always gets JSON.
        const TestReply page = submit(body, contentType);
        QCOMPARE(page.status, 400);
        if (contentType == kJson) {
            QCOMPARE(page.json(), reply.json());
        } else {
            QVERIFY(page.header("content-type").startsWith("text/html"));
            QVERIFY2(page.body.contains(reply.error().toHtmlEscaped().toUtf8()), page.body.constData());
        }
        QCOMPARE(total(), 0);
    }

    void payloadOver10KBIs413()
    {
        const QByteArray prefix = "{\"message\":\"";
        const QByteArray suffix = "\"}";
        const QByteArray exact = prefix + QByteArray(10240 - prefix.size() - suffix.size(), 'a') + suffix;
        QCOMPARE(exact.size(), 10240);
        QCOMPARE(submit(exact).status, 200);

        const QByteArray over = prefix + QByteArray(10241 - prefix.size() - suffix.size(), 'a') + suffix;
        const TestReply reply = submit(over);
        QCOMPARE(reply.status, 413);
        QCOMPARE(reply.json(), (QJsonObject {{u"error"_s, u"Submission exceeds the 10 KB limit"_s}}));
        // Refused by the front door before the body is read: a browser's form post reads why on a page, a script
        // that asks for JSON gets JSON.
        const TestReply page = submit("message=" + QByteArray(20000, 'b'), kForm);
        QCOMPARE(page.status, 413);
        QVERIFY(page.header("content-type").startsWith("text/html"));
        QVERIFY2(page.body.contains("Submission exceeds the 10 KB limit"), page.body.constData());
        const TestReply script = submit("message=" + QByteArray(20000, 'b'), kForm, {{"Accept", "application/json"}});
        QCOMPARE(script.status, 413);
        QCOMPARE(script.json(), (QJsonObject {{u"error"_s, u"Submission exceeds the 10 KB limit"_s}}));
        QCOMPARE(total(), 1);
    }

    void dailyLimitOfTheOwnersPlan()
    {
        // An Agent-plan owner: 50 submissions a day.
        const QString id = deploySite(m_fixture->keyFor(u"agent@example.com"_s, u"agent"_s), u"agent-form"_s);
        QVERIFY(!id.isEmpty());
        for (int i = 0; i < 50; ++i)
            QCOMPARE(submit(R"({"n":1})", kJson, {}, u"agent-form"_s).status, 200);
        const TestReply refused = submit(R"({"n":51})", kJson, {}, u"agent-form"_s);
        QCOMPARE(refused.status, 429);
        QCOMPARE(refused.json(), (QJsonObject {{u"error"_s, u"Daily submission limit reached"_s}}));
        const QDateTime midnight(kStart.date().addDays(1), QTime(0, 0), Qt::UTC);
        QCOMPARE(refused.header("retry-after").toLongLong(), clock().now().secsTo(midnight));
        // Another site's count is its own (the owner here is on Pro).
        QCOMPARE(submit(R"({"n":1})").status, 200);

        clock().set(midnight);
        QCOMPARE(submit(R"({"n":52})", kJson, {}, u"agent-form"_s).status, 200);
        m_key = m_fixture->keyFor(u"agent@example.com"_s, u"agent"_s);
        QCOMPARE(listing({}, id)[u"total"_s].toInt(), 51);
    }

    void oldestIsPrunedAtTheStoredMaximum()
    {
        // Agent plan: 200 stored, 50 a day, so 201 submissions take five days.
        m_key = m_fixture->keyFor(u"agent@example.com"_s, u"agent"_s);
        const QString id = deploySite(m_key, u"agent-prune"_s);
        QStringList ids;
        for (int i = 0; i < 201; ++i) {
            if (i > 0 && i % 50 == 0)
                clock().advance(24 * 60 * 60 * 1000LL);
            const TestReply reply
                = submit(QJsonDocument(QJsonObject {{u"n"_s, i}}).toJson(), kJson, {}, u"agent-prune"_s);
            QCOMPARE(reply.status, 200);
            ids.append(reply.json()[u"id"_s].toString());
        }
        QJsonObject page = listing(u"?limit=500"_s, id);
        QCOMPARE(page[u"total"_s].toInt(), 200);
        const QJsonArray stored = page[u"submissions"_s].toArray();
        QCOMPARE(stored.size(), 200);
        QCOMPARE(stored.first().toObject()[u"id"_s].toString(), ids.last());
        QCOMPARE(stored.last().toObject()[u"id"_s].toString(), ids.at(1)); // the very first is gone
        QCOMPARE(stored.last().toObject()[u"data"_s].toObject()[u"n"_s].toInt(), 1);
    }

    void ownerPagesNewestFirst()
    {
        QStringList ids;
        for (int i = 0; i < 57; ++i)
            ids.prepend(submit(QJsonDocument(QJsonObject {{u"n"_s, i}}).toJson()).json()[u"id"_s].toString());
        QJsonObject page = listing();
        QCOMPARE(page[u"total"_s].toInt(), 57);
        QCOMPARE(page[u"submissions"_s].toArray().size(), 50); // the default page
        QCOMPARE(page[u"next_before"_s].toString(), ids.at(49));

        page = listing(u"?limit=5"_s);
        QStringList seen;
        while (true) {
            for (const QJsonValue &entry : page[u"submissions"_s].toArray())
                seen.append(entry.toObject()[u"id"_s].toString());
            QCOMPARE(page[u"total"_s].toInt(), 57);
            if (page[u"next_before"_s].isNull())
                break;
            page = listing(u"?limit=5&before="_s + page[u"next_before"_s].toString());
        }
        QCOMPARE(seen, ids);
    }

    void ownerQueryValidation_data()
    {
        QTest::addColumn<QString>("query");
        QTest::newRow("limit 0") << u"?limit=0"_s;
        QTest::newRow("limit 501") << u"?limit=501"_s;
        QTest::newRow("limit text") << u"?limit=ten"_s;
        QTest::newRow("limit negative") << u"?limit=-5"_s;
        QTest::newRow("unknown before") << u"?before=sub_doesnotexist"_s;
        QTest::newRow("format") << u"?format=xml"_s;
    }
    void ownerQueryValidation()
    {
        QFETCH(QString, query);
        const TestReply reply = client().api("GET", u"/deploy/%1/submissions%2"_s.arg(m_id, query), m_key);
        QCOMPARE(reply.status, 400);
        QCOMPARE(reply.json().keys(), QStringList {u"error"_s});
        QCOMPARE(client().api("GET", u"/deploy/%1/submissions?limit=500"_s.arg(m_id), m_key).status, 200);
    }

    void onlyTheOwnerReadsOrDeletes()
    {
        const QString sid = submit(R"({"secret":"yes"})").json()[u"id"_s].toString();
        const QByteArray other = m_fixture->keyFor(u"other@example.com"_s);
        for (const auto &[method, path] :
            QList<QPair<QByteArray, QString>> {{"GET", u"/deploy/%1/submissions"_s.arg(m_id)},
                {"GET", u"/deploy/%1/submissions?format=csv"_s.arg(m_id)},
                {"DELETE", u"/deploy/%1/submissions/%2"_s.arg(m_id, sid)}}) {
            const TestReply theirs = client().api(method, path, other);
            QCOMPARE(theirs.status, 404);
            QCOMPARE(theirs.json(), (QJsonObject {{u"error"_s, u"Deployment not found"_s}}));
            QCOMPARE(client().api(method, path, {}).status, 401);
        }
        QCOMPARE(client().api("GET", u"/deploy/dep_missing/submissions"_s, m_key).status, 404);
        QCOMPARE(total(), 1);
    }

    void ownerDeletesOne()
    {
        const QString first = submit(R"({"a":1})").json()[u"id"_s].toString();
        const QString second = submit(R"({"a":2})").json()[u"id"_s].toString();
        const QString path = u"/deploy/%1/submissions/%2"_s.arg(m_id, first);
        const TestReply deleted = client().api("DELETE", path, m_key);
        QCOMPARE(deleted.status, 200);
        QCOMPARE(deleted.json()[u"id"_s].toString(), first);
        const TestReply again = client().api("DELETE", path, m_key);
        QCOMPARE(again.status, 404);
        QCOMPARE(again.error(), u"Submission not found"_s);
        const QJsonArray left = listing()[u"submissions"_s].toArray();
        QCOMPARE(left.size(), 1);
        QCOMPARE(left.at(0).toObject()[u"id"_s].toString(), second);
    }

    // The fields stay in the order the visitor's form sent them, in the API's answer and the CSV's columns alike
    // (QJsonObject alone would sort them).
    void fieldsKeepTheFormsOrder()
    {
        QCOMPARE(submit("zeta=1&alpha=2&mid=3&alpha=4&_hp=", kForm, {{"Accept", "application/json"}}).status, 200);
        QCOMPARE(submit(R"({"name":"Ada","email":"ada@example.com","age":36})").status, 200);

        const TestReply reply = client().api("GET", u"/deploy/%1/submissions"_s.arg(m_id), m_key);
        QCOMPARE(reply.status, 200);
        QVERIFY2(reply.body.contains(R"("data":{"name":"Ada","email":"ada@example.com","age":36})"), reply.body);
        QVERIFY2(reply.body.contains(R"("data":{"zeta":"1","alpha":["2","4"],"mid":"3"})"), reply.body);
        QCOMPARE(reply.json()[u"total"_s].toInt(), 2); // the rest of the answer as before
        QVERIFY(reply.json()[u"next_before"_s].isNull());

        const TestReply csv = client().api("GET", u"/deploy/%1/submissions?format=csv"_s.arg(m_id), m_key);
        QCOMPARE(parseCsv(csv.body).at(0),
            (QStringList {u"id"_s, u"created_at"_s, u"name"_s, u"email"_s, u"age"_s, u"zeta"_s, u"alpha"_s, u"mid"_s}));
    }

    void csvExportParsesBack()
    {
        submit("name=Ada&note=Hello%2C+%22world%22&topic=a&topic=b", kForm);
        submit(R"({"name":"Grace","note":"two\nlines","score":9.5,"ok":true})");
        submit(R"({"name":"Ünïcödé, Ltd.","id":"field named id"})");

        const TestReply csv = client().api("GET", u"/deploy/%1/submissions?format=csv"_s.arg(m_id), m_key);
        QCOMPARE(csv.status, 200);
        QVERIFY(csv.header("content-type").startsWith("text/csv"));
        QVERIFY(csv.header("content-disposition").startsWith("attachment"));
        const QList<QStringList> rows = parseCsv(csv.body);
        QCOMPARE(rows.size(), 4);
        const QStringList header = rows.at(0);
        QCOMPARE(header.mid(0, 2), (QStringList {u"id"_s, u"created_at"_s}));

        const QJsonArray listed = listing()[u"submissions"_s].toArray(); // same order: newest first
        for (int r = 0; r < 3; ++r) {
            const QJsonObject entry = listed.at(r).toObject();
            const QJsonObject data = entry[u"data"_s].toObject();
            const QStringList row = rows.at(r + 1);
            QCOMPARE(row.size(), header.size());
            QCOMPARE(row.at(0), entry[u"id"_s].toString());
            QCOMPARE(row.at(1), entry[u"created_at"_s].toString());
            for (int c = 2; c < header.size(); ++c) {
                const QString field = header.at(c).startsWith(u"data."_s) ? header.at(c).mid(5) : header.at(c);
                const QJsonValue value = data.value(field);
                QString expected = value.toString();
                if (value.isArray() || value.isDouble() || value.isBool()) {
                    const QByteArray json = QJsonDocument(QJsonArray {value}).toJson(QJsonDocument::Compact);
                    expected = QString::fromUtf8(json.mid(1, json.size() - 2));
                }
                QCOMPARE(row.at(c), expected);
            }
        }
        QVERIFY(header.contains(u"data.id"_s)); // a field named like a fixed column keeps its own column
        QCOMPARE(rows.at(1).at(header.indexOf(u"name"_s)), u"Ünïcödé, Ltd."_s);
        QCOMPARE(rows.at(2).at(header.indexOf(u"note"_s)), u"two\nlines"_s);
        QCOMPARE(rows.at(3).at(header.indexOf(u"note"_s)), u"Hello, \"world\""_s);
        QCOMPARE(rows.at(3).at(header.indexOf(u"topic"_s)), u"[\"a\",\"b\"]"_s);

        const TestReply limited = client().api("GET", u"/deploy/%1/submissions?format=csv&limit=1"_s.arg(m_id), m_key);
        QCOMPARE(parseCsv(limited.body).size(), 2);
    }

    void deletingTheDeploymentDeletesSubmissionsAndCounters()
    {
        QCOMPARE(submit(R"({"a":1})").status, 200);
        QCOMPARE(client().request("POST", siteHost(m_slug), u"/_counter/visits/increment"_s).status, 200);
        QCOMPARE(client().api("DELETE", u"/deploy/"_s + m_id, m_key).status, 200);
        QCOMPARE(client().api("GET", u"/deploy/%1/submissions"_s.arg(m_id), m_key).status, 404);
        QCOMPARE(client().api("GET", u"/deploy/%1/counters"_s.arg(m_id), m_key).status, 404);

        // The rows themselves are gone, not only hidden.
        const auto db = m_fixture->database();
        QVERIFY(db->open());
        for (const QString &table : {u"submissions"_s, u"submission_days"_s, u"counters"_s}) {
            QSqlQuery query(db->connection());
            query.prepare(u"SELECT COUNT(*) FROM %1 WHERE deployment_id = ?"_s.arg(table));
            query.addBindValue(m_id);
            QVERIFY(query.exec() && query.next());
            QCOMPARE(query.value(0).toInt(), 0);
        }
    }
};

QTEST_GUILESS_MAIN(TestSubmissions)
#include "tst_submissions.moc"
