// Every window, sheet and dialog of the dashboard, opened as a person would open it, in English and German, on the
// light and the dark palette (and, registered a second time, at QT_SCALE_FACTOR=2), checked by LayoutCheck: no
// clipped text, no literal mnemonic, readable contrast, no oversized dialog, no overlapping widgets. A picture of
// each goes to $BERTH_LAYOUT_PICTURES (default: "pictures" in the build folder); with $BERTH_LAYOUT_DOCS set, only the
// documentation's pictures are written there instead (the `screenshots` target).
#include "domain/accounts/accountservice.h"
#include "domain/deploy/deploymentservice.h"
#include "domain/events/webhookservice.h"
#include "domain/visitors/counterservice.h"
#include "domain/visitors/submissionservice.h"
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
#include <QJsonObject>
#include <QLineEdit>
#include <QPushButton>
#include <QTcpServer>
#include <QTreeWidget>

using namespace Qt::StringLiterals;
using namespace berth;
using namespace berth::test;

namespace {

// The pictures docs/dashboard.md shows: English on the light palette at scale 1, and the main window on the dark one.
const QStringList kDocumentedLight {u"main-window"_s, u"publish-sheet"_s, u"publish-done-private"_s, u"history"_s,
    u"submissions"_s, u"traffic"_s, u"settings"_s, u"api-keys"_s, u"first-key"_s, u"startup-folder-in-use"_s};
const QStringList kDocumentedDark {u"main-window"_s};

struct Site
{
    QString slug, title;
    bool isPrivate = false;
};

// Public and private sites, two with 30-character slugs, the first with a long title that elides.
const QList<Site> kSites {
    {u"spring-garden-open-day-program"_s, u"Spring garden open day: the programme, the map and the stalls"_s, false},
    {u"annual-general-meeting-minutes"_s, u"Minutes"_s, true},
    {u"launch-day"_s, u"Launch day"_s, true},
    {u"team-handbook"_s, u"Team handbook"_s, false},
};

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
    QHash<QString, QString> m_ids; // slug -> id

    static QString scale() { return qEnvironmentVariable("QT_SCALE_FACTOR", u"1"_s); }

    QDir picturesFor(const QString &variant) const
    {
        const QString docs = qEnvironmentVariable("BERTH_LAYOUT_DOCS");
        if (!docs.isEmpty())
            return QDir(variant.contains(u"-dark"_s) ? QDir(docs).filePath(u"dark"_s) : docs);
        const QString root = qEnvironmentVariable("BERTH_LAYOUT_PICTURES", QStringLiteral(BERTH_LAYOUT_PICTURES));
        return QDir(QDir(root).filePath(variant));
    }

