// Page-view analytics (docs/api.md, GET /deploy/:id/analytics) over real HTTP: views and unique visitors from several
// loopback source addresses, 404s, referrer hosts (the site's own left out), what is not a visitor (HEAD, 304,
// prefetches, bots), exact counts across the serving threads, the daily salt at midnight (a ManualClock), the owner
// only, the dates asked for, and counts kept over a restart.
#include "deployfiles.h"
#include "enginefixture.h"
#include "sourceclient.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::EngineFixture;
using berth::test::SourceClient;
using berth::test::SourceConnection;
using berth::test::TestReply;
using berth::test::textFile;

namespace {

const QDateTime kStart(QDate(2026, 11, 21), QTime(6, 0), Qt::UTC);
const QByteArray kFirefox = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
const QByteArray kSafari = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 Safari/605.1.15";

using Headers = QList<QPair<QByteArray, QByteArray>>;

} // namespace

class TestAnalytics : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineFixture> m_fixture;
    QByteArray m_key;
    QString m_id;
    const QString m_slug = u"stats-site"_s;

    quint16 port() { return m_fixture->engine().port(); }
    SourceClient from(int lastOctet) { return SourceClient(port(), QHostAddress(u"127.0.0.%1"_s.arg(lastOctet))); }
    TestReply visit(int lastOctet, const QString &path, const QByteArray &userAgent, Headers headers = {},
        const QByteArray &method = "GET")
    {
        headers.append({"User-Agent", userAgent});
        return from(lastOctet).site(method, m_slug, path, {}, headers);
    }
    TestReply analytics(const QString &query = {}, const QByteArray &key = {})
    {
        m_fixture->engine().flushAnalytics();
        return m_fixture->client().api(
            "GET", u"/deploy/%1/analytics%2"_s.arg(m_id, query), key.isEmpty() ? m_key : key);
    }
    QJsonObject totals(const QString &query = {}) { return analytics(query).json()[u"totals"_s].toObject(); }
    // A list of the report: [{nameKey: name, countKey: count}, ...].
    static QJsonArray entries(const QString &nameKey, const QString &countKey, const QList<QPair<QString, int>> &list)
    {
        QJsonArray array;
        for (const auto &[name, count] : list)
            array.append(QJsonObject {{nameKey, name}, {countKey, count}});
        return array;
    }

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<EngineFixture>();
        QVERIFY(m_fixture->startWithClock(kStart));
        m_key = m_fixture->ownerKey();
        const TestReply deployed = m_fixture->client().api("POST", u"/deploy"_s, m_key,
            QJsonObject {{u"slug"_s, m_slug},
                {u"files"_s,
                    QJsonArray {textFile(u"index.html"_s, u"<p>home</p>"_s),
                        textFile(u"about.html"_s, u"<p>about us</p>"_s), textFile(u"style.css"_s, u"p{}"_s)}}});
        QCOMPARE(deployed.status, 200);
        m_id = deployed.json()[u"id"_s].toString();
    }
    void cleanup() { m_fixture.reset(); }

    void countsViewsVisitorsPagesReferrersAnd404s()
    {
        const QByteArray ownReferrer = "http://" + m_fixture->siteHost(m_slug).toUtf8() + "/about.html";
        QCOMPARE(visit(2, u"/"_s, kFirefox, {{"Referer", "https://news.example.org/item?id=1"}}).status, 200);
        QCOMPARE(visit(2, u"/about.html"_s, kFirefox, {{"Referer", ownReferrer}}).status, 200);
        QCOMPARE(visit(2, u"/style.css"_s, kFirefox).status, 200); // not a page
        QCOMPARE(visit(2, u"/missing"_s, kFirefox).status, 404);
        QCOMPARE(visit(2, u"/"_s, kSafari).status, 200); // another browser on the same address: another visitor
        QCOMPARE(visit(3, u"/"_s, kFirefox, {{"Referer", "https://News.Example.org/other"}}).status, 200);
        QCOMPARE(visit(2, u"/"_s, kFirefox).status, 200); // again: no new visitor

        const QJsonObject report = analytics().json();
        QCOMPARE(report[u"id"_s].toString(), m_id);
        QCOMPARE(report[u"slug"_s].toString(), m_slug);
        QCOMPARE(report[u"to"_s].toString(), u"2026-11-21"_s);
        QCOMPARE(report[u"from"_s].toString(), u"2026-10-23"_s); // the last 30 days
        const QJsonObject sums = report[u"totals"_s].toObject();
        QCOMPARE(sums[u"views"_s].toInt(), 5);
        QCOMPARE(sums[u"visitors"_s].toInt(), 3);
        QCOMPARE(sums[u"not_found"_s].toInt(), 1);
        QVERIFY(sums[u"bytes"_s].toInteger() >= 4 * 11 + 14 + 3);
        const QJsonArray days = report[u"days"_s].toArray();
        QCOMPARE(days.size(), 30);
        QCOMPARE(
            days.first().toObject(), (QJsonObject {{u"date"_s, u"2026-10-23"_s}, {u"views"_s, 0}, {u"visitors"_s, 0}}));
        QCOMPARE(
            days.last().toObject(), (QJsonObject {{u"date"_s, u"2026-11-21"_s}, {u"views"_s, 5}, {u"visitors"_s, 3}}));
        QCOMPARE(report[u"pages"_s].toArray(), entries(u"path"_s, u"views"_s, {{u"/"_s, 4}, {u"/about.html"_s, 1}}));
        QCOMPARE(report[u"referrers"_s].toArray(), entries(u"host"_s, u"views"_s, {{u"news.example.org"_s, 2}}));
        QCOMPARE(report[u"not_found"_s].toArray(), entries(u"path"_s, u"hits"_s, {{u"/missing"_s, 1}}));
    }

    void headRevalidationsPrefetchesAndBotsAreNotViews()
    {
        const TestReply page = visit(2, u"/"_s, kFirefox);
        QCOMPARE(page.status, 200);
        const QByteArray etag = page.header("etag");
        QVERIFY(!etag.isEmpty());
        QCOMPARE(visit(3, u"/"_s, kFirefox, {{"If-None-Match", etag}}).status, 304);
        QCOMPARE(m_fixture->client().site(m_slug, u"/"_s, "HEAD", {{"User-Agent", kFirefox}}).status, 200);
        QCOMPARE(visit(5, u"/"_s, kFirefox, {{"Sec-Purpose", "prefetch;prerender"}}).status, 200);
        QCOMPARE(visit(6, u"/"_s, kFirefox, {{"Purpose", "prefetch"}}).status, 200);
        for (const QByteArray &bot : {QByteArray("Mozilla/5.0 (compatible; Googlebot/2.1)"), QByteArray("curl/7.88.1"),
                 QByteArray("Some-Crawler/1.0"), QByteArray("")})
            QCOMPARE(visit(7, u"/"_s, bot).status, 200);
        QCOMPARE(visit(7, u"/nothing-here"_s, "python-requests/2.31").status, 404);

        const QJsonObject sums = totals();
        QCOMPARE(sums[u"views"_s].toInt(), 1);
        QCOMPARE(sums[u"visitors"_s].toInt(), 1);
        QCOMPARE(sums[u"not_found"_s].toInt(), 0);
    }

    void countsAreExactAcrossServingThreads()
    {
        constexpr int kConnections = 8;
        constexpr int kEach = 40;
        std::vector<std::unique_ptr<SourceConnection>> connections;
        QList<SourceConnection *> all;
        for (int c = 0; c < kConnections; ++c) {
            connections.push_back(std::make_unique<SourceConnection>(port(), QHostAddress(u"127.0.2.%1"_s.arg(c + 1))));
            all.append(connections.back().get());
        }
        const QString host = m_fixture->siteHost(m_slug);
        for (int c = 0; c < kConnections; ++c) {
            QList<QByteArray> requests;
            for (int i = 0; i < kEach; ++i)
                requests.append(SourceConnection::request("GET", host, i % 2 ? u"/"_s : u"/about.html"_s, {},
                    {{"User-Agent", kFirefox},
                        {"Referer", "https://r%1.example/"_ba.replace("%1", QByteArray::number(c))}}));
            all[c]->send(requests);
        }
        QVERIFY(SourceConnection::waitAll(all));
        for (SourceConnection *connection : all)
            QCOMPARE(connection->replies().size(), kEach);

        const QJsonObject report = analytics().json();
        QCOMPARE(report[u"totals"_s].toObject()[u"views"_s].toInt(), kConnections * kEach);
        QCOMPARE(report[u"totals"_s].toObject()[u"visitors"_s].toInt(), kConnections);
        QCOMPARE(report[u"pages"_s].toArray(),
            entries(u"path"_s, u"views"_s,
                {{u"/"_s, kConnections * kEach / 2}, {u"/about.html"_s, kConnections * kEach / 2}}));
        QCOMPARE(report[u"referrers"_s].toArray().size(), kConnections);
        QCOMPARE(report[u"referrers"_s].toArray().first().toObject()[u"views"_s].toInt(), kEach);
    }

    void theSaltChangesAtMidnight()
    {
        m_fixture->clock().set(QDateTime(QDate(2026, 11, 21), QTime(23, 59, 50), Qt::UTC));
        QCOMPARE(visit(2, u"/"_s, kFirefox).status, 200);
        QCOMPARE(visit(2, u"/about.html"_s, kFirefox).status, 200);
        m_fixture->engine().flushAnalytics();
        m_fixture->clock().set(QDateTime(QDate(2026, 11, 22), QTime(0, 0, 5), Qt::UTC));
        m_fixture->engine().flushAnalytics(); // a new day: a new salt
        QCOMPARE(visit(2, u"/"_s, kFirefox).status, 200);

        const QJsonObject report = analytics(u"?from=2026-11-21&to=2026-11-22"_s).json();
        const QJsonArray days = report[u"days"_s].toArray();
        QCOMPARE(days.size(), 2);
        QCOMPARE(
            days.at(0).toObject(), (QJsonObject {{u"date"_s, u"2026-11-21"_s}, {u"views"_s, 2}, {u"visitors"_s, 1}}));
        // Yesterday's visitor is a visitor of today again: nothing links the two days.
        QCOMPARE(
            days.at(1).toObject(), (QJsonObject {{u"date"_s, u"2026-11-22"_s}, {u"views"_s, 1}, {u"visitors"_s, 1}}));
        QCOMPARE(report[u"totals"_s].toObject()[u"visitors"_s].toInt(), 2);
    }

    void daysAreKept400Days()
    {
        QCOMPARE(visit(2, u"/"_s, kFirefox).status, 200);
        m_fixture->engine().flushAnalytics();
        const QString firstDay = u"?from=2026-11-21&to=2026-11-21"_s;
        m_fixture->clock().set(kStart.addDays(399));
        QCOMPARE(totals(firstDay)[u"views"_s].toInt(), 1); // the 400th day: still there
        m_fixture->clock().set(kStart.addDays(400));
        QCOMPARE(totals(firstDay)[u"views"_s].toInt(), 0); // pruned with the first flush of the 401st
    }

    void onlyTheOwnerSeesAnalytics()
    {
        QCOMPARE(visit(2, u"/"_s, kFirefox).status, 200);
        const QByteArray stranger = m_fixture->keyFor(u"stranger@example.org"_s);
        const TestReply refused = analytics({}, stranger);
        QCOMPARE(refused.status, 404);
        const TestReply missing = m_fixture->client().api("GET", u"/deploy/dep_doesnotexist/analytics"_s, m_key);
        QCOMPARE(missing.status, 404);
        QCOMPARE(refused.body, missing.body); // another's site looks exactly like a missing one
        QCOMPARE(analytics(u"?from=nonsense"_s, stranger).status, 404); // not even its dates are checked
        QCOMPARE(m_fixture->client().api("GET", u"/deploy/%1/analytics"_s.arg(m_id), {}).status, 401);
    }

    void datesAreChecked_data()
    {
        QTest::addColumn<QString>("query");
        QTest::addColumn<int>("status");
        QTest::addColumn<int>("days");
        QTest::newRow("one day") << u"?from=2026-11-21&to=2026-11-21"_s << 200 << 1;
        QTest::newRow("400 days") << u"?from=2025-10-18&to=2026-11-21"_s << 200 << 400;
        QTest::newRow("only from") << u"?from=2026-11-01"_s << 200 << 21;
        QTest::newRow("401 days") << u"?from=2025-10-17&to=2026-11-21"_s << 400 << 0;
        QTest::newRow("from after to") << u"?from=2026-11-22&to=2026-11-21"_s << 400 << 0;
        QTest::newRow("no date") << u"?from=yesterday"_s << 400 << 0;
        QTest::newRow("month 13") << u"?to=2026-13-01"_s << 400 << 0;
        QTest::newRow("short form") << u"?from=2026-1-5"_s << 400 << 0;
    }
    void datesAreChecked()
    {
        QFETCH(QString, query);
        QFETCH(int, status);
        QFETCH(int, days);
        const TestReply reply = analytics(query);
        QCOMPARE(reply.status, status);
        if (status == 200)
            QCOMPARE(reply.json()[u"days"_s].toArray().size(), days);
        else
            QVERIFY(!reply.error().isEmpty());
    }

    void mcpToolGetAnalytics()
    {
        QCOMPARE(visit(2, u"/"_s, kFirefox).status, 200);
        m_fixture->engine().flushAnalytics();
        auto &client = m_fixture->client();
        const auto post = [&](const QJsonObject &message, const QByteArray &session) {
            Headers headers {{"content-type", "application/json"}, {"accept", "application/json, text/event-stream"},
                {"authorization", "Bearer " + m_key}};
            if (!session.isEmpty())
                headers.append({"mcp-session-id", session});
            return client.request("POST", client.apiHost(), u"/mcp"_s, QJsonDocument(message).toJson(), headers);
        };
        const QByteArray session = post({{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, 1}, {u"method"_s, u"initialize"_s},
                                            {u"params"_s, QJsonObject {{u"protocolVersion"_s, u"2025-03-26"_s}}}},
            {})
                                       .header("mcp-session-id");
        QVERIFY(!session.isEmpty());
        const auto call = [&](const QJsonObject &arguments) {
            return post({{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, 2}, {u"method"_s, u"tools/call"_s},
                            {u"params"_s, QJsonObject {{u"name"_s, u"get_analytics"_s}, {u"arguments"_s, arguments}}}},
                session)
                .json()[u"result"_s]
                .toObject();
        };
        const QJsonObject result = call({{u"id"_s, m_id}, {u"from"_s, u"2026-11-20"_s}, {u"to"_s, u"2026-11-21"_s}});
        QVERIFY(!result[u"isError"_s].toBool());
        const QJsonObject content = result[u"structuredContent"_s].toObject();
        QCOMPARE(content[u"days"_s].toArray().size(), 2);
        QCOMPARE(content[u"totals"_s][u"views"_s].toInt(), 1);
        for (const QJsonObject &bad : {QJsonObject {{u"id"_s, m_id}, {u"from"_s, u"21.11.2026"_s}},
                 QJsonObject {{u"id"_s, m_id + u"/../counters"_s}}}) {
            const QJsonObject refused = call(bad);
            QVERIFY(refused[u"isError"_s].toBool());
            QVERIFY2(
                refused[u"content"_s][0][u"text"_s].toString().startsWith(u"Invalid arguments for get_analytics: "_s),
                qPrintable(refused[u"content"_s][0][u"text"_s].toString()));
        }
    }

    void countsOutliveARestart()
    {
        QCOMPARE(visit(2, u"/"_s, kFirefox).status, 200);
        QCOMPARE(visit(3, u"/missing"_s, kFirefox).status, 404);
        m_fixture->engine().flushAnalytics();
        QVERIFY(m_fixture->restart());
        const QJsonObject sums = totals();
        QCOMPARE(sums[u"views"_s].toInt(), 1);
        QCOMPARE(sums[u"visitors"_s].toInt(), 1);
        QCOMPARE(sums[u"not_found"_s].toInt(), 1);
        // Counting goes on after the restart, into the same day.
        QCOMPARE(visit(2, u"/about.html"_s, kFirefox).status, 200);
        QCOMPARE(totals()[u"views"_s].toInt(), 2);
    }
};

QTEST_GUILESS_MAIN(TestAnalytics)
#include "tst_analytics.moc"
