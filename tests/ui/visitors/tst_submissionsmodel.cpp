// The submissions and counters models against a real engine: pages newest first with a column per
// field, live arrivals and deletions made through the services (as visitors and the API make them),
// under QAbstractItemModelTester's contract.
#include "domain/accounts/accountservice.h"
#include "domain/common/clock.h"
#include "domain/deploy/deploymentservice.h"
#include "domain/visitors/counterservice.h"
#include "domain/visitors/submissionservice.h"
#include "enginefixture.h"
#include "ui/visitors/countersmodel.h"
#include "ui/visitors/submissionsmodel.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>
#include <Qt>

using namespace Qt::StringLiterals;
using namespace berth;

namespace {
const QDateTime kStart(QDate(2026, 3, 2), QTime(9, 0), Qt::UTC);
constexpr int kPageSize = 3;
} // namespace

class TestSubmissionsModel : public QObject
{
    Q_OBJECT

private:
    ManualClock m_clock {kStart};
    std::unique_ptr<test::EngineFixture> m_fixture;
    User m_owner;
    Deployment m_site;
    Deployment m_other;

    Engine &engine() { return m_fixture->engine(); }
    Deployment create(const QString &slug)
    {
        DeployRequest request;
        request.slug = slug;
        request.html = u"<h1>form</h1>"_s;
        const auto future = engine().deployments().create(m_owner, request);
        if (!QTest::qWaitFor([&] { return future.isFinished(); }, 10'000) || !future.result())
            return {};
        return future.result().value();
    }
    // Submission number n of the site, a minute after the one before.
    QString receive(const Deployment &site, const QJsonObject &data)
    {
        m_clock.advance(60'000);
        const auto stored = engine().submissions().receive(site, data);
        return stored ? stored.value().id : QString();
    }
    QStringList receiveNumbered(int count)
    {
        QStringList ids;
        for (int n = 1; n <= count; ++n)
            ids.prepend(receive(m_site, {{u"n"_s, QString::number(n)}}));
        return ids; // newest first
    }
    static QStringList column(const QAbstractItemModel &model, int column, int role = Qt::DisplayRole)
    {
        QStringList values;
        for (int row = 0; row < model.rowCount(); ++row)
            values.append(model.index(row, column).data(role).toString());
        return values;
    }
    static QStringList headers(const QAbstractItemModel &model)
    {
        QStringList values;
        for (int section = 0; section < model.columnCount(); ++section)
            values.append(model.headerData(section, Qt::Horizontal).toString());
        return values;
    }

private Q_SLOTS:
    void init()
    {
        m_clock.set(kStart);
        m_fixture = std::make_unique<test::EngineFixture>();
        EngineSettings settings;
        settings.clock = &m_clock;
        QVERIFY(m_fixture->start(settings));
        m_owner = engine().accounts().ensureOwner().value().owner;
        m_site = create(u"contact-page"_s);
        m_other = create(u"other-page"_s);
        QVERIFY(!m_site.id.isEmpty() && !m_other.id.isEmpty());
    }
    void cleanup() { m_fixture.reset(); }

    void emptyDeploymentHasOnlyTheReceivedColumn()
    {
        SubmissionsModel model(engine().submissions(), m_owner, m_site.id, kPageSize);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(headers(model), QStringList {u"Received"_s});
        QCOMPARE(model.total(), 0);
        QVERIFY(!model.hasNextPage() && !model.hasPreviousPage());
        QVERIFY(model.errorString().isEmpty());
    }

    void newestFirstWithAColumnPerField()
    {
        receive(m_site, {{u"email"_s, u"ana@example.com"_s}, {u"message"_s, u"Hello"_s}});
        receive(m_site, {{u"email"_s, u"bo@example.com"_s}, {u"topic"_s, u"billing"_s}});
        SubmissionsModel model(engine().submissions(), m_owner, m_site.id, kPageSize);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 2);
        // Fields in order of first appearance, newest submission first.
        QCOMPARE(headers(model), (QStringList {u"Received"_s, u"email"_s, u"topic"_s, u"message"_s}));
        QCOMPARE(column(model, 1), (QStringList {u"bo@example.com"_s, u"ana@example.com"_s}));
        QCOMPARE(column(model, 2), (QStringList {u"billing"_s, QString()}));
        QCOMPARE(column(model, 3), (QStringList {QString(), u"Hello"_s}));
        QCOMPARE(model.index(0, 0).data(SubmissionsModel::FieldRole).toString(), QString());
        QCOMPARE(model.index(0, 2).data(SubmissionsModel::FieldRole).toString(), u"topic"_s);
        QVERIFY(model.index(0, 0).data(SubmissionsModel::IdRole).toString().startsWith(u"sub_"_s));
        QCOMPARE(model.submission(1).createdAt, kStart.addSecs(60));
    }

    void pagesFollowTheEnginesCursors()
    {
        const QStringList ids = receiveNumbered(7);
        SubmissionsModel model(engine().submissions(), m_owner, m_site.id, kPageSize);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(column(model, 1), (QStringList {u"7"_s, u"6"_s, u"5"_s}));
        QCOMPARE(model.total(), 7);
        QCOMPARE(model.offset(), 0);
        QCOMPARE(model.pageNumber(), 1);
        QVERIFY(model.hasNextPage() && !model.hasPreviousPage());

        QSignalSpy pageChanged(&model, &SubmissionsModel::pageChanged);
        QVERIFY(model.nextPage());
        QCOMPARE(pageChanged.size(), 1);
        QCOMPARE(column(model, 1), (QStringList {u"4"_s, u"3"_s, u"2"_s}));
        QCOMPARE(model.offset(), 3);
        QVERIFY(model.nextPage());
        QCOMPARE(column(model, 1), QStringList {u"1"_s});
        QCOMPARE(column(model, 0, SubmissionsModel::IdRole), QStringList {ids.constLast()});
        QCOMPARE(model.offset(), 6);
        QVERIFY(!model.hasNextPage() && model.hasPreviousPage());
        QVERIFY(!model.nextPage());
        QVERIFY(model.previousPage());
        QCOMPARE(column(model, 1), (QStringList {u"4"_s, u"3"_s, u"2"_s}));
        QVERIFY(model.firstPage());
        QCOMPARE(column(model, 1), (QStringList {u"7"_s, u"6"_s, u"5"_s}));
        QVERIFY(!model.previousPage());
    }

    void arrivalsSlideInAtTheTopOfTheFirstPage()
    {
        receiveNumbered(3);
        SubmissionsModel model(engine().submissions(), m_owner, m_site.id, kPageSize);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy columns(&model, &QAbstractItemModel::columnsInserted);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        receive(m_site, {{u"n"_s, u"4"_s}, {u"phone"_s, u"555"_s}});
        QCOMPARE(inserted.size(), 1);
        QCOMPARE(columns.size(), 1); // a field not seen before gets its column
        QCOMPARE(reset.size(), 0); // the selection and scroll position stay
        QCOMPARE(column(model, 1), (QStringList {u"4"_s, u"3"_s, u"2"_s})); // still one page
        QCOMPARE(headers(model), (QStringList {u"Received"_s, u"n"_s, u"phone"_s}));
        QCOMPARE(model.index(0, 2).data().toString(), u"555"_s);
        QCOMPARE(model.total(), 4);
        QVERIFY(model.hasNextPage());

        receive(m_other, {{u"n"_s, u"elsewhere"_s}}); // another site's form changes nothing here
        QCOMPARE(inserted.size(), 1);
        QCOMPARE(model.total(), 4);
    }

    void laterPagesStayPutWhileVisitorsPost()
    {
        receiveNumbered(5);
        SubmissionsModel model(engine().submissions(), m_owner, m_site.id, kPageSize);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(model.nextPage());
        QCOMPARE(column(model, 1), (QStringList {u"2"_s, u"1"_s}));
        receive(m_site, {{u"n"_s, u"6"_s}});
        QCOMPARE(column(model, 1), (QStringList {u"2"_s, u"1"_s}));
        QCOMPARE(model.total(), 6);
        QCOMPARE(model.offset(), 4); // one more newer submission before this page
        QVERIFY(model.previousPage());
        QCOMPARE(column(model, 1), (QStringList {u"6"_s, u"5"_s, u"4"_s}));
    }

    void deletedRowsLeaveAndTheNextOlderMovesUp()
    {
        const QStringList ids = receiveNumbered(5);
        SubmissionsModel model(engine().submissions(), m_owner, m_site.id, kPageSize);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(engine().submissions().remove(m_owner, m_site.id, ids.at(1))); // "4"
        QCOMPARE(column(model, 1), (QStringList {u"5"_s, u"3"_s, u"2"_s}));
        QCOMPARE(model.total(), 4);
        QVERIFY(model.hasNextPage());

        QVERIFY(model.nextPage());
        QCOMPARE(column(model, 1), QStringList {u"1"_s});
        QVERIFY(engine().submissions().remove(m_owner, m_site.id, ids.constLast()));
        // The emptied last page gives way to the one before it.
        QCOMPARE(model.pageNumber(), 1);
        QCOMPARE(column(model, 1), (QStringList {u"5"_s, u"3"_s, u"2"_s}));
        QVERIFY(!model.hasNextPage());
        QCOMPARE(model.total(), 3);
    }

    void onlyTheOwnerSeesSubmissions()
    {
        receiveNumbered(1);
        const User stranger = engine().accounts().ensureUser(u"stranger@example.com"_s, u"free"_s).value();
        SubmissionsModel model(engine().submissions(), stranger, m_site.id, kPageSize);
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(!model.errorString().isEmpty());
    }

    void cellsReadInOneLine()
    {
        QCOMPARE(SubmissionsModel::cellText(u"line one\r\nline two"_s), u"line one ⏎ line two"_s);
        QCOMPARE(SubmissionsModel::fullText(u"line one\nline two"_s), u"line one\nline two"_s);
        QCOMPARE(SubmissionsModel::cellText(QJsonArray {u"red"_s, u"blue"_s}), u"red, blue"_s);
        QCOMPARE(SubmissionsModel::cellText(42), u"42"_s);
        QCOMPARE(SubmissionsModel::cellText(true), u"true"_s);
        QCOMPARE(SubmissionsModel::cellText(QJsonValue::Null), QString());
        QCOMPARE(SubmissionsModel::cellText(QJsonObject {{u"a"_s, 1}}), u"{\"a\":1}"_s);
    }

    void countersFollowIncrementsAndResets()
    {
        CountersModel model(engine().counters(), m_owner, m_site.id);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        CounterService &counters = engine().counters();
        QVERIFY(counters.increment(m_site, u"visits"_s));
        m_clock.advance(90'000);
        QVERIFY(counters.increment(m_site, u"likes"_s));
        QCOMPARE(column(model, CountersModel::NameColumn), (QStringList {u"likes"_s, u"visits"_s})); // by name

        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        m_clock.advance(60'000);
        QVERIFY(counters.increment(m_site, u"visits"_s));
        QCOMPARE(changed.size(), 1);
        const int visits = model.rowOf(u"visits"_s);
        QCOMPARE(model.index(visits, CountersModel::ValueColumn).data(CountersModel::ValueRole).toLongLong(), 2);
        QCOMPARE(model.index(visits, CountersModel::ValueColumn).data().toString(), u"2"_s);
        QCOMPARE(model.counter(visits).updatedAt, kStart.addSecs(150));
        QCOMPARE(model.counter(visits).createdAt, kStart);
        QCOMPARE(model.headerData(CountersModel::UpdatedColumn, Qt::Horizontal).toString(), u"Last update"_s);

        QVERIFY(counters.increment(m_other, u"visits"_s)); // another site's counter of the same name
        QCOMPARE(changed.size(), 1);
        QVERIFY(counters.remove(m_owner, m_site.id, u"visits"_s));
        QCOMPARE(column(model, CountersModel::NameColumn), QStringList {u"likes"_s});
        QCOMPARE(counters.value(m_site, u"visits"_s).value(), 0);
    }
};

QTEST_GUILESS_MAIN(TestSubmissionsModel)
#include "tst_submissionsmodel.moc"
