// Every window, sheet and dialog of the dashboard, opened as a person would open it, in English and German, on the
// light and the dark palette (and, registered a second time, at QT_SCALE_FACTOR=2), checked by LayoutCheck: no
// clipped text, no literal mnemonic, readable contrast, no oversized dialog, no overlapping widgets. A picture of
// each goes to $BERTH_LAYOUT_PICTURES (default: "pictures" in the build folder); with $BERTH_LAYOUT_DOCS set, only the
// documentation's pictures are written there instead (the `screenshots` target).
#include "dashboardsamples.h"
#include "domain/deploy/deploymentservice.h"
#include "instance/datadirlock.h"
#include "layoutcheck.h"
#include "ui/accounts/accountsdialog.h"
#include "ui/accounts/firstkeydialog.h"
#include "ui/accounts/keysdialog.h"
#include "ui/mainwindow/shortcutsdialog.h"
#include "ui/mainwindow/startup.h"
#include "ui/notifications/notificationsdialog.h"
#include "ui/publishing/publishdialog.h"
#include "ui/settings/settingsdialog.h"
#include "ui/sitelist/deploymentactions.h"
#include "ui/sitelist/deploymenttablemodel.h"
#include "ui/sitelist/editdetailsdialog.h"
#include "ui/sitelist/expirydialog.h"
#include "ui/sitelist/historydialog.h"
#include "ui/sitelist/protectiondialog.h"
#include "ui/sitelist/renamedialog.h"
#include "ui/sitelist/sharelinksdialog.h"
#include "ui/visitors/submissionsdialog.h"
#include "ui/visitors/trafficdialog.h"
#include "ui/widgets/translations.h"
#include "uitestsupport.h"
#include "windowlooker.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QCheckBox>
#include <QLineEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTcpServer>
#include <QTreeWidget>

using namespace Qt::StringLiterals;
using namespace berth;
using namespace berth::test;

namespace {

// The pictures docs/dashboard.md shows: English on the light palette at scale 1, and the main window on the dark one.
const QStringList kDocumentedLight {u"main-window"_s, u"publish-sheet"_s, u"publish-done-private"_s, u"history"_s,
    u"submissions"_s, u"traffic"_s, u"settings"_s, u"settings-general"_s, u"settings-certificates"_s, u"api-keys"_s,
    u"first-key"_s, u"startup-folder-in-use"_s};
const QStringList kDocumentedDark {u"main-window"_s};

void clickButton(QDialog *dialog, QMessageBox::StandardButton which)
{
    if (auto *box = qobject_cast<QMessageBox *>(dialog); box && box->button(which))
        box->button(which)->click();
    else
        dialog->reject();
}

} // namespace

