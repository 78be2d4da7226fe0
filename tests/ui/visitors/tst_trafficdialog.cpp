// A site's Traffic window over a real engine: page views sent over real HTTP from several loopback addresses show
// as totals, the chart's days, top pages, referrers and 404s, live while the window is open; the span chosen
// changes the days; the window goes with its site.
#include "domain/common/clock.h"
#include "domain/deploy/deploymentservice.h"
#include "sourceclient.h"
#include "ui/sitelist/deploymentactions.h"
#include "ui/sitelist/deploymenttablemodel.h"
#include "ui/visitors/trafficchart.h"
#include "ui/visitors/trafficdialog.h"
#include "ui/widgets/translations.h"
#include "uitestsupport.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QLineSeries>
#include <QTreeWidget>

using namespace Qt::StringLiterals;
using namespace berth;
using berth::test::child;
using berth::test::Dashboard;
using berth::test::SourceClient;

namespace {
const QDateTime kStart(QDate(2026, 11, 21), QTime(9, 0), Qt::UTC);
const QByteArray kFirefox = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
} // namespace

class TestTrafficDialog : public QObject
{
    Q_OBJECT

private:
    Translations m_translations;
    ManualClock m_clock {kStart};
    std::unique_ptr<Dashboard> m_dashboard;
    QString m_id;
    const QString m_slug = u"harbour-news"_s;

    MainWindow &window() { return m_dashboard->window(); }
    int visit(int lastOctet, const QString &path, const QByteArray &referrer = {})
    {
        QList<QPair<QByteArray, QByteArray>> headers {{"User-Agent", kFirefox}};
        if (!referrer.isEmpty())
            headers.append({"Referer", referrer});
        SourceClient client(m_dashboard->engine().port(), QHostAddress(u"127.0.0.%1"_s.arg(lastOctet)));
        return client.site("GET", m_slug, path, {}, headers).status;
    }
    TrafficDialog *open()
    {
        m_dashboard->select(m_id);
        window().actions().trafficAction->trigger();
        TrafficDialog *dialog = nullptr;
        if (!QTest::qWaitFor([&] { return (dialog = berth::test::openDialog<TrafficDialog>(&window())); }, 5000))
            return nullptr;
        return dialog;
    }
    static QStringList rows(QTreeWidget *tree)
    {
        QStringList lines;
        for (int i = 0; i < tree->topLevelItemCount(); ++i)
            lines.append(tree->topLevelItem(i)->text(0) + u' ' + tree->topLevelItem(i)->text(1));
        return lines;
    }

private Q_SLOTS:
    void initTestCase() { m_translations.install(QLocale(QLocale::English, QLocale::UnitedStates)); }
    void init()
    {
        m_clock.set(kStart);
        m_dashboard = std::make_unique<Dashboard>();
        EngineSettings settings;
        settings.clock = &m_clock;
        QVERIFY(m_dashboard->start(settings));
        m_id = m_dashboard->deploy(m_slug, {{u"index.html"_s, "<p>home</p>"}, {u"boats.html"_s, "<p>boats</p>"}});
        QVERIFY(!m_id.isEmpty());
        QTRY_COMPARE(window().model().rowCount(), 1);
    }
    void cleanup() { m_dashboard.reset(); }

    void showsTheCountsOfRealVisitsLive()
    {
        TrafficDialog *dialog = open();
        QVERIFY(dialog);
        QVERIFY(!dialog->isModal()); // the dashboard stays usable beside it
        QCOMPARE(dialog->windowTitle(), u"harbour-news – Traffic"_s);
        auto *views = child<QLabel>(dialog, u"viewsTotalLabel"_s);
        QCOMPARE(views->text(), u"0"_s);

        QCOMPARE(visit(2, u"/"_s, "https://news.example.org/item?id=1"), 200);
        QCOMPARE(visit(2, u"/boats.html"_s), 200);
        QCOMPARE(visit(3, u"/"_s, "https://news.example.org/other"), 200);
        QCOMPARE(visit(3, u"/missing"_s), 404);
        QCOMPARE(visit(4, u"/"_s, "https://forum.example.net/t/9"), 200);
        m_dashboard->engine().flushAnalytics(); // as the engine does every second
        // No refresh asked for: the open window reads the report again by itself.
        QTRY_COMPARE(views->text(), u"4"_s);
        QCOMPARE(child<QLabel>(dialog, u"visitorsTotalLabel"_s)->text(), u"3"_s);
        QCOMPARE(child<QLabel>(dialog, u"notFoundTotalLabel"_s)->text(), u"1"_s);
        QVERIFY(child<QLabel>(dialog, u"bytesTotalLabel"_s)->text() != u"0 bytes"_s);
        QCOMPARE(rows(child<QTreeWidget>(dialog, u"topPagesList"_s)), (QStringList {u"/ 3"_s, u"/boats.html 1"_s}));
        QCOMPARE(rows(child<QTreeWidget>(dialog, u"referrersList"_s)),
            (QStringList {u"news.example.org 2"_s, u"forum.example.net 1"_s}));
        QCOMPARE(rows(child<QTreeWidget>(dialog, u"notFoundList"_s)), QStringList {u"/missing 1"_s});

        // The chart: the last 30 days, today's point last with today's views and visitors.
        const QLineSeries *viewsLine = dialog->chart()->viewsSeries();
        const QLineSeries *visitorsLine = dialog->chart()->visitorsSeries();
        QCOMPARE(viewsLine->count(), 30);
        QCOMPARE(viewsLine->at(29).y(), 4.0);
        QCOMPARE(visitorsLine->at(29).y(), 3.0);
        QCOMPARE(viewsLine->at(0).y(), 0.0);
        QCOMPARE(QDateTime::fromMSecsSinceEpoch(qint64(viewsLine->at(29).x()), Qt::UTC).date(), kStart.date());
    }

    void theSpanChosenChangesTheDays()
    {
        QCOMPARE(visit(2, u"/"_s), 200);
        m_clock.advance(qint64(24) * 3600 * 1000); // a day later, another view
        QCOMPARE(visit(2, u"/boats.html"_s), 200);
        m_dashboard->engine().flushAnalytics();
        TrafficDialog *dialog = open();
        QVERIFY(dialog);
        auto *span = child<QComboBox>(dialog, u"spanComboBox"_s);
        span->setCurrentIndex(span->findData(7));
        const QLineSeries *viewsLine = dialog->chart()->viewsSeries();
        QCOMPARE(viewsLine->count(), 7);
        QCOMPARE(viewsLine->at(5).y(), 1.0); // yesterday
        QCOMPARE(viewsLine->at(6).y(), 1.0); // today
        QCOMPARE(child<QLabel>(dialog, u"viewsTotalLabel"_s)->text(), u"2"_s);
    }

    void opensOncePerSiteAndClosesWithIt()
    {
        TrafficDialog *dialog = open();
        QVERIFY(dialog);
        QCOMPARE(window().actions().showTraffic(m_id), dialog); // raised, not a second window
        QPointer<TrafficDialog> watched(dialog);
        QVERIFY(m_dashboard->engine().deployments().remove(m_dashboard->owner(), m_id));
        QTRY_VERIFY(!watched || !watched->isVisible());
    }
};

QTEST_MAIN(TestTrafficDialog)
#include "tst_trafficdialog.moc"
