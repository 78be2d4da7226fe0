// TestSubmissions: what the owner lists (newest first, in pages), exports as CSV and deletes of a site's submissions.
#include "submissionstest.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace submissionstest;
using berth::test::TestReply;

namespace {

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

void TestSubmissions::ownerPagesNewestFirst()
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

void TestSubmissions::ownerQueryValidation_data()
{
    QTest::addColumn<QString>("query");
    QTest::newRow("limit 0") << u"?limit=0"_s;
    QTest::newRow("limit 501") << u"?limit=501"_s;
    QTest::newRow("limit text") << u"?limit=ten"_s;
    QTest::newRow("limit negative") << u"?limit=-5"_s;
    QTest::newRow("unknown before") << u"?before=sub_doesnotexist"_s;
    QTest::newRow("format") << u"?format=xml"_s;
}

void TestSubmissions::ownerQueryValidation()
{
    QFETCH(QString, query);
    const TestReply reply = client().api("GET", u"/deploy/%1/submissions%2"_s.arg(m_id, query), m_key);
    QCOMPARE(reply.status, 400);
    QCOMPARE(reply.json().keys(), QStringList {u"error"_s});
    QCOMPARE(client().api("GET", u"/deploy/%1/submissions?limit=500"_s.arg(m_id), m_key).status, 200);
}

void TestSubmissions::onlyTheOwnerReadsOrDeletes()
{
    const QString sid = submit(R"({"secret":"yes"})").json()[u"id"_s].toString();
    const QByteArray other = m_fixture->keyFor(u"other@example.com"_s);
    for (const auto &[method, path] : QList<QPair<QByteArray, QString>> {{"GET", u"/deploy/%1/submissions"_s.arg(m_id)},
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

void TestSubmissions::ownerDeletesOne()
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
void TestSubmissions::fieldsKeepTheFormsOrder()
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

void TestSubmissions::csvExportParsesBack()
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

void TestSubmissions::deletingTheDeploymentDeletesSubmissionsAndCounters()
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
