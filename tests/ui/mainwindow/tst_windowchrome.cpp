// The main window's fixed parts: the toolbar keeps every button in its place whatever the site, the header's API
// link reads on the dark palette, and the site shortcuts work wherever the focus is in the window.
#include "ui/mainwindow/shortcutsdialog.h"
#include "ui/settings/settingsdialog.h"
#include "ui/sitelist/deploymentactions.h"
#include "ui/sitelist/deploymenttablemodel.h"
#include "ui/sitelist/deploymenttableview.h"
#include "ui/sitelist/historydialog.h"
#include "ui/widgets/translations.h"
#include "uitestsupport.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QPushButton>
#include <QToolBar>
#include <QToolButton>
#include <QTreeWidget>
#include <cmath>

using namespace Qt::StringLiterals;
using namespace berth;
using berth::test::child;
using berth::test::Dashboard;
using berth::test::openDialog;

namespace {

// WCAG 2 relative luminance and contrast ratio.
double luminance(const QColor &color)
{
    const auto channel
        = [](double value) { return value <= 0.03928 ? value / 12.92 : std::pow((value + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel(color.redF()) + 0.7152 * channel(color.greenF()) + 0.0722 * channel(color.blueF());
}

double contrast(const QColor &a, const QColor &b)
{
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

} // namespace

class TestWindowChrome : public QObject
{
    Q_OBJECT

private:
    Translations m_translations;
    std::unique_ptr<Dashboard> m_dashboard;

    MainWindow &window() { return m_dashboard->window(); }

    struct ToolbarState
    {
        QList<QAction *> shown;
        QList<QRect> places;
        bool operator==(const ToolbarState &other) const { return shown == other.shown && places == other.places; }
    };
    static ToolbarState toolbarState(QToolBar *toolbar)
    {
        QApplication::processEvents(); // the toolbar lays out again from the event loop
        ToolbarState state;
        const auto actions = toolbar->actions();
        for (QAction *action : actions) {
            if (!action->isVisible())
                continue;
            state.shown.append(action);
            if (QWidget *widget = toolbar->widgetForAction(action))
                state.places.append(widget->isVisible() ? widget->geometry() : QRect());
        }
        return state;
    }

    // Ctrl+H sent to widget, as the keyboard would while it has the focus: the History window opens.
    bool historyOpensFrom(QWidget *widget)
    {
        if (!berth::test::waitUntilActive(&window()))
            return false;
        widget->setFocus();
        if (!QTest::qWaitFor([widget] { return widget->hasFocus(); }, 2000))
            return false;
        QTest::keyClick(widget, Qt::Key_H, Qt::ControlModifier);
        HistoryDialog *dialog = nullptr;
        if (!QTest::qWaitFor([&] { return (dialog = openDialog<HistoryDialog>(&window())); }, 2000))
            return false;
        dialog->reject();
        return QTest::qWaitFor([&] { return !openDialog<HistoryDialog>(&window()); }, 2000);
    }

private Q_SLOTS:
    void initTestCase() { m_translations.install(QLocale(QLocale::English, QLocale::UnitedStates)); }
    void init()
    {
        m_dashboard = std::make_unique<Dashboard>();
        QVERIFY(m_dashboard->start());
    }
    void cleanup() { m_dashboard.reset(); }

    void theToolbarKeepsEveryButtonInPlace()
    {
        const QString id = m_dashboard->deploy(u"steady-toolbar"_s, {{u"index.html"_s, "steady"}});
        QTRY_COMPARE(window().model().rowCount(), 1);
        m_dashboard->select(id);
        auto *toolbar = child<QToolBar>(&window(), u"mainToolBar"_s);
        QVERIFY(toolbar);
        DeploymentActions &actions = window().actions();
        const ToolbarState before = toolbarState(toolbar);
        QVERIFY(before.shown.contains(actions.privateAction));
        auto *share = child<QToolButton>(toolbar, u"copyShareLinkToolButton"_s);
        QVERIFY(share);
        QVERIFY(share->isVisible());
        QVERIFY(!share->isEnabled()); // a public site has no share link: there, but greyed out

        actions.privateAction->trigger();
        QTRY_VERIFY(window().model().deployment(id)->isProtected);
        QTRY_VERIFY(share->isEnabled());
        const ToolbarState after = toolbarState(toolbar);
        QCOMPARE(after.shown, before.shown);
        QCOMPARE(after.places, before.places);
    }

    void theApiLinkReadsOnTheDarkHeader()
    {
        // Dark chosen in Settings while the dashboard runs, as a person would.
        window().findChild<QAction *>(u"settingsAction"_s)->trigger();
        SettingsDialog *settings = nullptr;
        QTRY_VERIFY((settings = openDialog<SettingsDialog>(&window())));
        auto *appearance = child<QComboBox>(settings, u"appearanceComboBox"_s);
        appearance->setCurrentIndex(appearance->findData(u"dark"_s));
        QTest::mouseClick(child<QPushButton>(settings, u"saveButton"_s), Qt::LeftButton);
        QTRY_VERIFY(!openDialog<SettingsDialog>(&window()));

        auto *header = child<QWidget>(&window(), u"headerWidget"_s);
        auto *serving = child<QLabel>(header, u"servingLabel"_s);
        QTRY_VERIFY(luminance(header->palette().color(header->backgroundRole())) < 0.1);
        const QColor background = header->palette().color(header->backgroundRole());
        // The link's own pixels: the bluest of the label (the rest is grey text on grey).
        const auto linkContrast = [&] {
            const QImage image = serving->grab().toImage();
            double best = 0;
            for (int y = 0; y < image.height(); ++y) {
                for (int x = 0; x < image.width(); ++x) {
                    const QColor pixel = image.pixelColor(x, y);
                    if (pixel.blue() - pixel.red() > 40)
                        best = std::max(best, contrast(pixel, background));
                }
            }
            return best;
        };
        QTRY_VERIFY2(linkContrast() >= 4.5, qPrintable(u"the link's contrast is %1:1"_s.arg(linkContrast())));
        QVERIFY(contrast(serving->palette().color(QPalette::Link), background) >= 4.5);
    }

    void historyOpensWithCtrlHWhereverTheFocusIs()
    {
        const QString id = m_dashboard->deploy(u"keyed-history"_s, {{u"index.html"_s, "keys"}});
        QTRY_COMPARE(window().model().rowCount(), 1);
        m_dashboard->select(id);
        QVERIFY(window().actions().historyAction->isEnabled());
        QVERIFY2(historyOpensFrom(child<QLineEdit>(&window(), u"filterLineEdit"_s)), "from the search field");
        QVERIFY2(historyOpensFrom(window().tableView()), "from the table");
        // The shortcut belongs to the window, not to the menu bar: it works with the menu bar out of sight too.
        window().menuBar()->hide();
        QVERIFY2(historyOpensFrom(window().tableView()), "without the menu bar");
    }

    void helpListsEveryShortcutOfTheWindow()
    {
        window().findChild<QAction *>(u"shortcutsAction"_s)->trigger();
        auto *dialog = openDialog<ShortcutsDialog>(&window());
        QVERIFY(dialog);
        auto *list = child<QTreeWidget>(dialog, u"shortcutsList"_s);
        QHash<QString, QString> listed;
        for (int i = 0; i < list->topLevelItemCount(); ++i)
            listed.insert(list->topLevelItem(i)->text(0), list->topLevelItem(i)->text(1));
        // Every action of the window with a shortcut is there, with that shortcut, by the name its menu shows.
        int withShortcut = 0;
        for (const QAction *action : window().findChildren<QAction *>()) {
            if (action->shortcut().isEmpty() || action->text().isEmpty())
                continue;
            ++withShortcut;
            const QString name = QString(action->text()).remove(u'&');
            QVERIFY2(listed.contains(name), qPrintable(name));
            QCOMPARE(listed.value(name), action->shortcut().toString(QKeySequence::NativeText));
        }
        QVERIFY(withShortcut >= 5);
        QCOMPARE(listed.value(u"History…"_s), u"Ctrl+H"_s);
        dialog->close();
    }
};

QTEST_MAIN(TestWindowChrome)
#include "tst_windowchrome.moc"
