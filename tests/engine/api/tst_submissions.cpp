// TestSubmissions: what visitors send to POST /_submit (JSON, forms, multipart), what is refused, the plan's daily
// limit and the pruning of the oldest.
#include "domain/visitors/submissionservice.h"
#include "submissionstest.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace submissionstest;
using berth::test::TestReply;

void TestSubmissions::jsonSubmissionIsStored()
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

void TestSubmissions::formPostRedirectsToNextOnTheSameSite()
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

void TestSubmissions::formPostWithoutUsableNextShowsThankYouPage_data()
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
    QTest::newRow("escaped back link") << QByteArray() << here + "/a?q=%22%3E%3Cb%3E"
                                       << QByteArray("/a?q=%22%3E%3Cb%3E");
}

void TestSubmissions::formPostWithoutUsableNextShowsThankYouPage()
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

void TestSubmissions::formPostAskingForJsonGetsJson()
{
    const TestReply reply = submit("email=a%40b.example", kForm, {{"Accept", "application/json"}});
    QCOMPARE(reply.status, 200);
    QCOMPARE(reply.json()[u"success"_s].toBool(), true);
}

void TestSubmissions::multipartTextFieldsAreStored()
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

void TestSubmissions::rejectionsStoreNothing_data()
{
    QTest::addColumn<QByteArray>("contentType");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("error"); // empty: any message
    QTest::newRow("honeypot json") << kJson << QByteArray(R"({"name":"x","_hp":"bot"})") << u"Submission rejected"_s;
    QTest::newRow("honeypot form") << kForm << QByteArray("name=x&_hp=http%3A%2F%2Fspam") << u"Submission rejected"_s;
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

void TestSubmissions::rejectionsStoreNothing()
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

void TestSubmissions::payloadOver10KBIs413()
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

void TestSubmissions::dailyLimitOfTheOwnersPlan()
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

void TestSubmissions::oldestIsPrunedAtTheStoredMaximum()
{
    // Agent plan: 200 stored, 50 a day, so 201 submissions take five days.
    m_key = m_fixture->keyFor(u"agent@example.com"_s, u"agent"_s);
    const QString id = deploySite(m_key, u"agent-prune"_s);
    QStringList ids;
    for (int i = 0; i < 201; ++i) {
        if (i > 0 && i % 50 == 0)
            clock().advance(24 * 60 * 60 * 1000LL);
        const TestReply reply = submit(QJsonDocument(QJsonObject {{u"n"_s, i}}).toJson(), kJson, {}, u"agent-prune"_s);
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

QTEST_GUILESS_MAIN(TestSubmissions)
