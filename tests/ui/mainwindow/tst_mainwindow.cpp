// The main window driven as a person would: where it serves, the site actions, the filter, shortcuts and names.
// Each result is checked where it matters: in the table and over HTTP on the live engine. Publishing by a drop is
// tst_droppublish's.
#include "domain/deploy/deploymentservice.h"
#include "domain/deploy/slugrules.h"
#include "domain/siterules/siteaddresses.h"
#include "ui/publishing/publishdialog.h"
#include "ui/sitelist/deploymentactions.h"
#include "ui/sitelist/deploymenttablemodel.h"
#include "ui/sitelist/deploymenttableview.h"
#include "ui/widgets/translations.h"
#include "uitestsupport.h"

#include <QAction>
#include <QClipboard>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QPushButton>
#include <QStackedWidget>
#include <QToolButton>

using namespace Qt::StringLiterals;
using namespace berth;
using berth::test::Dashboard;

class TestMainWindow : public QObject
{
    Q_OBJECT

private:
    Translations m_translations; // English, as on most systems: the plural forms come from berth_en.ts
    std::unique_ptr<Dashboard> m_dashboard;
    std::unique_ptr<QTemporaryDir> m_files;

    MainWindow &window() { return m_dashboard->window(); }
    DeploymentTableModel &model() { return window().model(); }

private Q_SLOTS:
    void initTestCase() { m_translations.install(QLocale(QLocale::English, QLocale::UnitedStates)); }
    void init()
    {
        m_dashboard = std::make_unique<Dashboard>();
        QVERIFY(m_dashboard->start());
        m_files = std::make_unique<QTemporaryDir>();
    }
    void cleanup()
    {
        m_dashboard.reset();
        m_files.reset();
    }

    void showsWhereBerthServesAndInvitesADrop()
    {
        const SiteAddresses &addresses = m_dashboard->engine().addresses();
        const QString serving = window().findChild<QLabel *>(u"servingLabel"_s)->text();
        QVERIFY2(serving.contains(addresses.baseUrl()), qPrintable(serving));
        QVERIFY(serving.contains(addresses.siteUrl(u"&lt;slug&gt;"_s)));
        auto *empty = window().findChild<QLabel *>(u"emptyStateLabel"_s);
        QVERIFY(empty->isVisible());
        QCOMPARE(empty->text(), u"Drop a folder or an .html file here to publish it"_s);
        QVERIFY(!window().tableView()->isVisible());
    }

    void privateSiteNeedsItsShareLink()
    {
        const QString id = m_dashboard->deploy(u"secret-plans"_s, {{u"index.html"_s, "plans"}});
        QTRY_COMPARE(model().rowCount(), 1);
        m_dashboard->select(id);
        DeploymentActions &actions = window().actions();
        QVERIFY(!actions.copyShareLinkAction->isEnabled());
        actions.privateAction->trigger();
        QTRY_VERIFY(model().index(0, 0).data(DeploymentTableModel::ProtectedRole).toBool());
        QCOMPARE(model().index(0, DeploymentTableModel::AccessColumn).data().toString(), u"Private"_s);
        QVERIFY(actions.privateAction->isChecked());

        auto &client = m_dashboard->client();
#if !__has_include("site/privategate.h")
        QEXPECT_FAIL("", "needs engine/site's private gate (403 without a share token), built in another issue", Abort);
#endif
        QCOMPARE(client.site(u"secret-plans"_s).status, 403);

        QTRY_VERIFY(actions.copyShareLinkAction->isEnabled());
        actions.copyShareLinkAction->trigger();
        const QUrl link(QGuiApplication::clipboard()->text());
        QCOMPARE(link.host(), u"secret-plans.localhost"_s);
        QVERIFY(link.query().startsWith(u"_token="_s));
        const auto redirect = client.site(u"secret-plans"_s, u"/?"_s + link.query());
        QCOMPARE(redirect.status, 302);
        const QByteArray cookie = redirect.header("set-cookie").split(';').constFirst();
        QVERIFY(!cookie.isEmpty());
        const auto admitted = client.site(u"secret-plans"_s,
            redirect.header("location").isEmpty() ? u"/"_s : QString::fromUtf8(redirect.header("location")), "GET",
            {{"Cookie", cookie}});
        QCOMPARE(admitted.status, 200);
        QCOMPARE(admitted.body, QByteArray("plans"));

        // A new share link, after the confirmation: it is copied, and the old link and its cookie stop working.
        window().prompter().setNextAnswer(QMessageBox::Cancel);
        actions.newShareLinkAction->trigger();
        QVERIFY2(window().prompter().lastMessage().contains(u"stops working"_s),
            qPrintable(window().prompter().lastMessage()));
        QCOMPARE(QGuiApplication::clipboard()->text(), link.toString());
        window().prompter().setNextAnswer(QMessageBox::Yes);
        actions.newShareLinkAction->trigger();
        QTRY_VERIFY(QGuiApplication::clipboard()->text() != link.toString());
        const QUrl newLink(QGuiApplication::clipboard()->text());
        QVERIFY(newLink.query().startsWith(u"_token="_s));
        QCOMPARE(client.site(u"secret-plans"_s, u"/?"_s + link.query()).status, 403);
        QCOMPARE(client.site(u"secret-plans"_s, u"/"_s, "GET", {{"Cookie", cookie}}).status, 403);
        QCOMPARE(client.site(u"secret-plans"_s, u"/?"_s + newLink.query()).status, 302);

        // Back to public, after the confirmation.
        window().prompter().setNextAnswer(QMessageBox::Yes);
        actions.privateAction->trigger();
        QTRY_VERIFY(!model().index(0, 0).data(DeploymentTableModel::ProtectedRole).toBool());
        QCOMPARE(client.site(u"secret-plans"_s).status, 200);
    }

