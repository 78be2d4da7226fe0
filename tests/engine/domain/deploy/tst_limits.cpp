#include "domain/deploy/deploymentlimits.h"
#include "domain/plans/plantable.h"

#include <QJsonDocument>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;

class TestLimits final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sizeConstants();
    void defaults_data();
    void defaults();
    void plans();
    void unknownPlanGetsFree();
    void setLimits();
    void jsonRoundTrip();
    void jsonShape();
    void fromJsonPartial();
    void fromJsonRejects_data();
    void fromJsonRejects();
};

void TestLimits::sizeConstants()
{
    QCOMPARE(kMaxHtmlBytes, 5 * 1024 * 1024);
    QCOMPARE(kMaxFileBytes, 10 * 1024 * 1024);
    QCOMPARE(kMaxTotalBytes, 50 * 1024 * 1024);
    QCOMPARE(kMaxFilesPerDeployment, 10000);
}

void TestLimits::defaults_data()
{
    QTest::addColumn<QString>("plan");
    QTest::addColumn<int>("deployments");
    QTest::addColumn<int>("perDay");
    QTest::addColumn<int>("stored");
    QTest::addColumn<int>("counters");
    QTest::newRow("agent") << u"agent"_s << 5 << 50 << 200 << 10;
    QTest::newRow("free") << u"free"_s << 5 << 250 << 500 << 50;
    QTest::newRow("pro") << u"pro"_s << 50 << 1000 << 10000 << 100;
}

void TestLimits::defaults()
{
    QFETCH(QString, plan);
    QFETCH(int, deployments);
    QFETCH(int, perDay);
    QFETCH(int, stored);
    QFETCH(int, counters);
    const PlanLimits limits = PlanTable().limits(plan);
    QCOMPARE(limits.deployments, deployments);
    QCOMPARE(limits.submissionsPerDay, perDay);
    QCOMPARE(limits.submissionsStored, stored);
    QCOMPARE(limits.countersPerDeployment, counters);
}

void TestLimits::plans()
{
    QCOMPARE(PlanTable::plans(), (QStringList {u"agent"_s, u"free"_s, u"pro"_s}));
    QVERIFY(PlanTable::isPlan(u"pro"_s));
    QVERIFY(!PlanTable::isPlan(u"Pro"_s));
    QVERIFY(!PlanTable::isPlan(u"enterprise"_s));
    QVERIFY(!PlanTable::isPlan(QString()));
}

void TestLimits::unknownPlanGetsFree()
{
    PlanTable table;
    table.setLimits(u"free"_s, {7, 8, 9, 10});
    QCOMPARE(table.limits(u"enterprise"_s), (PlanLimits {7, 8, 9, 10}));
    QCOMPARE(table.limits(QString()), (PlanLimits {7, 8, 9, 10}));
}

void TestLimits::setLimits()
{
    PlanTable table;
    table.setLimits(u"pro"_s, {100, 2000, 20000, 200});
    QCOMPARE(table.limits(u"pro"_s), (PlanLimits {100, 2000, 20000, 200}));
    QCOMPARE(table.limits(u"agent"_s), (PlanLimits {5, 50, 200, 10})); // others untouched
    table.setLimits(u"gold"_s, {1, 1, 1, 1});
    QCOMPARE(table.limits(u"gold"_s), (PlanLimits {5, 250, 500, 50})); // ignored: still free's
}

void TestLimits::jsonRoundTrip()
{
    PlanTable table;
    table.setLimits(u"agent"_s, {0, 1, 2, 3});
    table.setLimits(u"pro"_s, {500, 100000, 1000000, 1000});
    const QJsonObject json = QJsonDocument::fromJson(QJsonDocument(table.toJson()).toJson()).object();
    const std::optional<PlanTable> restored = PlanTable::fromJson(json);
    QVERIFY(restored);
    for (const QString &plan : PlanTable::plans())
        QCOMPARE(restored->limits(plan), table.limits(plan));
}

void TestLimits::jsonShape()
{
    const QJsonObject json = PlanTable().toJson();
    QCOMPARE(json.keys(), (QStringList {u"agent"_s, u"free"_s, u"pro"_s}));
    const QJsonObject free = json.value("free"_L1).toObject();
    QCOMPARE(free.value("deployments"_L1).toInt(), 5);
    QCOMPARE(free.value("submissions_per_day"_L1).toInt(), 250);
    QCOMPARE(free.value("submissions_stored"_L1).toInt(), 500);
    QCOMPARE(free.value("counters_per_deployment"_L1).toInt(), 50);
    QCOMPARE(free.size(), 4);
}

void TestLimits::fromJsonPartial()
{
    const auto json = QJsonDocument::fromJson(R"({"pro": {"deployments": 75}})"_ba).object();
    const std::optional<PlanTable> table = PlanTable::fromJson(json);
    QVERIFY(table);
    QCOMPARE(table->limits(u"pro"_s), (PlanLimits {75, 1000, 10000, 100}));
    QCOMPARE(table->limits(u"free"_s), PlanTable().limits(u"free"_s));
    QVERIFY(PlanTable::fromJson(QJsonObject()));
}

void TestLimits::fromJsonRejects_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::newRow("unknown plan") << R"({"gold": {"deployments": 1}})"_ba;
    QTest::newRow("plan not an object") << R"({"free": 5})"_ba;
    QTest::newRow("unknown field") << R"({"free": {"deploymnets": 1}})"_ba;
    QTest::newRow("string value") << R"({"free": {"deployments": "5"}})"_ba;
    QTest::newRow("fraction") << R"({"free": {"deployments": 5.5}})"_ba;
    QTest::newRow("negative") << R"({"free": {"deployments": -1}})"_ba;
    QTest::newRow("too big") << R"({"free": {"deployments": 3000000000}})"_ba;
    QTest::newRow("null") << R"({"free": {"deployments": null}})"_ba;
}

void TestLimits::fromJsonRejects()
{
    QFETCH(QByteArray, json);
    QVERIFY(!PlanTable::fromJson(QJsonDocument::fromJson(json).object()));
}

QTEST_APPLESS_MAIN(TestLimits)
#include "tst_limits.moc"
