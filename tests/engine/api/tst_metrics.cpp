// GET /metrics over real HTTP: who may read it, exact request counts by kind and status class from several loopback
// addresses (and across serving threads in the @4threads run), a cumulative histogram whose count is the requests,
// the database's gauges (read at most every few seconds of the injected clock), the analytics flush's lag and failures,
// and promtool accepting the text.
#include "enginefixture.h"
#include "sourceclient.h"

#include <QProcess>
#include <QRegularExpression>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::EngineFixture;
using berth::test::SourceClient;
using berth::test::SourceConnection;
using berth::test::TestReply;

namespace {

const QDateTime kStart(QDate(2026, 11, 21), QTime(6, 0), Qt::UTC);
const QString kSlug = u"metrics-site"_s;
const QStringList kKinds {u"site"_s, u"api"_s, u"builtin"_s, u"other"_s};
const QStringList kClasses {u"1xx"_s, u"2xx"_s, u"3xx"_s, u"4xx"_s, u"5xx"_s};

// The samples of an exposition, by name with labels as written ("name{a=\"b\"}"), and the families' TYPE lines.
struct Scrape
{
    QHash<QString, double> samples;
    QHash<QString, QString> types; // family name -> type
    QSet<QString> helped; // families with a HELP line

    double value(const QString &series) const { return samples.value(series, -1); }
    double requests(const QString &kind, const QString &code) const
    {
        return value(u"berth_http_requests_total{kind=\"%1\",code=\"%2\"}"_s.arg(kind, code));
    }
    double requestsOfKind(const QString &kind) const
    {
        double sum = 0;
        for (const QString &code : kClasses)
            sum += requests(kind, code);
        return sum;
    }
};

Scrape parse(const QByteArray &text)
{
    Scrape scrape;
    for (const QByteArray &raw : text.split('\n')) {
        const QString line = QString::fromUtf8(raw);
        if (line.isEmpty())
            continue;
        if (line.startsWith(u"# TYPE "_s)) {
            const QStringList parts = line.split(u' ');
            scrape.types.insert(parts.value(2), parts.value(3));
        } else if (line.startsWith(u"# HELP "_s)) {
            scrape.helped.insert(line.split(u' ').value(2));
        } else {
            const qsizetype space = line.lastIndexOf(u' ');
            bool ok = false;
            const double value = line.mid(space + 1).toDouble(&ok);
            if (!ok)
                qWarning() << "unreadable sample" << line;
            scrape.samples.insert(line.left(space), value);
        }
    }
    return scrape;
}

} // namespace

class TestMetrics : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineFixture> m_fixture;

    bool start()
    {
        m_fixture = std::make_unique<EngineFixture>();
        return m_fixture->startWithClock(kStart) && !m_fixture->deploySite(m_fixture->ownerKey(), kSlug).isEmpty();
    }
    TestReply fetch(const QByteArray &key) { return m_fixture->client().api("GET", u"/metrics"_s, key); }
    Scrape scrape()
    {
        const TestReply reply = fetch(m_fixture->ownerKey());
        if (reply.status != 200)
            qWarning() << "GET /metrics answered" << reply.status << reply.body;
        return parse(reply.body);
    }
    SourceClient from(int lastOctet)
    {
        return SourceClient(m_fixture->engine().port(), QHostAddress(u"127.0.0.%1"_s.arg(lastOctet)));
    }
    // The requests counted between two scrapes, per kind and class (the first scrape's own request among them).
    static double delta(const Scrape &before, const Scrape &after, const QString &kind, const QString &code)
    {
        return after.requests(kind, code) - before.requests(kind, code);
    }
    static void verifyHistogram(const Scrape &scrape)
    {
        for (const QString &kind : kKinds) {
            double previous = 0;
            double previousBound = 0;
            int buckets = 0;
            const QRegularExpression bucket(
                u"^berth_http_request_duration_seconds_bucket\\{kind=\"%1\",le=\"([^\"]+)\"\\}$"_s.arg(kind));
            QList<QPair<double, double>> bounds;
            for (auto it = scrape.samples.constBegin(); it != scrape.samples.constEnd(); ++it) {
                const auto match = bucket.match(it.key());
                if (match.hasMatch())
                    bounds.append({match.captured(1) == u"+Inf"_s ? qInf() : match.captured(1).toDouble(), it.value()});
            }
            std::sort(bounds.begin(), bounds.end());
            for (const auto &[bound, count] : std::as_const(bounds)) {
                QVERIFY2(bound > previousBound || buckets == 0, qPrintable(kind));
                QVERIFY2(count >= previous, qPrintable(u"%1: bucket %2 below the one before"_s.arg(kind).arg(bound)));
                previous = count;
                previousBound = bound;
                ++buckets;
            }
            QVERIFY(buckets >= 2);
            QCOMPARE(bounds.last().first, qInf());
            const double count = scrape.value(u"berth_http_request_duration_seconds_count{kind=\"%1\"}"_s.arg(kind));
            QCOMPARE(bounds.last().second, count);
            QCOMPARE(count, scrape.requestsOfKind(kind));
            QVERIFY(scrape.value(u"berth_http_request_duration_seconds_sum{kind=\"%1\"}"_s.arg(kind)) >= 0);
        }
    }
    static int servingThreads() { return qMax(1, qEnvironmentVariableIntValue("BERTH_TEST_SERVING_THREADS")); }