    void privateSiteOpensWithItsShareLink()
    {
        const QString hidden = m_dashboard->deploy(u"hidden-plans"_s, {{u"index.html"_s, "hidden"}});
        const QString open = m_dashboard->deploy(u"open-plans"_s, {{u"index.html"_s, "open"}});
        QTRY_COMPARE(model().rowCount(), 2);
        QList<QUrl> opened;
        window().prompter().setOpenUrlHandler([&opened](const QUrl &url) {
            opened.append(url);
            return true;
        });
        DeploymentActions &actions = window().actions();
        auto *shareButton = berth::test::child<QToolButton>(&window(), u"copyShareLinkToolButton"_s);

        m_dashboard->select(open);
        QVERIFY(!shareButton->isEnabled()); // a public site has no share link
        actions.openAction->trigger();
        QCOMPARE(opened.takeLast(), QUrl(m_dashboard->engine().addresses().siteUrl(u"open-plans"_s)));

        m_dashboard->select(hidden);
        actions.privateAction->trigger();
        QTRY_VERIFY(model().deployment(hidden)->isProtected);
        QTRY_VERIFY(shareButton->isEnabled());
        QVERIFY(shareButton->isVisible());
        actions.openAction->trigger();
        const QUrl link = opened.takeLast();
        QCOMPARE(link, QUrl(model().shareUrlOf(*model().deployment(hidden))));
        QCOMPARE(m_dashboard->client().site(u"hidden-plans"_s, u"/?"_s + link.query()).status, 302); // it lets in
        QTest::mouseClick(shareButton, Qt::LeftButton);
        QCOMPARE(QGuiApplication::clipboard()->text(), link.toString());

        // The access window shows the whole link.
        actions.protectionAction->trigger();
        QDialog *access = nullptr;
        QTRY_VERIFY((access = window().findChild<QDialog *>(u"protectionDialog"_s)) && access->isVisible());
        auto *shareLink = berth::test::child<QLineEdit>(access, u"shareLinkLineEdit"_s);
        QCOMPARE(shareLink->text(), link.toString());
        QVERIFY(shareLink->width() > shareLink->fontMetrics().horizontalAdvance(shareLink->text()));
        access->reject();

        // Turning it public says first that the link is gone for good, on a button named for what it does.
        window().prompter().setNextAnswer(QMessageBox::Cancel);
        actions.privateAction->trigger();
        QVERIFY2(window().prompter().lastMessage().contains(u"makes a new link"_s),
            qPrintable(window().prompter().lastMessage()));
        QCOMPARE(window().prompter().lastVerb(), u"Make &Public"_s);
        QVERIFY(model().deployment(hidden)->isProtected);

        m_dashboard->select(open);
        QCOMPARE(actions.currentId(), open);
        QVERIFY(!actions.copyShareLinkAction->isEnabled());
        QTRY_VERIFY(!shareButton->isEnabled()); // greyed out in its place: the toolbar does not shift
    }