    bool addSites(Dashboard &dashboard)
    {
        const User owner = dashboard.owner();
        DeploymentService &deployments = dashboard.engine().deployments();
        const auto finished = [](const QFuture<Result<Deployment>> &future) {
            return QTest::qWaitFor([&] { return future.isFinished(); }, 10'000) && future.result();
        };
        for (const Site &site : kSites) {
            DeployRequest request;
            request.slug = site.slug;
            request.title = site.title;
            request.protect = site.isPrivate;
            request.files = QList<FileUpload> {{u"index.html"_s, "<h1>Hello</h1>", "text/html; charset=utf-8"}};
            const auto future = deployments.create(owner, request);
            if (!finished(future))
                return false;
            m_ids.insert(site.slug, future.result().value().id);
        }
        // The first site's history: two versions more, the files and the title grown.
        for (const QByteArray &style : {QByteArray("h1 { color: green }"), QByteArray(4000, ' ')}) {
            DeployRequest request;
            request.title = kSites.constFirst().title;
            request.files = QList<FileUpload> {{u"index.html"_s, "<h1>Open day</h1>", "text/html; charset=utf-8"},
                {u"style.css"_s, style, "text/css; charset=utf-8"}};
            if (!finished(deployments.update(owner, m_ids[kSites.constFirst().slug], request)))
                return false;
        }
        // Launch day goes offline by itself in a week: the list's Expires column and its Expiry dialog.
        DeployRequest expiring;
        expiring.expiresIn = 7 * 24 * 3600;
        if (!finished(deployments.update(owner, m_ids[u"launch-day"_s], expiring)))
            return false;
        const Deployment launch = deployments.get(owner, m_ids[u"launch-day"_s]).value();
        // A morning's sign-ups, three counters, a few keys and people: windows with what they are made for.
        const QStringList names {u"Ana Lima"_s, u"Ben Ortiz"_s, u"Chen Wei"_s, u"Dora K."_s, u"Eli"_s};
        for (int i = 0; i < 24; ++i) {
            const QString name = names.at(i % names.size());
            const QJsonObject form {{u"email"_s, u"%1.%2@example.com"_s.arg(name.section(u' ', 0, 0).toLower()).arg(i)},
                {u"name"_s, name},
                {u"message"_s, i % 3 ? u"Count me in!"_s : u"Can I bring a friend? She builds boats too."_s}};
            if (!dashboard.engine().submissions().receive(launch, form))
                return false;
        }
        for (const QString &counter : {u"visits"_s, u"signups"_s, u"newsletter-clicks"_s}) {
            if (!dashboard.engine().counters().increment(launch, counter))
                return false;
        }
        for (const QString &label : {u"laptop"_s, u"deploy script on the build server"_s, u"ci"_s}) {
            if (!dashboard.engine().accounts().createKey(owner.id, label))
                return false;
        }
        return addTraffic(dashboard) && addWebhook(dashboard)
            && dashboard.engine().accounts().ensureUser(u"ana@example.com"_s, u"free"_s)
            && dashboard.engine().accounts().ensureUser(u"ben.ortiz@example.org"_s, u"free"_s);
    }

    // Visits to the first (public) site over HTTP, from a few referrers, with a missing page: its Traffic window.
    static bool addTraffic(Dashboard &dashboard)
    {
        const QString slug = kSites.constFirst().slug;
        const QList<std::pair<QString, QByteArray>> visits {{u"/"_s, "https://news.example.org/a"},
            {u"/"_s, "https://forum.example.net/t/1"}, {u"/style.css"_s, {}}, {u"/programme"_s, {}},
            {u"/"_s, "https://news.example.org/b"}};
        for (const auto &[path, referrer] : visits) {
            QList<QPair<QByteArray, QByteArray>> headers {
                {"User-Agent", "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0"}};
            if (!referrer.isEmpty())
                headers.append({"Referer", referrer});
            if (dashboard.client().site(slug, path, "GET", headers).status == 0)
                return false;
        }
        dashboard.engine().flushAnalytics();
        return true;
    }

    // A webhook of launch-day whose receiver is not there: its test delivery waits for another attempt.
    bool addWebhook(Dashboard &dashboard)
    {
        WebhookService &webhooks = dashboard.engine().webhooks();
        if (!webhooks.setTargets(WebhookTargets::Policy::Any))
            return false;
        std::optional<Result<Webhook>> added;
        webhooks.add(dashboard.owner(),
            {u"http://127.0.0.1:9/hooks/launch-day"_s, {u"submission.created"_s}, m_ids[u"launch-day"_s]},
            [&](Result<Webhook> answer) { added = std::move(answer); });
        return QTest::qWaitFor([&] { return added.has_value(); }, 5000) && *added
            && webhooks.ping(dashboard.owner(), added->value().id);
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
            dashboard.select(m_ids[slug]);
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
        const QString firstSlug = kSites.constFirst().slug;
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
        if (TrafficDialog *traffic = actions.showTraffic(m_ids[firstSlug])) {
            looker.look(traffic, u"traffic"_s);
            traffic->close();
        }
        if (NotificationsDialog *notifications = actions.showNotifications(m_ids[u"launch-day"_s])) {
            looker.look(notifications, u"notifications"_s);
            notifications->close();
        }
        for (const auto &[tab, name] : {std::pair {SubmissionsDialog::Tab::Submissions, u"submissions"_s},
                 std::pair {SubmissionsDialog::Tab::Counters, u"counters"_s}}) {
            SubmissionsDialog *dialog = actions.showSubmissions(m_ids[u"launch-day"_s], tab);
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
        dashboard.select(m_ids[u"launch-day"_s]);
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
        lookAtAction<SettingsDialog>(dashboard, looker, action(u"settingsAction"_s), u"settings"_s);
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
            QVERIFY(dashboard.start(settings, [&](AppSettings &saved) { saved.setAppearance(appearance); }));
            QVERIFY(addSites(dashboard));
            dashboard.select(m_ids[kSites.constFirst().slug]);
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
            for (const QString &id : std::as_const(m_ids))
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
