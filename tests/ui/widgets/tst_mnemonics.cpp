// Mnemonics in every window the dashboard opens: a label's "&" underlines the key that moves to its field, so a
// label with a mnemonic has a buddy; without one, Qt shows the "&" as it is ("HTTPS ce&rtificate:"). Each window is
// opened as a person would and walked tab by tab.
#include "ui/accounts/firstkeydialog.h"
#include "ui/publishing/publishdialog.h"
#include "ui/settings/settingsdialog.h"
#include "ui/sitelist/deploymentactions.h"
#include "ui/widgets/translations.h"
#include "uitestsupport.h"

#include <QAction>
#include <QTabWidget>

using namespace Qt::StringLiterals;
using namespace berth;
using berth::test::Dashboard;

class TestMnemonics : public QObject
{
    Q_OBJECT

private:
    Translations m_translations;
    std::unique_ptr<Dashboard> m_dashboard;
    std::unique_ptr<QTemporaryDir> m_files;

    MainWindow &window() { return m_dashboard->window(); }

    // The newest visible dialog under the main window.
    QDialog *newestDialog()
    {
        const auto dialogs = window().findChildren<QDialog *>();
        for (auto it = dialogs.crbegin(); it != dialogs.crend(); ++it) {
            if ((*it)->isVisible())
                return *it;
        }
        return nullptr;
    }
    // What the dialog shows with a literal "&", on every one of its tabs.
    static QStringList literalMnemonics(QDialog *dialog)
    {
        QStringList found = berth::test::literalMnemonics(dialog);
        const auto tabWidgets = dialog->findChildren<QTabWidget *>();
        for (QTabWidget *tabs : tabWidgets) {
            for (int i = 0; i < tabs->count(); ++i) {
                tabs->setCurrentIndex(i);
                found += berth::test::literalMnemonics(dialog);
            }
        }
        found.removeDuplicates();
        return found;
    }
    void trigger(const QString &actionName)
    {
        auto *action = window().findChild<QAction *>(actionName);
        QVERIFY2(action, qPrintable(actionName));
        QVERIFY2(action->isEnabled(), qPrintable(actionName));
        action->trigger();
    }

private Q_SLOTS:
    void initTestCase() { m_translations.install(QLocale(QLocale::English, QLocale::UnitedStates)); }
    void init()
    {
        m_dashboard = std::make_unique<Dashboard>();
        QVERIFY(m_dashboard->start());
        m_files = std::make_unique<QTemporaryDir>();
        const QString id = m_dashboard->deploy(u"label-site"_s, {{u"index.html"_s, "labels"}});
        QVERIFY(!id.isEmpty());
        m_dashboard->select(id);
    }
    void cleanup()
    {
        m_dashboard.reset();
        m_files.reset();
    }

    void everyLabelWithAMnemonicHasABuddy_data()
    {
        QTest::addColumn<QString>("action");
        for (const char *action : {"settingsAction", "keysAction", "accountsAction", "renameAction",
                 "editDetailsAction", "protectionAction", "historyAction", "submissionsAction", "countersAction"})
            QTest::newRow(action) << QString::fromLatin1(action);
    }
    void everyLabelWithAMnemonicHasABuddy()
    {
        QFETCH(QString, action);
        trigger(action);
        QDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = newestDialog()));
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        const QStringList found = literalMnemonics(dialog);
        QVERIFY2(found.isEmpty(), qPrintable(found.join(u"; "_s)));
    }

    void thePublishSheetAndTheFirstKeyToo()
    {
        const QString folder = m_files->filePath(u"mnemonic-folder"_s);
        QVERIFY(berth::test::writeTree(folder, {{u"index.html"_s, "x"}}));
        berth::test::dropPaths(&window(), QPoint(200, 200), {folder});
        PublishDialog *sheet = nullptr;
        QTRY_VERIFY((sheet = berth::test::openDialog<PublishDialog>(&window())));
        QTRY_COMPARE(sheet->stage(), PublishDialog::Stage::Ready);
        QStringList found = literalMnemonics(sheet);
        sheet->reject();
        QDialog *firstKey = window().showFirstKey(u"bk_mnemonics"_s);
        QVERIFY(QTest::qWaitForWindowExposed(firstKey));
        found += literalMnemonics(firstKey);
        QVERIFY2(found.isEmpty(), qPrintable(found.join(u"; "_s)));
    }

    void settingsBeforeStartingToo()
    {
        // As start-up shows it when Berth cannot start: the server's part only.
        DashboardContext context {
            m_dashboard->engine(), m_dashboard->owner(), m_dashboard->settings(), window().prompter()};
        SettingsDialog dialog(context, &window(), SettingsDialog::Scope::ServerOnly);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        const QStringList found = literalMnemonics(&dialog);
        QVERIFY2(found.isEmpty(), qPrintable(found.join(u"; "_s)));
    }
};

QTEST_MAIN(TestMnemonics)
#include "tst_mnemonics.moc"