    void deleteAsksFirst()
    {
        const QString id = m_dashboard->deploy(u"short-lived"_s, {{u"index.html"_s, "bye"}});
        QTRY_COMPARE(model().rowCount(), 1);
        m_dashboard->select(id);
        window().prompter().setNextAnswer(QMessageBox::Cancel);
        window().actions().deleteAction->trigger();
        QVERIFY(window().prompter().lastMessage().contains(u"short-lived"_s));
        QCOMPARE(model().rowCount(), 1);
        QCOMPARE(m_dashboard->client().site(u"short-lived"_s).status, 200);

        window().prompter().setNextAnswer(QMessageBox::Yes);
        window().actions().deleteAction->trigger();
        QTRY_COMPARE(model().rowCount(), 0);
        QCOMPARE(m_dashboard->client().site(u"short-lived"_s).status, 404);
        QVERIFY(window().findChild<QLabel *>(u"emptyStateLabel"_s)->isVisible());
    }

    void aSiteIsCurrentFromTheStartAndTabLeavesTheTable()
    {
        QVERIFY(!m_dashboard->deploy(u"older-site"_s, {{u"index.html"_s, "1"}}).isEmpty());
        const QString newest = m_dashboard->deploy(u"newer-site"_s, {{u"index.html"_s, "2"}});
        QTRY_COMPARE(model().rowCount(), 2);
        // A window opened over existing sites, as after a start: the top row is current, so shortcuts apply.
        MainWindow again(m_dashboard->engine(), m_dashboard->settings());
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QCOMPARE(again.actions().currentId(), newest);
        QVERIFY(again.actions().openAction->isEnabled());

        QVERIFY(berth::test::waitUntilActive(&again));
        again.tableView()->setFocus();
        QTest::keyClick(again.tableView(), Qt::Key_Tab);
        QVERIFY(QApplication::focusWidget() != again.tableView()); // not the next cell: the next control
        QCOMPARE(again.actions().currentId(), newest);
    }

    void filterWithNoMatchSaysSo()
    {
        QVERIFY(!m_dashboard->deploy(u"gamma-site"_s, {{u"index.html"_s, "g"}}).isEmpty());
        QTRY_COMPARE(model().rowCount(), 1);
        auto *filter = window().findChild<QLineEdit *>(u"filterLineEdit"_s);
        QTest::keyClicks(filter, u"zebra"_s);
        auto *noMatch = window().findChild<QLabel *>(u"noMatchLabel"_s);
        QVERIFY(noMatch->isVisible());
        QCOMPARE(noMatch->text(), u"No site matches “zebra”."_s);
        filter->clear();
        QVERIFY(window().tableView()->isVisible());
    }

    void filterKeepsMatchingRows()
    {
        QVERIFY(!m_dashboard->deploy(u"alpha-site"_s, {{u"index.html"_s, "a"}}).isEmpty());
        QVERIFY(!m_dashboard->deploy(u"beta-site"_s, {{u"index.html"_s, "b"}}).isEmpty());
        QTRY_COMPARE(window().tableView()->model()->rowCount(), 2);
        QTest::keyClicks(window().findChild<QLineEdit *>(u"filterLineEdit"_s), u"beta"_s);
        QCOMPARE(window().tableView()->model()->rowCount(), 1);
        QCOMPARE(window().tableView()->model()->index(0, 0).data().toString(), u"beta-site"_s);
    }

    void everyDeploymentActionHasAShortcutAndAMenuEntry()
    {
        DeploymentActions &actions = window().actions();
        QMenu *site = nullptr;
        for (QAction *menu : window().menuBar()->actions()) {
            if (menu->menu() && menu->text() == u"&Site"_s)
                site = menu->menu();
        }
        QVERIFY(site);
        for (QAction *action :
            {actions.openAction, actions.copyUrlAction, actions.copyShareLinkAction, actions.newShareLinkAction,
                actions.privateAction, actions.protectionAction, actions.renameAction, actions.editDetailsAction,
                actions.redeployAction, actions.submissionsAction, actions.countersAction, actions.deleteAction}) {
            QVERIFY2(!action->shortcut().isEmpty(), qPrintable(action->objectName()));
            QVERIFY2(site->actions().contains(action), qPrintable(action->objectName()));
            QVERIFY2(!action->icon().isNull(), qPrintable(action->objectName()));
        }
    }

    void everyControlHasAnAccessibleName()
    {
        QVERIFY(!m_dashboard->deploy(u"named-site"_s, {{u"index.html"_s, "n"}}).isEmpty());
        const QString folder = m_files->filePath(u"a11y"_s);
        QVERIFY(berth::test::writeTree(folder, {{u"index.html"_s, "x"}}));
        berth::test::dropPaths(&window(), QPoint(200, 200), {folder});
        QTRY_VERIFY(berth::test::openDialog<PublishDialog>(&window()));
        const QStringList unnamed = berth::test::unnamedControls(&window());
        QVERIFY2(unnamed.isEmpty(), qPrintable(unnamed.join(u", "_s)));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
