// The dialogs behind the deployment actions, driven through their widgets: rename, details,
// access and password, API keys, settings. Effects are checked in the engine and over HTTP.
#include "domain/accounts/accountservice.h"
#include "domain/deploy/deploymentservice.h"
#include "domain/siterules/siteaddresses.h"
#include "ui/accounts/keysdialog.h"
#include "ui/settings/settingsdialog.h"
#include "ui/sitelist/deploymentactions.h"
#include "ui/sitelist/deploymenttablemodel.h"
#include "ui/sitelist/editdetailsdialog.h"
#include "ui/sitelist/protectiondialog.h"
#include "ui/sitelist/renamedialog.h"
#include "ui/widgets/icons.h"
#include "ui/widgets/theme.h"
#include "uitestsupport.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QStyle>
#include <QTreeWidget>

using namespace Qt::StringLiterals;
using namespace berth;
using berth::test::Dashboard;
using berth::test::openDialog;

class TestDialogs : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<Dashboard> m_dashboard;

    MainWindow &window() { return m_dashboard->window(); }
    Deployment current(const QString &id)
    {
        return m_dashboard->engine().deployments().get(m_dashboard->owner(), id).value();
    }
    static void retype(QLineEdit *edit, const QString &text)
    {
        edit->selectAll();
        QTest::keyClick(edit, Qt::Key_Backspace);
        QTest::keyClicks(edit, text);
    }

