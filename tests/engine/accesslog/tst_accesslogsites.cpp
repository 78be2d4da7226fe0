// The engine's access log over real HTTP: goaccess (Debian's package) reads the log of a test run with its
// VCOMBINED format and counts exactly the requests made, the virtual host being the site's or the API's; a full disk
// drops and counts lines through the engine's C++ interface while sites are served; off writes nothing.
#include "enginefixture.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QStandardPaths>
#include <QTest>

using namespace Qt::StringLiterals;
using berth::EngineSettings;
using berth::test::EngineFixture;

namespace {

const QDateTime kNoon = QDateTime(QDate(2030, 3, 14), QTime(12, 0), Qt::UTC);

int lineCount(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? int(file.readAll().count('\n')) : -1;
}

// goaccess's JSON report of the log, or an empty object (with a warning) when it cannot run.
QJsonObject goaccessReport(const QString &log)
{
    const QString goaccess = QStandardPaths::findExecutable(u"goaccess"_s);
    if (goaccess.isEmpty()) {
        qWarning("goaccess is not installed (Debian package goaccess; packaging/setup.sh deps)");
        return {};
    }
    QProcess process;
    process.start(goaccess, {log, u"--log-format=VCOMBINED"_s, u"--no-global-config"_s, u"-o"_s, u"json"_s});
    if (!process.waitForFinished(60000) || process.exitCode() != 0) {
        qWarning("goaccess failed: %s", process.readAllStandardError().constData());
        return {};
    }
    return QJsonDocument::fromJson(process.readAllStandardOutput()).object();
}

// A one-file site, deployed through the API.
bool deploy(EngineFixture &fixture, const QString &slug)
{
    const QJsonArray files {QJsonObject {{u"path"_s, u"index.html"_s}, {u"content"_s, u"<p>%1</p>"_s.arg(slug)}}};
    return fixture.client()
               .api("POST", u"/deploy"_s, fixture.ownerKey(), QJsonObject {{u"slug"_s, slug}, {u"files"_s, files}})
               .status
        == 200;
}

} // namespace

class TestAccessLogSites final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void goaccessCountsEveryRequest();
    void fullDiskDropsAndSitesAreServed();
    void offWritesNothing();
};

void TestAccessLogSites::goaccessCountsEveryRequest()
{
    EngineFixture fixture;
    const QString log = QDir(fixture.dataDir()).filePath(u"logs/access.log"_s);
    EngineSettings settings;
    settings.accessLog = log;
    QVERIFY(fixture.startWithClock(kNoon, settings));
    QVERIFY(deploy(fixture, u"alpha-site"_s));
    QVERIFY(deploy(fixture, u"beta-site"_s));
    fixture.engine().flushAccessLog();
    const int before = lineCount(log); // the deploys' own requests
    QVERIFY(before > 0);

    int made = 0;
    for (int i = 0; i < 10; ++i) {
        QCOMPARE(fixture.client().site(u"alpha-site"_s).status, 200);
        QCOMPARE(
            fixture.client().site(u"beta-site"_s, u"/"_s, "GET", {{"Referer", "https://elsewhere.example/"}}).status,
            200);
        QCOMPARE(fixture.client().site(u"alpha-site"_s, u"/missing/%1"_s.arg(i)).status, 404);
        QCOMPARE(fixture.client().site(u"beta-site"_s, u"/"_s, "HEAD").status, 200);
        QCOMPARE(fixture.client().api("GET", u"/auth/me"_s, fixture.ownerKey()).status, 200);
        made += 5;
    }
    fixture.engine().flushAccessLog();
    QCOMPARE(lineCount(log), before + made);
    QCOMPARE(fixture.engine().accessLogDroppedLines(), 0);

    const QJsonObject report = goaccessReport(log);
    const QJsonObject general = report.value(u"general"_s).toObject();
    QCOMPARE(general.value(u"total_requests"_s).toInt(), before + made);
    QCOMPARE(general.value(u"failed_requests"_s).toInt(), 0);
    QSet<QString> hosts;
    for (const QJsonValue &row : report.value(u"vhosts"_s).toObject().value(u"data"_s).toArray())
        hosts.insert(row.toObject().value(u"data"_s).toString());
    QCOMPARE(hosts, (QSet<QString> {u"alpha-site.localhost"_s, u"beta-site.localhost"_s, u"localhost"_s}));
}

void TestAccessLogSites::fullDiskDropsAndSitesAreServed()
{
    EngineFixture fixture;
    EngineSettings settings;
    settings.accessLog = u"/dev/full"_s; // every write fails with ENOSPC
    QVERIFY(fixture.start(settings));
    QVERIFY(deploy(fixture, u"alpha-site"_s));
    fixture.engine().flushAccessLog();
    const qint64 before = fixture.engine().accessLogDroppedLines();
    QVERIFY(before > 0);
    for (int i = 0; i < 20; ++i)
        QCOMPARE(fixture.client().site(u"alpha-site"_s).status, 200);
    fixture.engine().flushAccessLog();
    QCOMPARE(fixture.engine().accessLogDroppedLines(), before + 20);
}

void TestAccessLogSites::offWritesNothing()
{
    EngineFixture fixture;
    QVERIFY(fixture.start()); // no access log unless one is named
    QVERIFY(deploy(fixture, u"alpha-site"_s));
    QCOMPARE(fixture.client().site(u"alpha-site"_s).status, 200);
    fixture.engine().flushAccessLog();
    QVERIFY(!QFileInfo::exists(QDir(fixture.dataDir()).filePath(u"logs"_s)));
    QCOMPARE(fixture.engine().accessLogDroppedLines(), 0);
}

QTEST_GUILESS_MAIN(TestAccessLogSites)
#include "tst_accesslogsites.moc"
