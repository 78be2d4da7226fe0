// The sites' own LAN ports: assigned from the range, kept in the instance's database across restarts (a real
// SQLite file, opened again), freed on delete and given to the next site.
#include "lan/siteports.h"
#include "storage/database.h"
#include "storage/settingsrepository.h"

#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;

class TestSitePorts : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString path() const { return m_dir.filePath(u"berth.sqlite"_s); }

private Q_SLOTS:
    void init() { QFile::remove(path()); }

    void assignsTheLowestFreePortAndKeepsIt()
    {
        Database db(path());
        QVERIFY(db.open());
        SettingsRepository settings(db);
        SitePorts ports(settings, {8100, 8102});
        ports.load();
        QCOMPARE(ports.assign(u"dep_a"_s), std::optional<quint16>(8100));
        QCOMPARE(ports.assign(u"dep_b"_s), std::optional<quint16>(8101));
        QCOMPARE(ports.assign(u"dep_a"_s), std::optional<quint16>(8100)); // asked again: the same
        QCOMPARE(ports.assign(u"dep_c"_s), std::optional<quint16>(8102));
        QCOMPARE(ports.assign(u"dep_d"_s), std::nullopt); // the range is full
        ports.release(u"dep_b"_s);
        QCOMPARE(ports.port(u"dep_b"_s), std::nullopt);
        QCOMPARE(ports.assign(u"dep_d"_s), std::optional<quint16>(8101)); // the freed port
    }

    void survivesARestart()
    {
        {
            Database db(path());
            QVERIFY(db.open());
            SettingsRepository settings(db);
            SitePorts ports(settings, {8100, 8199});
            ports.load();
            ports.assign(u"dep_a"_s);
            ports.assign(u"dep_b"_s);
            ports.assign(u"dep_c"_s);
            ports.release(u"dep_a"_s);
        }
        Database db(path());
        QVERIFY(db.open());
        SettingsRepository settings(db);
        SitePorts ports(settings, {8100, 8199});
        ports.load();
        QCOMPARE(ports.port(u"dep_a"_s), std::nullopt);
        QCOMPARE(ports.port(u"dep_b"_s), std::optional<quint16>(8101));
        QCOMPARE(ports.port(u"dep_c"_s), std::optional<quint16>(8102));
        // Deleted while not serving: keepOnly() frees it.
        ports.keepOnly({u"dep_c"_s});
        QCOMPARE(ports.port(u"dep_b"_s), std::nullopt);
        QCOMPARE(ports.assign(u"dep_d"_s), std::optional<quint16>(8100));
    }

    void aNewRangeForgetsPortsOutsideIt()
    {
        Database db(path());
        QVERIFY(db.open());
        SettingsRepository settings(db);
        {
            SitePorts ports(settings, {8100, 8199});
            ports.load();
            ports.assign(u"dep_a"_s);
            ports.assign(u"dep_b"_s);
        }
        SitePorts narrower(settings, {8101, 8110});
        narrower.load();
        QCOMPARE(narrower.port(u"dep_a"_s), std::nullopt); // 8100 is outside
        QCOMPARE(narrower.port(u"dep_b"_s), std::optional<quint16>(8101));
        QCOMPARE(narrower.assign(u"dep_a"_s), std::optional<quint16>(8102));
    }

    void ignoresAGarbledSetting()
    {
        Database db(path());
        QVERIFY(db.open());
        SettingsRepository settings(db);
        QVERIFY(settings.setValue(QLatin1String(SitePorts::kSettingKey), u"{not json"_s));
        SitePorts ports(settings, {8100, 8199});
        ports.load();
        QCOMPARE(ports.assign(u"dep_a"_s), std::optional<quint16>(8100));
    }
};

QTEST_MAIN(TestSitePorts)
#include "tst_siteports.moc"