private Q_SLOTS:
    void cleanup() { m_fixture.reset(); }

    void onlyTheOwnersKeyReadsIt()
    {
        QVERIFY(start());
        const TestReply owner = fetch(m_fixture->ownerKey());
        QCOMPARE(owner.status, 200);
        QVERIFY2(owner.header("content-type").startsWith("text/plain; version=0.0.4"), owner.header("content-type"));
        QVERIFY(owner.body.contains("berth_http_requests_total{kind=\"site\",code=\"2xx\"}"));

        const TestReply other = fetch(m_fixture->keyFor(u"someone@example.test"_s));
        QCOMPARE(other.status, 404);
        QCOMPARE(other.error(), u"Not found"_s);
        QVERIFY(!other.body.contains("berth_"));
        const TestReply anonymous = fetch({});
        QCOMPARE(anonymous.status, 401);
        QVERIFY(!anonymous.body.contains("berth_"));
        QCOMPARE(fetch("not-a-key").status, 401);
    }

    void everyFamilyHasHelpAndType()
    {
        QVERIFY(start());
        const Scrape metrics = scrape();
        const QStringList expected {u"berth_http_requests_total"_s, u"berth_http_request_duration_seconds"_s,
            u"berth_http_sent_bytes_total"_s, u"berth_http_open_connections"_s, u"berth_http_serving_threads"_s,
            u"berth_access_log_dropped_lines_total"_s, u"berth_deploys_total"_s, u"berth_deployments"_s,
            u"berth_blobs"_s, u"berth_blob_bytes"_s, u"berth_submissions"_s};
        for (const QString &family : expected) {
            QVERIFY2(metrics.types.contains(family), qPrintable(family));
            QVERIFY2(metrics.helped.contains(family), qPrintable(family));
        }
        QCOMPARE(metrics.types.value(u"berth_http_request_duration_seconds"_s), u"histogram"_s);
        QCOMPARE(metrics.types.value(u"berth_deploys_total"_s), u"counter"_s);
        QCOMPARE(metrics.types.value(u"berth_deployments"_s), u"gauge"_s);
        static const QRegularExpression histogramPart(u"_(bucket|sum|count)$"_s);
        for (auto it = metrics.samples.constBegin(); it != metrics.samples.constEnd(); ++it) {
            QString family = it.key().section(u'{', 0, 0);
            if (!metrics.types.contains(family))
                family.remove(histogramPart);
            QVERIFY2(metrics.types.contains(family), qPrintable(it.key()));
        }
        QCOMPARE(metrics.value(u"berth_http_serving_threads"_s), double(servingThreads()));
        QVERIFY(metrics.value(u"berth_http_open_connections"_s) >= 1); // the scrape's own
        QCOMPARE(metrics.value(u"berth_access_log_dropped_lines_total"_s), 0.0);
    }

    void countsRequestsByKindAndStatusClass()
    {
        QVERIFY(start());
        const Scrape before = scrape();
        const QByteArray etag = from(2).site("GET", kSlug, u"/"_s).header("etag");
        QVERIFY(!etag.isEmpty());
        int ok = 1, missing = 0, notModified = 0, builtinOk = 0, other = 0;
        for (int address = 2; address <= 5; ++address) {
            SourceClient client = from(address);
            for (int i = 0; i < address; ++i) {
                QCOMPARE(client.site("GET", kSlug, u"/"_s).status, 200);
                ++ok;
            }
            for (int i = 0; i < 2; ++i) {
                QCOMPARE(client.site("GET", kSlug, u"/no-such-page"_s).status, 404);
                ++missing;
            }
            QCOMPARE(client.site("GET", kSlug, u"/"_s, {}, {{"If-None-Match", etag}}).status, 304);
            ++notModified;
            QCOMPARE(
                client.site("POST", kSlug, u"/_submit"_s, R"({"n":1})", {{"Content-Type", "application/json"}}).status,
                200);
            QCOMPARE(client.site("GET", kSlug, u"/_counter/visits"_s).status, 200);
            builtinOk += 2;
            QCOMPARE(client.request("GET", u"nowhere.example"_s, u"/"_s).status, 421);
            ++other;
        }
        const Scrape after = scrape();
        QCOMPARE(delta(before, after, u"site"_s, u"2xx"_s), double(ok));
        QCOMPARE(delta(before, after, u"site"_s, u"3xx"_s), double(notModified));
        QCOMPARE(delta(before, after, u"site"_s, u"4xx"_s), double(missing));
        QCOMPARE(delta(before, after, u"site"_s, u"5xx"_s), 0.0);
        QCOMPARE(delta(before, after, u"builtin"_s, u"2xx"_s), double(builtinOk));
        QCOMPARE(after.requestsOfKind(u"builtin"_s) - before.requestsOfKind(u"builtin"_s), double(builtinOk));
        QCOMPARE(delta(before, after, u"other"_s, u"4xx"_s), double(other));
        // The API: the first scrape alone (its answer is counted once sent, so the second scrape is not yet).
        QCOMPARE(after.requestsOfKind(u"api"_s) - before.requestsOfKind(u"api"_s), 1.0);
        QCOMPARE(delta(before, after, u"api"_s, u"2xx"_s), 1.0);
        verifyHistogram(after);
        const double siteBytes = after.value(u"berth_http_sent_bytes_total{kind=\"site\"}"_s)
            - before.value(u"berth_http_sent_bytes_total{kind=\"site\"}"_s);
        QVERIFY2(siteBytes > 100.0 * (ok + missing + notModified), qPrintable(QString::number(siteBytes)));
    }

    void countsAreExactAcrossServingThreads()
    {
        QVERIFY(start());
        const Scrape before = scrape();
        // Many connections from several addresses at once, each pipelining its requests: with four serving threads
        // they are spread over all of them.
        constexpr int kConnections = 16;
        constexpr int kPerConnection = 25;
        std::vector<std::unique_ptr<SourceConnection>> connections;
        QList<SourceConnection *> all;
        const QString host = SourceClient(m_fixture->engine().port(), QHostAddress::LocalHost).siteHost(kSlug);
        for (int c = 0; c < kConnections; ++c) {
            connections.push_back(std::make_unique<SourceConnection>(
                m_fixture->engine().port(), QHostAddress(u"127.0.0.%1"_s.arg(2 + c % 4))));
            QList<QByteArray> requests;
            for (int i = 0; i < kPerConnection; ++i)
                requests.append(SourceConnection::request("GET", host, i % 5 == 0 ? u"/gone"_s : u"/"_s));
            connections.back()->send(requests);
            all.append(connections.back().get());
        }
        QVERIFY(SourceConnection::waitAll(all));
        int ok = 0, missing = 0;
        for (const SourceConnection *connection : std::as_const(all)) {
            QCOMPARE(connection->replies().size(), kPerConnection);
            for (const TestReply &reply : connection->replies())
                (reply.status == 200 ? ok : missing) += 1;
        }
        QCOMPARE(ok, kConnections * kPerConnection * 4 / 5);
        const Scrape after = scrape();
        QCOMPARE(after.value(u"berth_http_serving_threads"_s), double(servingThreads()));
        QCOMPARE(delta(before, after, u"site"_s, u"2xx"_s), double(ok));
        QCOMPARE(delta(before, after, u"site"_s, u"4xx"_s), double(missing));
        QCOMPARE(
            after.requestsOfKind(u"site"_s) - before.requestsOfKind(u"site"_s), double(kConnections * kPerConnection));
        verifyHistogram(after);
    }

    void databaseGaugesAreReadAtMostEveryFewSeconds()
    {
        QVERIFY(start());
        const QString second = m_fixture->deploySite(m_fixture->ownerKey(), u"metrics-other"_s, u"<p>other</p>"_s);
        QVERIFY(!second.isEmpty());
        // The same content as the first site: stored once.
        QVERIFY(!m_fixture->deploySite(m_fixture->ownerKey(), u"metrics-third"_s, u"<p>other</p>"_s).isEmpty());
        Scrape metrics = scrape();
        QCOMPARE(metrics.value(u"berth_deploys_total"_s), 3.0);
        QCOMPARE(metrics.value(u"berth_deployments"_s), 3.0);
        QCOMPARE(metrics.value(u"berth_blobs"_s), 2.0);
        QCOMPARE(metrics.value(u"berth_blob_bytes"_s), double(QByteArray("<p>site</p>").size() + 12));
        QCOMPARE(metrics.value(u"berth_submissions"_s), 0.0);

        QCOMPARE(
            from(2).site("POST", kSlug, u"/_submit"_s, R"({"n":1})", {{"Content-Type", "application/json"}}).status,
            200);
        QCOMPARE(m_fixture->client().api("DELETE", u"/deploy/%1"_s.arg(second), m_fixture->ownerKey()).status, 200);
        metrics = scrape(); // within the cache's few seconds: the counts as they were
        QCOMPARE(metrics.value(u"berth_deployments"_s), 3.0);
        QCOMPARE(metrics.value(u"berth_submissions"_s), 0.0);
        m_fixture->clock().advance(5000);
        metrics = scrape();
        QCOMPARE(metrics.value(u"berth_deployments"_s), 2.0);
        QCOMPARE(metrics.value(u"berth_submissions"_s), 1.0);
        QCOMPARE(metrics.value(u"berth_blobs"_s), 2.0); // the third site still holds the shared content
        QCOMPARE(metrics.value(u"berth_deploys_total"_s), 3.0); // a counter: removing a site takes no deploy back
    }

    // The flush of page-view counts: no lag while flushes succeed; while the database refuses them, failures are
    // counted and the lag grows with the (injected) clock; once it takes them again the lag is back to none.
    void analyticsFlushLagAndFailures()
    {
        QVERIFY(start());
        Scrape metrics = scrape();
        QCOMPARE(metrics.types.value(u"berth_analytics_flush_lag_seconds"_s), u"gauge"_s);
        QCOMPARE(metrics.types.value(u"berth_analytics_flush_failures_total"_s), u"counter"_s);
        QCOMPARE(metrics.value(u"berth_analytics_flush_lag_seconds"_s), 0.0);
        QCOMPARE(metrics.value(u"berth_analytics_flush_failures_total"_s), 0.0);

        const auto database = m_fixture->database();
        QVERIFY(database->open());
        QVERIFY(QSqlQuery(database->connection()).exec(u"ALTER TABLE analytics_days RENAME TO analytics_days_away"_s));
        const QList<QPair<QByteArray, QByteArray>> browser {
            {"User-Agent", "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0"}};
        QCOMPARE(from(2).site("GET", kSlug, u"/"_s, {}, browser).status, 200);
        QTRY_VERIFY(scrape().value(u"berth_analytics_flush_failures_total"_s) >= 1.0);
        m_fixture->clock().advance(120 * 1000);
        QVERIFY(scrape().value(u"berth_analytics_flush_lag_seconds"_s) >= 120.0);

        QVERIFY(QSqlQuery(database->connection()).exec(u"ALTER TABLE analytics_days_away RENAME TO analytics_days"_s));
        QCOMPARE(from(3).site("GET", kSlug, u"/"_s, {}, browser).status, 200);
        QTRY_COMPARE(scrape().value(u"berth_analytics_flush_lag_seconds"_s), 0.0);
    }

    void promtoolAcceptsTheText()
    {
        const QString promtool = QStandardPaths::findExecutable(u"promtool"_s);
        if (promtool.isEmpty())
            QSKIP("promtool (Debian's prometheus package) is not installed");
        QVERIFY(start());
        QCOMPARE(from(3).site("GET", kSlug, u"/"_s).status, 200);
        QCOMPARE(from(3).site("GET", kSlug, u"/missing"_s).status, 404);
        const TestReply reply = fetch(m_fixture->ownerKey());
        QCOMPARE(reply.status, 200);
        QProcess check;
        check.start(promtool, {u"check"_s, u"metrics"_s});
        QVERIFY(check.waitForStarted());
        check.write(reply.body);
        check.closeWriteChannel();
        QVERIFY(check.waitForFinished(60'000));
        const QByteArray said = check.readAllStandardOutput() + check.readAllStandardError();
        QVERIFY2(check.exitStatus() == QProcess::NormalExit && check.exitCode() == 0, said.constData());
        QVERIFY2(!said.contains("problem") && !said.contains("error"), said.constData());
    }
};

QTEST_MAIN(TestMetrics)
#include "tst_metrics.moc"
