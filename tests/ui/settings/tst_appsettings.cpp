// The dashboard's saved settings: listen addresses as berthd accepts them, engine settings, sources.
#include "ui/settings/appsettings.h"

#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;

class TestAppSettings : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parseListen_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<QString>("address");
        QTest::addColumn<int>("port");
        QTest::newRow("v4") << u"127.0.0.1:8080"_s << true << u"127.0.0.1"_s << 8080;
        QTest::newRow("any") << u"0.0.0.0:80"_s << true << u"0.0.0.0"_s << 80;
        QTest::newRow("v6") << u"[::1]:8443"_s << true << u"::1"_s << 8443;
        QTest::newRow("port only") << u"9000"_s << true << u"127.0.0.1"_s << 9000;
        QTest::newRow("port 0") << u"127.0.0.1:0"_s << true << u"127.0.0.1"_s << 0;
        QTest::newRow("port too big") << u"127.0.0.1:65536"_s << false << QString() << 0;
        QTest::newRow("host name") << u"localhost:8080"_s << false << QString() << 0;
        QTest::newRow("bad v4") << u"300.1.1.1:80"_s << false << QString() << 0;
        QTest::newRow("empty") << QString() << false << QString() << 0;
    }
    void parseListen()
    {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QFETCH(QString, address);
        QFETCH(int, port);
        QHostAddress parsed;
        quint16 parsedPort = 1;
        QCOMPARE(AppSettings::parseListen(text, &parsed, &parsedPort), valid);
        if (valid) {
            QCOMPARE(parsed, QHostAddress(address));
            QCOMPARE(int(parsedPort), port);
        }
    }

    void valuesSurviveAndMakeEngineSettings()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"dashboard.conf"_s);
        {
            AppSettings settings(path);
            QCOMPARE(settings.listen(), u"127.0.0.1:8080"_s);
            QVERIFY(settings.keepServingInTray());
            settings.setListen(u"0.0.0.0:8181"_s);
            settings.setSiteDomain(u"sites.example.lan:8181"_s);
            settings.setDataDir(u"/srv/berth"_s);
            settings.setKeepServingInTray(false);
            QCOMPARE(settings.servingThreads(), 0); // one per core
            settings.setServingThreads(3);
            settings.setSourcePath(u"dep_1"_s, u"/home/me/site"_s);
        }
        AppSettings settings(path);
        const EngineSettings engine = settings.engineSettings();
        QCOMPARE(engine.listenAddress, QHostAddress(u"0.0.0.0"_s));
        QCOMPARE(engine.listenPort, quint16(8181));
        QCOMPARE(engine.siteDomain, u"sites.example.lan:8181"_s);
        QCOMPARE(engine.dataDir, u"/srv/berth"_s);
        QCOMPARE(engine.servingThreads, 3);
        QVERIFY(!settings.keepServingInTray());
        QCOMPARE(settings.sourcePath(u"dep_1"_s), u"/home/me/site"_s);
        settings.removeSourcePath(u"dep_1"_s);
        QVERIFY(settings.sourcePath(u"dep_1"_s).isEmpty());
    }

    void accessLogIsOffUntilChosen()
    {
        QTemporaryDir dir;
        AppSettings settings(dir.filePath(u"dashboard.conf"_s));
        QVERIFY(!settings.accessLogEnabled());
        QVERIFY(settings.engineSettings().accessLog.isEmpty());
        settings.setAccessLogEnabled(true); // in the data folder, wherever that is for this run
        QCOMPARE(settings.engineSettings().accessLog, u"logs/access.log"_s);
        settings.setAccessLogFile(u" /var/log/berth/access.log "_s);
        QCOMPARE(settings.engineSettings().accessLog, u"/var/log/berth/access.log"_s);
        settings.setAccessLogEnabled(false); // the file is remembered for next time
        QVERIFY(settings.engineSettings().accessLog.isEmpty());
        QCOMPARE(settings.accessLogFile(), u"/var/log/berth/access.log"_s);
    }

    void aBrokenListenValueFallsBackToTheDefault()
    {
        QTemporaryDir dir;
        AppSettings settings(dir.filePath(u"dashboard.conf"_s));
        settings.setListen(u"nonsense"_s);
        QCOMPARE(settings.engineSettings().listenPort, AppSettings::kDefaultPort);
        settings.setServingThreads(-4); // a hand-edited file: the default, as berthd would
        QCOMPARE(settings.engineSettings().servingThreads, 0);
    }
};

QTEST_APPLESS_MAIN(TestAppSettings)
#include "tst_appsettings.moc"
