// Columns that must be read whole: the site list's Slug and Address in a 1280-pixel window whose Title is long,
// History's Published and the API keys' Created. Each is at least as wide as its text and the cell's margins.
#include "domain/accounts/accountservice.h"
#include "domain/common/mimetypes.h"
#include "domain/deploy/deploymentservice.h"
#include "domain/deploy/versionhistory.h"
#include "ui/accounts/keysdialog.h"
#include "ui/sitelist/deploymentactions.h"
#include "ui/sitelist/deploymenttablemodel.h"
#include "ui/sitelist/deploymenttableview.h"
#include "ui/sitelist/historydialog.h"
#include "uitestsupport.h"

#include <QAction>
#include <QHeaderView>
#include <QLocale>
#include <QStyle>
#include <QTreeWidget>

using namespace Qt::StringLiterals;
using namespace berth;
using berth::test::Dashboard;
using berth::test::openDialog;

class TestColumns : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<Dashboard> m_dashboard;

    MainWindow &window() { return m_dashboard->window(); }

    // What a cell needs to show text whole: the text and the item view's margin on either side.
    static int needed(QAbstractItemView *view, const QString &text)
    {
        const int margin = view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 1;
        return view->fontMetrics().horizontalAdvance(text) + 2 * margin;
    }
    static QString tooNarrow(QHeaderView *header, int column, QAbstractItemView *view, const QString &text)
    {
        if (header->sectionSize(column) >= needed(view, text))
            return {};
        return u"column %1 is %2 px for “%3”, which needs %4 px"_s.arg(column)
            .arg(header->sectionSize(column))
            .arg(text)
            .arg(needed(view, text));
    }

private Q_SLOTS:
    void init()
    {
        m_dashboard = std::make_unique<Dashboard>();
        QVERIFY(m_dashboard->start());
    }
    void cleanup() { m_dashboard.reset(); }

    void slugAndAddressAreWholeInAWideWindow()
    {
        const QString slug = u"harbour-lights-festival-2026ab"_s;
        QCOMPARE(slug.size(), 30);
        QVERIFY(!m_dashboard
                     ->deploy(slug,
                         {{u"index.html"_s,
                             "<title>A festival of lights along the harbour, every evening of June, with music, "
                             "food stalls and boats decorated by the people of the town</title>"}})
                     .isEmpty());
        window().resize(1280, 720);
        QTRY_COMPARE(window().width(), 1280);
        DeploymentTableView *table = window().tableView();
        QTRY_COMPARE(table->model()->rowCount(), 1);
        QHeaderView *header = table->horizontalHeader();
        for (const int column : {int(DeploymentTableModel::SlugColumn), int(DeploymentTableModel::UrlColumn)}) {
            const QString text = table->model()->index(0, column).data().toString();
            QTRY_VERIFY2(
                tooNarrow(header, column, table, text).isEmpty(), qPrintable(tooNarrow(header, column, table, text)));
        }
        // The title gives way, elided, and the table needs no sideways scrolling.
        QCOMPARE(table->textElideMode(), Qt::ElideRight);
        QVERIFY(header->length() <= table->viewport()->width());
    }

    void historysPublishedColumnIsWhole()
    {
        const QString id = m_dashboard->deploy(u"dated-site"_s, {{u"index.html"_s, "one"}});
        DeployRequest request;
        request.files = QList<FileUpload> {{u"index.html"_s, "two", MimeTypes::forPath(u"index.html"_s)}};
        const auto future = m_dashboard->engine().deployments().update(m_dashboard->owner(), id, request);
        QVERIFY(QTest::qWaitFor([&] { return future.isFinished(); }, 10'000) && future.result().ok());
        m_dashboard->select(id);
        window().actions().historyAction->trigger();
        HistoryDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = openDialog<HistoryDialog>(&window())));
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        auto *list = berth::test::child<QTreeWidget>(dialog, u"versionList"_s);
        QCOMPARE(list->topLevelItemCount(), 2);
        const QString published = list->topLevelItem(0)->text(1);
        const auto versions = m_dashboard->engine().history().versions(m_dashboard->owner(), id);
        QVERIFY(versions);
        QCOMPARE(
            published, QLocale().toString(versions.value().constFirst().createdAt.toLocalTime(), QLocale::ShortFormat));
        QTRY_VERIFY2(tooNarrow(list->header(), 1, list, published).isEmpty(),
            qPrintable(tooNarrow(list->header(), 1, list, published)));
    }

    void keysCreatedColumnIsWhole()
    {
        QVERIFY(m_dashboard->engine().accounts().createKey(m_dashboard->owner().id, u"deploy script"_s));
        window().findChild<QAction *>(u"keysAction"_s)->trigger();
        KeysDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = openDialog<KeysDialog>(&window())));
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        auto *keys = berth::test::child<QTreeWidget>(dialog, u"keysTreeWidget"_s);
        QVERIFY(keys->topLevelItemCount() >= 1);
        for (int row = 0; row < keys->topLevelItemCount(); ++row) {
            const QString created = keys->topLevelItem(row)->text(1);
            QVERIFY(!created.isEmpty());
            QTRY_VERIFY2(tooNarrow(keys->header(), 1, keys, created).isEmpty(),
                qPrintable(tooNarrow(keys->header(), 1, keys, created)));
        }
    }
};

QTEST_MAIN(TestColumns)
#include "tst_columns.moc"