private Q_SLOTS:
    void init()
    {
        m_dashboard = std::make_unique<Dashboard>();
        QVERIFY(m_dashboard->start());
    }
    void cleanup() { m_dashboard.reset(); }

    void renameMovesTheSite()
    {
        const QString id = m_dashboard->deploy(u"old-name"_s, {{u"index.html"_s, "moving"}});
        QVERIFY(!m_dashboard->deploy(u"taken-name"_s, {{u"index.html"_s, "other"}}).isEmpty());
        m_dashboard->select(id);
        window().actions().renameAction->trigger();
        RenameDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = openDialog<RenameDialog>(&window())));
        auto *slug = dialog->findChild<QLineEdit *>(u"slugLineEdit"_s);
        auto *message = dialog->findChild<QLabel *>(u"slugMessageLabel"_s);
        auto *rename = dialog->findChild<QPushButton *>(u"renameButton"_s);
        QVERIFY(!rename->isEnabled()); // unchanged

        retype(slug, u"nohyphen"_s);
        QVERIFY(!rename->isEnabled());
        QVERIFY2(message->text().contains(u"hyphen"_s), qPrintable(message->text()));
        retype(slug, u"Taken Name"_s); // typed as a person would: lowered, spaces become hyphens
        QCOMPARE(slug->text(), u"taken-name"_s);
        QVERIFY(!rename->isEnabled());
        QVERIFY2(message->text().contains(u"already taken"_s), qPrintable(message->text()));
        retype(slug, u"new-name"_s);
        QVERIFY(rename->isEnabled());
        QVERIFY(message->text().contains(m_dashboard->engine().addresses().siteUrl(u"new-name"_s)));
        QTest::mouseClick(rename, Qt::LeftButton);

        QTRY_VERIFY(!openDialog<RenameDialog>(&window()));
        QCOMPARE(current(id).slug, u"new-name"_s);
        QCOMPARE(m_dashboard->client().site(u"new-name"_s).body, QByteArray("moving"));
        QCOMPARE(m_dashboard->client().site(u"old-name"_s).status, 404);
        QCOMPARE(window().model().index(window().model().indexOf(id).row(), 0).data().toString(), u"new-name"_s);
    }

    void renameExplainsAConflictFoundAtSaveTime()
    {
        const QString id = m_dashboard->deploy(u"first-one"_s, {{u"index.html"_s, "1"}});
        m_dashboard->select(id);
        window().actions().renameAction->trigger();
        RenameDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = openDialog<RenameDialog>(&window())));
        retype(dialog->findChild<QLineEdit *>(u"slugLineEdit"_s), u"race-won"_s);
        // Someone takes the slug through the API between typing and saving.
        QVERIFY(!m_dashboard->deploy(u"race-won"_s, {{u"index.html"_s, "2"}}).isEmpty());
        dialog->accept();
        QVERIFY(dialog->isVisible());
        QVERIFY(dialog->findChild<QLabel *>(u"slugMessageLabel"_s)->text().contains(u"already taken"_s));
        QCOMPARE(current(id).slug, u"first-one"_s);
    }

    void editDetailsSavesTitleDescriptionFaviconAndSpa()
    {
        const QString id = m_dashboard->deploy(u"details-site"_s, {{u"index.html"_s, "app"}});
        m_dashboard->select(id);
        window().actions().editDetailsAction->trigger();
        EditDetailsDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = openDialog<EditDetailsDialog>(&window())));
        retype(dialog->findChild<QLineEdit *>(u"titleLineEdit"_s), u"Our App"_s);
        QTest::keyClicks(dialog->findChild<QPlainTextEdit *>(u"descriptionTextEdit"_s), u"The team's app"_s);
        auto *favicon = dialog->findChild<QLineEdit *>(u"faviconLineEdit"_s);
        favicon->clear();
        favicon->insert(u"⚓"_s); // QTest types ASCII only; an emoji arrives like this from an input method
        dialog->findChild<QCheckBox *>(u"spaCheckBox"_s)->setChecked(true);
        QTest::mouseClick(dialog->findChild<QPushButton *>(u"saveButton"_s), Qt::LeftButton);

        QTRY_VERIFY(!openDialog<EditDetailsDialog>(&window()));
        const Deployment saved = current(id);
        QCOMPARE(saved.title, u"Our App"_s);
        QCOMPARE(saved.description, u"The team's app"_s);
        QCOMPARE(saved.favicon, u"⚓"_s);
        QVERIFY(saved.isSpa);
        QCOMPARE(m_dashboard->client().site(u"details-site"_s, u"/any/route"_s).body, QByteArray("app")); // SPA
        const QModelIndex title = window().model().indexOf(id, DeploymentTableModel::TitleColumn);
        QCOMPARE(title.data().toString(), u"⚓  Our App"_s);
    }

    // A single HTML page has no other paths: its Single-page app box is off, and says why.
    void singlePageAppSaysWhyItIsOffForAPage()
    {
        DeployRequest page;
        page.slug = u"one-pager"_s;
        page.html = u"<h1>One page</h1>"_s;
        const auto future = m_dashboard->engine().deployments().create(m_dashboard->owner(), page);
        QTRY_VERIFY(future.isFinished());
        QVERIFY(future.result());
        const QString files = m_dashboard->deploy(u"many-files"_s, {{u"index.html"_s, "f"}});
        for (const QString &id : {future.result().value().id, files}) {
            m_dashboard->select(id);
            window().actions().editDetailsAction->trigger();
            EditDetailsDialog *dialog = nullptr;
            QTRY_VERIFY((dialog = openDialog<EditDetailsDialog>(&window())));
            QVERIFY(QTest::qWaitForWindowExposed(dialog));
            auto *spa = dialog->findChild<QCheckBox *>(u"spaCheckBox"_s);
            auto *hint = berth::test::child<QLabel>(dialog, u"spaHintLabel"_s);
            QVERIFY(hint);
            QCOMPARE(hint->isVisible(), !spa->isEnabled());
            QCOMPARE(spa->isEnabled(), id == files);
            if (!spa->isEnabled()) {
                QVERIFY2(hint->text().contains(u"single HTML page"_s), qPrintable(hint->text()));
                QCOMPARE(spa->toolTip(), hint->text());
            }
            dialog->reject();
            QTRY_VERIFY(!openDialog<EditDetailsDialog>(&window()));
        }
    }

    // Saving sends only what changed: a title left as it was keeps following the document's <title>.
    void editDetailsSendsOnlyWhatChanged()
    {
        const QString id = m_dashboard->deploy(u"follow-site"_s, {{u"index.html"_s, "<title>First Draft</title>x"}});
        QCOMPARE(current(id).title, u"First Draft"_s);
        m_dashboard->select(id);
        window().actions().editDetailsAction->trigger();
        EditDetailsDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = openDialog<EditDetailsDialog>(&window())));
        QTest::keyClicks(dialog->findChild<QPlainTextEdit *>(u"descriptionTextEdit"_s), u"Notes"_s);
        QTest::mouseClick(dialog->findChild<QPushButton *>(u"saveButton"_s), Qt::LeftButton);
        QTRY_VERIFY(!openDialog<EditDetailsDialog>(&window()));
        QCOMPARE(current(id).description, u"Notes"_s);
        QVERIFY(!current(id).titleIsCustom);

        // New content with a new <title>: the title follows it.
        DeployRequest replacement;
        replacement.files = QList<FileUpload> {{u"index.html"_s, "<title>Final</title>y", "text/html"}};
        auto future = m_dashboard->engine().deployments().update(m_dashboard->owner(), id, replacement);
        QTRY_VERIFY(future.isFinished());
        QVERIFY(future.result());
        QCOMPARE(current(id).title, u"Final"_s);
        QCOMPARE(current(id).description, u"Notes"_s);
    }

    void accessDialogSetsAndRemovesThePassword()
    {
        const QString id = m_dashboard->deploy(u"gated-site"_s, {{u"index.html"_s, "g"}});
        m_dashboard->select(id);
        window().actions().protectionAction->trigger();
        ProtectionDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = openDialog<ProtectionDialog>(&window())));
        QVERIFY(dialog->findChild<QRadioButton *>(u"publicRadioButton"_s)->isChecked());
        dialog->findChild<QRadioButton *>(u"privateRadioButton"_s)->setChecked(true);
        dialog->findChild<QCheckBox *>(u"requirePasswordCheckBox"_s)->setChecked(true);
        QTest::keyClicks(dialog->findChild<QLineEdit *>(u"passwordLineEdit"_s), u"open sesame"_s);
        QTest::mouseClick(dialog->findChild<QPushButton *>(u"saveButton"_s), Qt::LeftButton);
        QTRY_VERIFY(!openDialog<ProtectionDialog>(&window()));
        QVERIFY(current(id).isProtected);
        QVERIFY(!current(id).passwordHash.isEmpty());
        QTRY_COMPARE(
            window().model().indexOf(id, DeploymentTableModel::AccessColumn).data().toString(), u"Private, password"_s);

        // Again: the share link is shown, and unticking the password removes only the password.
        QTRY_VERIFY(!openDialog<ProtectionDialog>(&window()));
        window().actions().protectionAction->trigger();
        QTRY_VERIFY((dialog = openDialog<ProtectionDialog>(&window())));
        QVERIFY(dialog->findChild<QLineEdit *>(u"shareLinkLineEdit"_s)->text().contains(u"_token="_s));
        dialog->findChild<QCheckBox *>(u"requirePasswordCheckBox"_s)->setChecked(false);
        QTest::mouseClick(dialog->findChild<QPushButton *>(u"saveButton"_s), Qt::LeftButton);
        QTRY_VERIFY(!openDialog<ProtectionDialog>(&window()));
        QVERIFY(current(id).isProtected);
        QVERIFY(current(id).passwordHash.isEmpty());
    }

    void keysCanBeCreatedOnceAndRevoked()
    {
        auto *dialog = new KeysDialog(
            {m_dashboard->engine(), m_dashboard->owner(), m_dashboard->settings(), window().prompter()}, &window());
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
        auto *keys = dialog->findChild<QTreeWidget *>(u"keysTreeWidget"_s);
        const int before = keys->topLevelItemCount(); // the owner's first key
        QTest::keyClicks(dialog->findChild<QLineEdit *>(u"labelLineEdit"_s), u"ci script"_s);
        QTest::mouseClick(dialog->findChild<QPushButton *>(u"createKeyButton"_s), Qt::LeftButton);
        const QString secret = dialog->findChild<QLineEdit *>(u"secretLineEdit"_s)->text();
        QVERIFY(secret.startsWith(u"bk_"_s));
        QCOMPARE(keys->topLevelItemCount(), before + 1);
        QCOMPARE(keys->topLevelItem(0)->text(0), u"ci script"_s);
        QCOMPARE(m_dashboard->client().api("GET", u"/deploys"_s, secret.toLatin1()).status, 200);

        keys->setCurrentItem(keys->topLevelItem(0));
        window().prompter().setNextAnswer(QMessageBox::Yes);
        QTest::mouseClick(dialog->findChild<QPushButton *>(u"revokeKeyButton"_s), Qt::LeftButton);
        QVERIFY(keys->topLevelItem(0)->isDisabled());
        QCOMPARE(m_dashboard->client().api("GET", u"/deploys"_s, secret.toLatin1()).status, 401);
        dialog->close();
    }

    void enterInTheKeysWindowCreatesExactlyOneKey()
    {
        window().findChild<QAction *>(u"keysAction"_s)->trigger();
        KeysDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = openDialog<KeysDialog>(&window())));
        QVERIFY(berth::test::waitUntilActive(dialog));
        auto *label = dialog->findChild<QLineEdit *>(u"labelLineEdit"_s);
        QCOMPARE(QApplication::focusWidget(), label); // typing names the new key at once
        const int before = m_dashboard->engine().accounts().keys(m_dashboard->owner().id).size();

        QTest::keyClicks(QApplication::focusWidget(), u"deploy script"_s);
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
        const QList<ApiKey> keys = m_dashboard->engine().accounts().keys(m_dashboard->owner().id);
        QCOMPARE(keys.size(), before + 1);
        QCOMPARE(keys.constFirst().label, u"deploy script"_s);
        const QString secret = dialog->findChild<QLineEdit *>(u"secretLineEdit"_s)->text();
        QCOMPARE(m_dashboard->client().api("GET", u"/deploys"_s, secret.toLatin1()).status, 200);
        QVERIFY(dialog->findChild<QLabel *>(u"secretLabel"_s)->text().contains(u"“deploy script”"_s));

        auto *tree = dialog->findChild<QTreeWidget *>(u"keysTreeWidget"_s);
        tree->setCurrentItem(tree->topLevelItem(0));
        window().prompter().setNextAnswer(QMessageBox::Yes);
        QTest::mouseClick(dialog->findChild<QPushButton *>(u"revokeKeyButton"_s), Qt::LeftButton);
        QVERIFY(tree->topLevelItem(0)->isDisabled());
        // The labelled key was the one shown: revoking it ends that secret, and the window forgets it.
        QCOMPARE(m_dashboard->client().api("GET", u"/deploys"_s, secret.toLatin1()).status, 401);
        QVERIFY(dialog->findChild<QLineEdit *>(u"secretLineEdit"_s)->text().isEmpty());
        QVERIFY(!dialog->findChild<QLineEdit *>(u"secretLineEdit"_s)->isVisible());
        dialog->close();
    }

    void servingThreadsAreASetting()
    {
        window().findChild<QAction *>(u"settingsAction"_s)->trigger();
        SettingsDialog *dialog = openDialog<SettingsDialog>(&window());
        auto *threads = dialog->findChild<QSpinBox *>(u"servingThreadsSpinBox"_s);
        QVERIFY(threads);
        QCOMPARE(threads->value(), 0);
        QVERIFY(threads->text().startsWith(u"One per core"_s));
        threads->setValue(2);
        QTest::mouseClick(dialog->findChild<QPushButton *>(u"saveButton"_s), Qt::LeftButton);
        QVERIFY(!dialog->isVisible());
        QCOMPARE(m_dashboard->settings().servingThreads(), 2);
        QCOMPARE(m_dashboard->settings().engineSettings().servingThreads, 2);
    }

    void appearanceCanBeDarkAndBackToTheSystem()
    {
        const QPalette system = QApplication::palette();
        const QString systemStyle = QApplication::style()->name();
        const auto chooseAndSave = [this](const QString &name) {
            window().findChild<QAction *>(u"settingsAction"_s)->trigger();
            SettingsDialog *dialog = openDialog<SettingsDialog>(&window());
            auto *combo = dialog->findChild<QComboBox *>(u"appearanceComboBox"_s);
            combo->setCurrentIndex(combo->findData(name));
            QTest::mouseClick(dialog->findChild<QPushButton *>(u"saveButton"_s), Qt::LeftButton);
            return !dialog->isVisible();
        };
        QVERIFY(chooseAndSave(u"dark"_s));
        QCOMPARE(m_dashboard->settings().appearance(), u"dark"_s);
        QVERIFY(Theme::isDark(QApplication::palette()));
        QCOMPARE(QApplication::style()->name(), u"fusion"_s);
        QTRY_VERIFY(Theme::isDark(window().palette())); // the windows hear of it through the event loop
        // The icons follow: drawn in the palette's light text colour now.
        const QImage icon = Icons::icon(u"copy"_s).pixmap(32).toImage();
        int lightest = 0;
        for (int y = 0; y < icon.height(); ++y) {
            for (int x = 0; x < icon.width(); ++x) {
                if (qAlpha(icon.pixel(x, y)) > 200)
                    lightest = std::max(lightest, QColor(icon.pixel(x, y)).lightness());
            }
        }
        QVERIFY2(lightest > 200, qPrintable(QString::number(lightest)));

        QVERIFY(chooseAndSave(u"system"_s));
        QCOMPARE(QApplication::style()->name(), systemStyle);
        QCOMPARE(QApplication::palette().color(QPalette::Window), system.color(QPalette::Window));
    }

    void settingsSayWhatTheCommandLineOverrides()
    {
        const auto open = [this] {
            auto *dialog = new SettingsDialog(
                {m_dashboard->engine(), m_dashboard->owner(), m_dashboard->settings(), window().prompter()}, &window());
            dialog->setAttribute(Qt::WA_DeleteOnClose);
            dialog->show();
            return dialog;
        };
        SettingsDialog *plain = open();
        QVERIFY(!plain->findChild<QLabel *>(u"overridesLabel"_s)->isVisible());
        plain->close();

        m_dashboard->settings().setListen(u"127.0.0.1:8080"_s);
        AppSettings::Overrides overrides;
        overrides.listen = u"127.0.0.1:9123"_s;
        m_dashboard->settings().setOverrides(overrides);
        SettingsDialog *dialog = open();
        QCOMPARE(dialog->findChild<QLineEdit *>(u"listenLineEdit"_s)->text(), u"127.0.0.1:8080"_s); // the saved one
        auto *label = dialog->findChild<QLabel *>(u"overridesLabel"_s);
        QVERIFY(label->isVisible());
        QVERIFY2(label->text().contains(u"--listen 127.0.0.1:9123"_s), qPrintable(label->text()));
        dialog->close();
    }

    void settingsAreValidatedAndKept()
    {
        auto *dialog = new SettingsDialog(
            {m_dashboard->engine(), m_dashboard->owner(), m_dashboard->settings(), window().prompter()}, &window());
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
        auto *listen = dialog->findChild<QLineEdit *>(u"listenLineEdit"_s);
        retype(listen, u"somewhere:99999"_s);
        dialog->accept();
        QVERIFY(dialog->isVisible());
        QVERIFY(dialog->findChild<QLabel *>(u"messageLabel"_s)->text().contains(u"somewhere:99999"_s));

        retype(listen, u"0.0.0.0:8181"_s);
        retype(dialog->findChild<QLineEdit *>(u"siteDomainLineEdit"_s), u"sites.example.lan:8181"_s);
        window().prompter().setNextFileName(u"/srv/berth"_s);
        QTest::mouseClick(dialog->findChild<QPushButton *>(u"browseButton"_s), Qt::LeftButton);
        QCOMPARE(dialog->findChild<QLineEdit *>(u"dataDirLineEdit"_s)->text(), u"/srv/berth"_s);
        dialog->accept();
        QVERIFY(!dialog->isVisible());

        const EngineSettings saved = m_dashboard->settings().engineSettings();
        QCOMPARE(saved.listenAddress, QHostAddress(u"0.0.0.0"_s));
        QCOMPARE(saved.listenPort, quint16(8181));
        QCOMPARE(saved.siteDomain, u"sites.example.lan:8181"_s);
        QCOMPARE(saved.dataDir, u"/srv/berth"_s);
    }
};

QTEST_MAIN(TestDialogs)
#include "tst_dialogs.moc"