class TestDialogLayout : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_temp;
    LayoutCheck m_check;
    DashboardSamples m_samples;

    static QString scale() { return qEnvironmentVariable("QT_SCALE_FACTOR", u"1"_s); }

    QDir picturesFor(const QString &variant) const
    {
        const QString docs = qEnvironmentVariable("BERTH_LAYOUT_DOCS");
        if (!docs.isEmpty())
            return QDir(variant.contains(u"-dark"_s) ? QDir(docs).filePath(u"dark"_s) : docs);
        const QString root = qEnvironmentVariable("BERTH_LAYOUT_PICTURES", QStringLiteral(BERTH_LAYOUT_PICTURES));
        return QDir(QDir(root).filePath(variant));
    }

    // The sheet for a new folder, ready; then published (private with a password, or public): its answer.
    void lookAtPublishing(Dashboard &dashboard, WindowLooker &looker, const QString &folderName, bool makePrivate)
    {
        const QString folder = m_temp.filePath(folderName);
        QVERIFY(writeTree(folder, {{u"index.html"_s, "<h1>Photos</h1>"}, {u".DS_Store"_s, QByteArray(600, 'x')}}));
        MainWindow &window = dashboard.window();
        window.actions().publish(folder);
        PublishDialog *sheet = nullptr;
        QVERIFY(QTest::qWaitFor([&] {
            sheet = openDialog<PublishDialog>(&window);
            return sheet && sheet->stage() == PublishDialog::Stage::Ready;
        }));
        if (makePrivate) {
            looker.look(sheet, u"publish-sheet"_s);
            sheet->findChild<QLineEdit *>(u"passwordLineEdit"_s)->setText(u"sitesecret1"_s);
            looker.look(sheet, u"publish-sheet-password"_s);
        }
        sheet->findChild<QAbstractButton *>(u"publishButton"_s)->click();
        QVERIFY(QTest::qWaitFor([&] { return sheet->stage() == PublishDialog::Stage::Done; }, 10'000));
        looker.look(sheet, makePrivate ? u"publish-done-private"_s : u"publish-done-public"_s);
        sheet->reject();
    }

    // A folder published before: the choice to update its site, whose sheet then replaces the content; a folder
    // with a file over the limit: the refusal; two folders at once: the warning.
    void lookAtPublishingAgain(Dashboard &dashboard, WindowLooker &looker)
    {
        MainWindow &window = dashboard.window();
        const QString folder = m_temp.filePath(u"holiday-photos"_s);
        const auto update = [](QDialog *box) {
            auto *message = qobject_cast<QMessageBox *>(box);
            if (message && message->defaultButton())
                message->defaultButton()->click(); // Update <slug>, offered first
            else
                box->reject();
        };
        looker.lookAtModals([&] { window.actions().publish(folder); }, {{u"confirm-update-or-new"_s, update}});
        PublishDialog *sheet = nullptr;
        QVERIFY(QTest::qWaitFor([&] {
            sheet = openDialog<PublishDialog>(&window);
            return sheet && sheet->stage() == PublishDialog::Stage::Ready;
        }));
        looker.look(sheet, u"publish-sheet-replace"_s);
        sheet->reject();
        QTRY_VERIFY(!openDialog<PublishDialog>(&window));

        const QString tooLarge = m_temp.filePath(u"panorama"_s);
        QVERIFY(writeTree(tooLarge, {{u"index.html"_s, "<img src=panorama.tif>"}}));
        QVERIFY(writeSparse(QDir(tooLarge).filePath(u"panorama.tif"_s), 12 * 1024 * 1024));
        window.actions().publish(tooLarge);
        QVERIFY(QTest::qWaitFor([&] {
            sheet = openDialog<PublishDialog>(&window);
            return sheet && sheet->stage() == PublishDialog::Stage::Failed;
        }));
        looker.look(sheet, u"publish-refused"_s);
        sheet->reject();
        looker.lookAtModal([&] { window.publishPaths({folder, tooLarge}); }, u"warning-one-at-a-time"_s);
    }

    // A dialog an action opens (with the site selected first, when one is given), looked at and closed.
    // then, when given, goes on in the dialog before it closes.
    template<typename T>
    void lookAtAction(Dashboard &dashboard, WindowLooker &looker, QAction *action, const QString &name,
        const QString &slug = {}, const std::function<void(T *)> &then = {})
    {
        if (!slug.isEmpty())
            dashboard.select(m_samples.id(slug));
        action->trigger();
        T *dialog = nullptr;
        if (!QTest::qWaitFor([&] { return (dialog = openDialog<T>(&dashboard.window())); }, 5000)) {
            looker.fail(name, u"did not open"_s);
            return;
        }
        looker.look(dialog, name);
        if (then)
            then(dialog);
        dialog->reject();
    }

    void lookAtSiteDialogs(Dashboard &dashboard, WindowLooker &looker)
    {
        DeploymentActions &actions = dashboard.window().actions();
        const QString firstSlug = DashboardSamples::firstSlug();
        const auto cancel = [](QDialog *box) { clickButton(box, QMessageBox::Cancel); };
        lookAtAction<EditDetailsDialog>(dashboard, looker, actions.editDetailsAction, u"edit-details"_s, firstSlug);
        lookAtAction<RenameDialog>(dashboard, looker, actions.renameAction, u"rename"_s, firstSlug);
        lookAtAction<HistoryDialog>(dashboard, looker, actions.historyAction, u"history"_s, firstSlug);
        lookAtAction<ProtectionDialog>(dashboard, looker, actions.protectionAction, u"protection"_s, u"launch-day"_s);
        lookAtAction<ExpiryDialog>(dashboard, looker, actions.expiryAction, u"expiry"_s, u"launch-day"_s);
        // The named links, then again with a new link's address and QR code showing.
        lookAtAction<ShareLinksDialog>(dashboard, looker, actions.shareLinksAction, u"share-links"_s, u"launch-day"_s,
            [&](ShareLinksDialog *links) {
                if (auto *create = links->findChild<QPushButton *>(u"createLinkButton"_s))
                    create->click();
                looker.look(links, u"share-links-new"_s);
            });
        // Per-site windows beside the dashboard: the traffic (with a morning's visits) and the notifications.
        if (TrafficDialog *traffic = actions.showTraffic(m_samples.id(firstSlug))) {
            looker.look(traffic, u"traffic"_s);
            traffic->close();
        }
        if (NotificationsDialog *notifications = actions.showNotifications(m_samples.id(u"launch-day"_s))) {
            looker.look(notifications, u"notifications"_s);
            notifications->close();
        }
        for (const auto &[tab, name] : {std::pair {SubmissionsDialog::Tab::Submissions, u"submissions"_s},
                 std::pair {SubmissionsDialog::Tab::Counters, u"counters"_s}}) {
            SubmissionsDialog *dialog = actions.showSubmissions(m_samples.id(u"launch-day"_s), tab);
            looker.look(dialog, name);
            if (!dialog)
                continue;
            // The confirmation of what the tab deletes, for its first row.
            const bool inbox = tab == SubmissionsDialog::Tab::Submissions;
            auto *view
                = dialog->findChild<QAbstractItemView *>(inbox ? u"submissionsTableView"_s : u"countersTableView"_s);
            view->setCurrentIndex(view->model()->index(0, 0));
            view->selectionModel()->select(
                view->model()->index(0, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            auto *remove = dialog->findChild<QAction *>(inbox ? u"deleteSubmissionsAction"_s : u"resetCounterAction"_s);
            looker.lookAtModals([&] { remove->trigger(); },
                {{inbox ? u"confirm-delete-submissions"_s : u"confirm-reset-counter"_s, cancel}});
            dialog->close();
        }
        dashboard.select(m_samples.id(u"launch-day"_s));
        looker.lookAtModals([&] { actions.privateAction->trigger(); }, {{u"confirm-make-public"_s, cancel}});
        looker.lookAtModals([&] { actions.newShareLinkAction->trigger(); }, {{u"confirm-new-link"_s, cancel}});
        looker.lookAtModals([&] { actions.deleteAction->trigger(); }, {{u"confirm-delete"_s, cancel}});
    }

    void lookAtOwnerDialogs(Dashboard &dashboard, WindowLooker &looker)
    {
        MainWindow &window = dashboard.window();
        const auto action = [&](const QString &name) { return window.findChild<QAction *>(name); };
        lookAtAction<KeysDialog>(dashboard, looker, action(u"keysAction"_s), u"api-keys"_s, {}, [&](KeysDialog *keys) {
            auto *list = keys->findChild<QTreeWidget *>(u"keysTreeWidget"_s);
            list->setCurrentItem(list->topLevelItem(0));
            looker.lookAtModals([&] { keys->findChild<QAbstractButton *>(u"revokeKeyButton"_s)->click(); },
                {{u"confirm-revoke-key"_s, [](QDialog *box) { clickButton(box, QMessageBox::Cancel); }}});
        });
        lookAtAction<SettingsDialog>(
            dashboard, looker, action(u"settingsAction"_s), u"settings"_s, {}, [&](SettingsDialog *settings) {
                auto *tabs = settings->findChild<QTabWidget *>(u"settingsTabWidget"_s);
                tabs->setCurrentWidget(settings->findChild<QWidget *>(u"generalSettingsPage"_s));
                looker.look(settings, u"settings-general"_s);
                tabs->setCurrentWidget(settings->findChild<QWidget *>(u"acmeSettingsPage"_s));
                looker.look(settings, u"settings-certificates"_s);
            });
        lookAtAction<ShortcutsDialog>(dashboard, looker, action(u"shortcutsAction"_s), u"shortcuts"_s);
        AccountsDialog *accounts = window.showAccounts();
        for (const auto &[tab, name] : {std::pair {AccountsDialog::Tab::Users, u"accounts-users"_s},
                 std::pair {AccountsDialog::Tab::SignIn, u"accounts-signin"_s},
                 std::pair {AccountsDialog::Tab::Mail, u"accounts-mail"_s}}) {
            accounts->showTab(tab);
            looker.look(accounts, name);
        }
        accounts->close();
        FirstKeyDialog *firstKey = window.showFirstKey(u"bk_4fQ9x2LmZp7Rt8VwYc3NdK6sHj1Ga5Eb"_s);
        looker.look(firstKey, u"first-key"_s);
        firstKey->reject();
        looker.lookAtModal([&] { action(u"aboutAction"_s)->trigger(); }, u"about"_s);
    }

    // The failures Berth can meet before its window opens, each with the ways out it offers.
    void lookAtStartupFailures(WindowLooker &looker)
    {
        const QString data = m_temp.filePath(u"startup-data"_s);
        AppSettings settings(m_temp.filePath(u"startup.conf"_s));
        settings.setDataDir(data);
        settings.setListen(u"127.0.0.1:0"_s);
        Prompter prompter;
        {
            DataDirLock other(data); // as berthd would hold it
            QVERIFY(other.tryLock());
            Startup startup(settings, {}, prompter);
            looker.lookAtModals([&] { startup.run(); }, {{u"startup-folder-in-use"_s, {}}});
        }
        QTcpServer occupant;
        QVERIFY(occupant.listen(QHostAddress::LocalHost));
        settings.setListen(u"127.0.0.1:%1"_s.arg(occupant.serverPort()));
        Startup busy(settings, {}, prompter);
        const auto anotherPort = [](QDialog *dialog) {
            auto *box = qobject_cast<QMessageBox *>(dialog);
            for (QAbstractButton *button : box ? box->buttons() : QList<QAbstractButton *>()) {
                if (button->text() == Startup::label(Startup::AnotherPort))
                    return button->click();
            }
            dialog->reject();
        };
        looker.lookAtModals([&] { busy.run(); }, {{u"startup-port-in-use"_s, anotherPort}, {u"startup-port"_s, {}}});
        Startup::Overrides database;
        database.database = u"mysql://berth@localhost/berth"_s; // not a URL Berth can use
        Startup badDatabase(settings, database, prompter);
        looker.lookAtModals([&] { badDatabase.run(); }, {{u"startup-database"_s, {}}});
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_temp.isValid());
        // Free text of any length, in the column that takes the spare width: the design elides it (with a tooltip).
        m_check.allowElided(u"deploymentsTableView"_s, DeploymentTableModel::TitleColumn);
        m_check.allowElided(u"versionList"_s, 4); // a version's title
        m_check.allowElided(u"keysTreeWidget"_s, 0); // a key's label
        m_check.allowElided(u"webhooksList"_s, 0); // a webhook's address
        m_check.allowElided(u"deliveriesList"_s, 3); // why a delivery failed (whole in its tooltip)
        m_check.allowElided(u"topPagesList"_s, 0); // a page's path
        m_check.allowElided(u"domainsTreeWidget"_s, 3); // why a certificate's order failed (whole in its tooltip)
        m_check.allowElided(u"acmeNamesTreeWidget"_s, 3);
    }

    void everyWindow_data()
    {
        QTest::addColumn<QLocale>("locale");
        QTest::addColumn<QString>("appearance");
        for (const auto &[language, locale] : {std::pair {u"en"_s, QLocale(QLocale::English, QLocale::UnitedStates)},
                 std::pair {u"de"_s, QLocale(QLocale::German, QLocale::Germany)}}) {
            for (const QString &appearance : {u"light"_s, u"dark"_s})
                QTest::addRow("%s-%s", qPrintable(language), qPrintable(appearance)) << locale << appearance;
        }
    }

    void everyWindow()
    {
        QFETCH(QLocale, locale);
        QFETCH(QString, appearance);
        Translations translations;
        QVERIFY(translations.install(locale));
        QLocale::setDefault(locale);
        const QString variant = u"%1-x%2"_s.arg(QString::fromLatin1(QTest::currentDataTag()), scale());
        WindowLooker looker(m_check, variant, picturesFor(variant));
        if (!qEnvironmentVariableIsEmpty("BERTH_LAYOUT_DOCS")) {
            looker.setCompact(true);
            looker.setPictureNames(appearance == u"dark"_s ? kDocumentedDark : kDocumentedLight);
        }
        {
            Dashboard dashboard;
            EngineSettings settings;
            settings.siteDomain = u"localhost:8080"_s; // the addresses people see by default, in every picture
            settings.baseUrl = u"http://localhost:8080"_s;
            QVERIFY(DashboardSamples::useAcme(dashboard, settings));
            QVERIFY(dashboard.start(settings, [&](AppSettings &saved) {
                saved.setAppearance(appearance);
                saved.setAcmeDirectory(u"https://acme-v02.api.letsencrypt.org/directory"_s);
                saved.setAcmeEmail(settings.acme.email);
            }));
            QVERIFY(m_samples.add(dashboard));
            dashboard.select(m_samples.id(DashboardSamples::firstSlug()));
            looker.look(&dashboard.window(), u"main-window"_s);
            // A helper's QVERIFY ends only the helper: the walk stops with it rather than going on half-done.
            lookAtPublishing(dashboard, looker, u"holiday-photos"_s, true);
            if (QTest::currentTestFailed())
                return;
            lookAtPublishing(dashboard, looker, u"team-notes"_s, false);
            if (QTest::currentTestFailed())
                return;
            lookAtPublishingAgain(dashboard, looker);
            if (QTest::currentTestFailed())
                return;
            auto *filter = dashboard.window().findChild<QLineEdit *>(u"filterLineEdit"_s);
            filter->setText(u"no-such-site"_s);
            looker.look(&dashboard.window(), u"main-window-no-match"_s);
            filter->clear();
            lookAtSiteDialogs(dashboard, looker);
            lookAtOwnerDialogs(dashboard, looker);
            for (const QString &id : m_samples.ids())
                QVERIFY(dashboard.engine().deployments().remove(dashboard.owner(), id));
            for (const Deployment &left : dashboard.engine().deployments().list(dashboard.owner()))
                QVERIFY(dashboard.engine().deployments().remove(dashboard.owner(), left.id));
            QTRY_COMPARE(dashboard.window().model().rowCount(), 0);
            looker.look(&dashboard.window(), u"main-window-empty"_s);
        }
        lookAtStartupFailures(looker);
        QLocale::setDefault(QLocale::c());
        qInfo("%s: %d windows looked at", qPrintable(variant), looker.looked());
        const QStringList findings = looker.findings();
        for (const QString &finding : findings)
            qWarning("%s", qPrintable(finding));
        QVERIFY2(findings.isEmpty(), qPrintable(u"%1 findings, listed above"_s.arg(findings.size())));
    }
};

QTEST_MAIN(TestDialogLayout)
#include "tst_dialoglayout.moc"
