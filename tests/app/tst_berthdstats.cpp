// berthd stats against a real berthd process over HTTP: page views from real visits (browsers counted, a bot not),
// its totals, bars per day, top pages and referrers, --json as the API answers, --days and its exit statuses.
#include "berthdprocess.h"
#include "httptestclient.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::BerthdProcess;
using berth::test::HttpTestClient;

namespace {

enum : int
{
    kUsage = 2,
    kNotFound = 6
};

const QByteArray kBrowser = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

} // namespace

class TestBerthdStats : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_data;
    QTemporaryDir m_work;
    std::unique_ptr<BerthdProcess> m_server;
    std::unique_ptr<HttpTestClient> m_http;
    QByteArray m_key;

    BerthdProcess::Outcome client(const QStringList &arguments)
    {
        return m_server->runClient(arguments, m_key, m_work.path());
    }
    QJsonObject json(const QStringList &arguments)
    {
        const auto outcome = client(QStringList {arguments} << u"--json"_s);
        return outcome.exitCode == 0 ? QJsonDocument::fromJson(outcome.out).object() : QJsonObject();
    }
    int views() { return json({u"stats"_s, u"stats-site"_s})[u"totals"_s][u"views"_s].toInt(); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_data.isValid() && m_work.isValid());
        m_server = BerthdProcess::startWithOwnerKey(m_data.path(), &m_key);
        QVERIFY(m_server);
        m_http = std::make_unique<HttpTestClient>(m_server->port());
        QFile page(m_work.filePath(u"index.html"_s));
        QVERIFY(page.open(QIODevice::WriteOnly) && page.write("<p>stats</p>") > 0);
        page.close();
        const auto deployed = client({u"deploy"_s, page.fileName(), u"--slug"_s, u"stats-site"_s});
        QVERIFY2(deployed.exitCode == 0, deployed.err.constData());
    }

    void printsTotalsBarsPagesAndReferrers()
    {
        QCOMPARE(views(), 0);
        QCOMPARE(m_http
                     ->site(u"stats-site"_s, u"/"_s, "GET",
                         {{"User-Agent", kBrowser}, {"Referer", "https://news.example.org/a"}})
                     .status,
            200);
        QCOMPARE(m_http->site(u"stats-site"_s, u"/"_s, "GET", {{"User-Agent", kBrowser + " (second)"}}).status, 200);
        QCOMPARE(m_http->site(u"stats-site"_s, u"/gone"_s, "GET", {{"User-Agent", kBrowser}}).status, 404);
        QCOMPARE(m_http->site(u"stats-site"_s, u"/"_s, "GET", {{"User-Agent", "curl/7.88.1"}}).status, 200);
        QTRY_COMPARE_WITH_TIMEOUT(views(), 2, 10'000); // written within about a second

        const auto outcome = client({u"stats"_s, u"stats-site"_s, u"--days"_s, u"3"_s});
        QVERIFY2(outcome.exitCode == 0, outcome.err.constData());
        const QString text = QString::fromUtf8(outcome.out);
        const QString today = QDateTime::currentDateTimeUtc().date().toString(Qt::ISODate);
        QVERIFY2(text.startsWith(u"stats-site, "_s), qPrintable(text));
        QVERIFY2(text.contains(u"Views 2, visitors 2, 404s 1, sent "_s), qPrintable(text));
        QVERIFY2(QRegularExpression(u"\n  %1       2 █{40}\n"_s.arg(today)).match(text).hasMatch(), qPrintable(text));
        QCOMPARE(text.count(u"       0\n"_s), 2); // the two days before: no bar
        QVERIFY2(text.contains(u"Top pages\n        2  /\n"_s), qPrintable(text));
        QVERIFY2(text.contains(u"Referrers\n        1  news.example.org\n"_s), qPrintable(text));
        QVERIFY2(text.contains(u"Not found\n        1  /gone\n"_s), qPrintable(text));

        const QJsonObject answer = json({u"stats"_s, u"stats-site"_s, u"--days"_s, u"3"_s});
        QCOMPARE(answer.keys(),
            (QStringList {u"days"_s, u"from"_s, u"id"_s, u"not_found"_s, u"pages"_s, u"referrers"_s, u"slug"_s, u"to"_s,
                u"totals"_s}));
        QCOMPARE(answer[u"days"_s].toArray().size(), 3);
        QCOMPARE(answer[u"to"_s].toString(), today);
        QCOMPARE(answer[u"totals"_s][u"visitors"_s].toInt(), 2);
    }

    void refusesBadDaysAndUnknownSites()
    {
        for (const QString &days : {u"0"_s, u"401"_s, u"week"_s})
            QCOMPARE(client({u"stats"_s, u"stats-site"_s, u"--days"_s, days}).exitCode, kUsage);
        QCOMPARE(client({u"stats"_s}).exitCode, kUsage);
        QCOMPARE(client({u"stats"_s, u"no-such-site"_s}).exitCode, kNotFound);
        QCOMPARE(json({u"stats"_s, u"stats-site"_s, u"--days"_s, u"400"_s})[u"days"_s].toArray().size(), 400);
    }
};

QTEST_GUILESS_MAIN(TestBerthdStats)
#include "tst_berthdstats.moc"
