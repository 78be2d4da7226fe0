// The owner's account controls, driven through their widgets over a real engine: users with plan and usage, a plan
// change that moves the deployment limit over HTTP, revoking any key, the allow-list and sign-in codes that arrive
// live and sign in over HTTP, the sign-up and agent switches, mail settings, and plan limits edited in Settings
// that the API enforces at once.
#include "domain/accounts/accountservice.h"
#include "domain/accounts/signinpolicy.h"
#include "domain/plans/plansettings.h"
#include "domain/plans/plantable.h"
#include "storage/database.h"
#include "storage/settingsrepository.h"
#include "ui/accounts/accountsdialog.h"
#include "ui/accounts/mailpanel.h"
#include "ui/accounts/signinpanel.h"
#include "ui/accounts/userspanel.h"
#include "ui/settings/settingsdialog.h"
#include "ui/widgets/timetext.h"
#include "ui/widgets/translations.h"
#include "uitestsupport.h"

#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStatusBar>
#include <QStyleOptionButton>
#include <QTabWidget>
#include <QToolButton>
#include <QTreeWidget>

using namespace Qt::StringLiterals;
using namespace berth;
using berth::test::child;
using berth::test::Dashboard;

class TestAccountsDialog : public QObject
{
    Q_OBJECT

private:
    Translations m_translations;
    std::unique_ptr<Dashboard> m_dashboard;

    MainWindow &window() { return m_dashboard->window(); }
    Engine &engine() { return m_dashboard->engine(); }
    test::HttpTestClient &client() { return m_dashboard->client(); }

    // Opened as a person would, with its shortcut; keys go to it once it is really in front.
    AccountsDialog *open(AccountsDialog::Tab tab)
    {
        QTest::keyClick(&window(), Qt::Key_U, Qt::ControlModifier);
        AccountsDialog *dialog = nullptr;
        if (!QTest::qWaitFor([&] { return (dialog = test::openDialog<AccountsDialog>(&window())); }, 5000))
            return nullptr;
        test::waitUntilActive(dialog);
        dialog->showTab(tab);
        return dialog;
    }
    static QTreeWidgetItem *row(QTreeWidget *tree, int column, const QString &text)
    {
        for (int i = 0; i < tree->topLevelItemCount(); ++i) {
            if (tree->topLevelItem(i)->text(column) == text)
                return tree->topLevelItem(i);
        }
        return nullptr;
    }
    static void clickItem(QTreeWidget *tree, QTreeWidgetItem *item)
    {
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualItemRect(item).center());
    }
    // On the box itself: a check box wider than its text does not take clicks beside it.
    static void clickCheckBox(QCheckBox *box)
    {
        QStyleOptionButton option;
        option.initFrom(box);
        const QRect indicator = box->style()->subElementRect(QStyle::SE_CheckBoxIndicator, &option, box);
        QTest::mouseClick(box, Qt::LeftButton, {}, indicator.center());
    }
    static void retype(QLineEdit *edit, const QString &text)
    {
        edit->selectAll();
        QTest::keyClick(edit, Qt::Key_Backspace);
        QTest::keyClicks(edit, text);
    }
    int deployStatus(const QByteArray &key, const QString &slug)
    {
        return client()
            .api("POST", u"/deploy"_s, key, QJsonObject {{u"html"_s, u"<p>hi</p>"_s}, {u"slug"_s, slug}})
            .status;
    }
    User user(const QString &email) { return engine().accounts().findUserByEmail(email).value(); }

private Q_SLOTS:
    void initTestCase() { m_translations.install(QLocale(QLocale::English, QLocale::UnitedStates)); }
    void init()
    {
        m_dashboard = std::make_unique<Dashboard>();
        QVERIFY(m_dashboard->start());
    }
    void cleanup() { m_dashboard.reset(); }

    void usersShowPlanAndUsage()
    {
        const QByteArray key = m_dashboard->fixture().keyFor(u"ana@example.com"_s);
        QVERIFY(!m_dashboard->fixture().deploySite(key, u"ana-one"_s).isEmpty());
        QVERIFY(!m_dashboard->fixture().deploySite(key, u"ana-two"_s).isEmpty());
        AccountsDialog *dialog = open(AccountsDialog::Tab::Users);
        QVERIFY(dialog);
        auto *users = child<QTreeWidget>(dialog, u"usersTreeWidget"_s);
        QTreeWidgetItem *ana = row(users, UsersPanel::UserColumn, u"ana@example.com"_s);
        QVERIFY(ana);
        QCOMPARE(ana->text(UsersPanel::PlanColumn), u"Free"_s);
        QCOMPARE(ana->text(UsersPanel::DeploymentsColumn), u"2 of 5"_s);
        QCOMPARE(ana->text(UsersPanel::KeysColumn), u"1"_s);
        QVERIFY(!ana->text(UsersPanel::CreatedColumn).isEmpty());
        QVERIFY(row(users, UsersPanel::PlanColumn, u"Pro"_s)->text(UsersPanel::UserColumn).contains(u"owner"_s));

        // Live: a deployment through the API, and an agent that arrives meanwhile.
        QVERIFY(!m_dashboard->fixture().deploySite(key, u"ana-three"_s).isEmpty());
        QTRY_COMPARE(ana->text(UsersPanel::DeploymentsColumn), u"3 of 5"_s);
        QCOMPARE(client().api("POST", u"/auth/session"_s, {}).status, 200);
        QTest::keyClick(dialog, Qt::Key_F5);
        QTreeWidgetItem *agent = row(users, UsersPanel::UserColumn, u"Agent"_s);
        QVERIFY(agent);
        QCOMPARE(agent->text(UsersPanel::PlanColumn), u"Agent"_s);
        QCOMPARE(agent->text(UsersPanel::DeploymentsColumn), u"0 of 5"_s);
    }

    void changingThePlanMovesTheDeploymentLimit()
    {
        const QByteArray key = m_dashboard->fixture().keyFor(u"ben@example.com"_s);
        for (int n = 1; n <= 5; ++n)
            QCOMPARE(deployStatus(key, u"ben-site-%1"_s.arg(n)), 200);
        QCOMPARE(deployStatus(key, u"ben-site-6"_s), 403);

        AccountsDialog *dialog = open(AccountsDialog::Tab::Users);
        QVERIFY(dialog);
        auto *users = child<QTreeWidget>(dialog, u"usersTreeWidget"_s);
        QTreeWidgetItem *ben = row(users, UsersPanel::UserColumn, u"ben@example.com"_s);
        QVERIFY(ben);
        QCOMPARE(ben->text(UsersPanel::DeploymentsColumn), u"5 of 5"_s);
        clickItem(users, ben);
        auto *plan = child<QComboBox>(dialog, u"planComboBox"_s);
        QCOMPARE(plan->currentText(), u"Free"_s);
        QTest::keyClick(plan, Qt::Key_Down); // Free -> Pro, as the keyboard chooses in a closed combo box

        QCOMPARE(user(u"ben@example.com"_s).plan, u"pro"_s);
        QCOMPARE(ben->text(UsersPanel::PlanColumn), u"Pro"_s);
        QVERIFY(child<QLabel>(dialog, u"usersMessageLabel"_s)->text().contains(u"Pro"_s));
        QCOMPARE(deployStatus(key, u"ben-site-6"_s), 200);
        QTRY_COMPARE(ben->text(UsersPanel::DeploymentsColumn), u"6 of 50"_s);

        // And back: the limit is free's again.
        QTest::keyClick(plan, Qt::Key_Up);
        QCOMPARE(user(u"ben@example.com"_s).plan, u"free"_s);
        QCOMPARE(deployStatus(key, u"ben-site-7"_s), 403);
    }

    void revokingAnyKeyRefusesIt()
    {
        AccountService &accounts = engine().accounts();
        const QString cleo = accounts.ensureUser(u"cleo@example.com"_s, u"free"_s).value().id;
        const QByteArray kept = accounts.createKey(cleo, u"laptop"_s).value().secret.toLatin1();
        const QByteArray revoked = accounts.createKey(cleo, u"ci"_s).value().secret.toLatin1();
        QCOMPARE(client().api("GET", u"/deploys"_s, revoked).status, 200);

        AccountsDialog *dialog = open(AccountsDialog::Tab::Users);
        QVERIFY(dialog);
        auto *users = child<QTreeWidget>(dialog, u"usersTreeWidget"_s);
        clickItem(users, row(users, UsersPanel::UserColumn, u"cleo@example.com"_s));
        auto *keyTree = child<QTreeWidget>(dialog, u"userKeysTreeWidget"_s);
        QCOMPARE(keyTree->topLevelItemCount(), 2);
        auto *revoke = child<QToolButton>(dialog, u"revokeUserKeyButton"_s);
        QVERIFY(!revoke->isEnabled());
        QTreeWidgetItem *ci = row(keyTree, 0, u"ci"_s);
        clickItem(keyTree, ci);
        QVERIFY(revoke->isEnabled());

        window().prompter().setNextAnswer(QMessageBox::Yes);
        QTest::mouseClick(revoke, Qt::LeftButton);
        QVERIFY(window().prompter().lastMessage().contains(u"cleo@example.com"_s));
        QCOMPARE(client().api("GET", u"/deploys"_s, revoked).status, 401);
        QCOMPARE(client().api("GET", u"/deploys"_s, kept).status, 200);
        QVERIFY(ci->isDisabled());
        QVERIFY(ci->text(4).startsWith(u"Revoked"_s));
        QVERIFY(!revoke->isEnabled());
        QCOMPARE(row(users, UsersPanel::UserColumn, u"cleo@example.com"_s)->text(UsersPanel::KeysColumn), u"1"_s);

        // Cancelled, from the keyboard (Delete on the list): the key stays.
        clickItem(keyTree, row(keyTree, 0, u"laptop"_s));
        window().prompter().setNextAnswer(QMessageBox::Cancel);
        QTest::keyClick(keyTree, Qt::Key_Delete);
        QVERIFY(window().prompter().lastMessage().contains(u"“laptop”"_s));
        QCOMPARE(client().api("GET", u"/deploys"_s, kept).status, 200);
    }

    void allowListedEmailSignsInWithARelayedCode()
    {
        AccountsDialog *dialog = open(AccountsDialog::Tab::SignIn);
        QVERIFY(dialog);
        auto *email = child<QLineEdit>(dialog, u"allowEmailLineEdit"_s);
        auto *add = child<QPushButton>(dialog, u"addEmailButton"_s);
        QVERIFY(child<QLabel>(dialog, u"deliveryNoteLabel"_s)->text().contains(u"not set up"_s));
        QTest::keyClicks(email, u"dora at example"_s);
        QVERIFY(!add->isEnabled());
        retype(email, u"  Dora@Example.com "_s);
        QVERIFY(add->isEnabled());
        QTest::mouseClick(add, Qt::LeftButton);
        QVERIFY(engine().signInPolicy().isAllowListed(u"dora@example.com"_s));
        auto *allowList = child<QTreeWidget>(dialog, u"allowListTreeWidget"_s);
        QVERIFY(row(allowList, 0, u"dora@example.com"_s));
        QVERIFY(email->text().isEmpty());

        // Dora asks for a code over HTTP; it appears in the open window without a refresh.
        auto *requests = child<QTreeWidget>(dialog, u"signInRequestsTreeWidget"_s);
        QCOMPARE(requests->topLevelItemCount(), 0);
        QCOMPARE(
            client().api("POST", u"/auth/otp"_s, {}, QJsonObject {{u"email"_s, u"dora@example.com"_s}}).status, 200);
        QTRY_COMPARE(requests->topLevelItemCount(), 1);
        QTreeWidgetItem *request = requests->topLevelItem(0);
        QCOMPARE(request->text(SignInPanel::EmailColumn), u"dora@example.com"_s);
        const QString shown = request->text(SignInPanel::CodeColumn);
        QVERIFY2(QRegularExpression(u"^\\d{3} \\d{3}$"_s).match(shown).hasMatch(), qPrintable(shown));
        QCOMPARE(request->text(SignInPanel::StatusColumn), u"Pass it on"_s);
        QVERIFY2(request->text(SignInPanel::ExpiresColumn).contains(u"in 10 minutes"_s),
            qPrintable(request->text(SignInPanel::ExpiresColumn)));

        // Copy Code puts the plain code on the clipboard; with it, Dora signs in over HTTP.
        QGuiApplication::clipboard()->clear();
        QTest::mouseClick(child<QToolButton>(dialog, u"copyCodeButton"_s), Qt::LeftButton);
        const QString code = QGuiApplication::clipboard()->text();
        QCOMPARE(code, QString(shown).remove(u' '));
        QGuiApplication::clipboard()->clear();
        requests->setFocus();
        QTest::keyClick(requests, Qt::Key_C, Qt::ControlModifier); // the same from the keyboard
        QCOMPARE(QGuiApplication::clipboard()->text(), code);
        const test::TestReply verified = client().api(
            "POST", u"/auth/verify"_s, {}, QJsonObject {{u"email"_s, u"dora@example.com"_s}, {u"code"_s, code}});
        QCOMPARE(verified.status, 200);
        const QByteArray key = verified.json().value(u"api_key"_s).toString().toLatin1();
        QCOMPARE(client().api("GET", u"/deploys"_s, key).status, 200);
        // The used code leaves the list; Dora is a user now.
        QTRY_COMPARE(requests->topLevelItemCount(), 0);
        QVERIFY(!child<QAction>(dialog, u"copyCodeAction"_s)->isEnabled());
        QVERIFY(row(child<QTreeWidget>(dialog, u"usersTreeWidget"_s), UsersPanel::UserColumn, u"dora@example.com"_s));

        // Someone not on the list shows up too, without a code.
        QCOMPARE(
            client().api("POST", u"/auth/otp"_s, {}, QJsonObject {{u"email"_s, u"eve@example.com"_s}}).status, 200);
        QTRY_COMPARE(requests->topLevelItemCount(), 1);
        QCOMPARE(requests->topLevelItem(0)->text(SignInPanel::StatusColumn), u"Not allowed to sign in"_s);
        QVERIFY(requests->topLevelItem(0)->text(SignInPanel::CodeColumn).isEmpty());

        // Removing Dora from the list.
        clickItem(allowList, row(allowList, 0, u"dora@example.com"_s));
        QTest::mouseClick(child<QToolButton>(dialog, u"removeEmailButton"_s), Qt::LeftButton);
        QVERIFY(!engine().signInPolicy().isAllowListed(u"dora@example.com"_s));
        QCOMPARE(allowList->topLevelItemCount(), 0);
    }

    void switchesChangeThePolicy()
    {
        AccountsDialog *dialog = open(AccountsDialog::Tab::SignIn);
        QVERIFY(dialog);
        SignInPolicy &policy = engine().signInPolicy();
        auto *signups = child<QCheckBox>(dialog, u"signupsCheckBox"_s);
        auto *lan = child<QCheckBox>(dialog, u"lanAgentsCheckBox"_s);
        QVERIFY(!signups->isChecked());
        QVERIFY(!lan->isChecked());

        clickCheckBox(signups);
        QVERIFY(policy.signupsOpen());
        // Anyone gets a code now.
        QCOMPARE(
            client().api("POST", u"/auth/otp"_s, {}, QJsonObject {{u"email"_s, u"finn@example.com"_s}}).status, 200);
        auto *requests = child<QTreeWidget>(dialog, u"signInRequestsTreeWidget"_s);
        QTRY_COMPARE(requests->topLevelItemCount(), 1);
        QCOMPARE(requests->topLevelItem(0)->text(SignInPanel::StatusColumn), u"Pass it on"_s);

        clickCheckBox(lan);
        QCOMPARE(policy.agentSessionScope(), AgentSessionScope::Lan);
        QVERIFY(policy.allowsAgentSessionFrom(QHostAddress(u"192.168.1.20"_s)));
        QVERIFY(!policy.allowsAgentSessionFrom(QHostAddress(u"203.0.113.9"_s)));

        clickCheckBox(signups);
        clickCheckBox(lan);
        QVERIFY(!policy.signupsOpen());
        QCOMPARE(policy.agentSessionScope(), AgentSessionScope::Loopback);

        // Changed elsewhere (berthd): the window shows it when it comes back to the front.
        policy.setAgentSessionScope(AgentSessionScope::Anywhere);
        QTest::keyClick(dialog, Qt::Key_F5);
        QVERIFY(lan->isChecked());
        QVERIFY(child<QLabel>(dialog, u"agentsNoteLabel"_s)->text().contains(u"any address"_s));
    }

    void mailSettingsAreValidatedAndSaved()
    {
        AccountsDialog *dialog = open(AccountsDialog::Tab::Mail);
        QVERIFY(dialog);
        auto *host = child<QLineEdit>(dialog, u"smtpHostLineEdit"_s);
        auto *port = child<QSpinBox>(dialog, u"smtpPortSpinBox"_s);
        auto *security = child<QComboBox>(dialog, u"smtpSecurityComboBox"_s);
        auto *password = child<QLineEdit>(dialog, u"smtpPasswordLineEdit"_s);
        auto *from = child<QLineEdit>(dialog, u"smtpFromLineEdit"_s);
        auto *save = child<QPushButton>(dialog, u"saveMailButton"_s);
        auto *message = child<QLabel>(dialog, u"mailMessageLabel"_s);
        QCOMPARE(password->echoMode(), QLineEdit::Password);
        QCOMPARE(port->value(), 587);

        QTest::keyClicks(host, u"smtp.example.com"_s);
        QTest::keyClicks(child<QLineEdit>(dialog, u"smtpUserLineEdit"_s), u"berth"_s);
        QTest::keyClicks(password, u"s3cret pass"_s);
        QTest::keyClicks(from, u"not an address"_s);
        security->setCurrentIndex(security->findText(u"TLS (port 465)"_s));
        QCOMPARE(port->value(), 465); // the usual port follows the security
        QTest::mouseClick(save, Qt::LeftButton);
        QVERIFY(message->text().contains(u"sender"_s));
        QVERIFY(!engine().signInPolicy().smtp().isConfigured());

        retype(from, u"berth@example.com"_s);
        QTest::mouseClick(save, Qt::LeftButton);
        const SmtpConfig smtp = engine().signInPolicy().smtp();
        QCOMPARE(smtp.host, u"smtp.example.com"_s);
        QCOMPARE(smtp.port, 465);
        QCOMPARE(smtp.security, SmtpConfig::Security::Tls);
        QCOMPARE(smtp.user, u"berth"_s);
        QCOMPARE(smtp.password, u"s3cret pass"_s);
        QCOMPARE(smtp.from, u"berth@example.com"_s);
        QVERIFY(child<QLabel>(dialog, u"mailStatusLabel"_s)->text().contains(u"smtp.example.com:465"_s));
        QVERIFY(child<QLabel>(dialog, u"deliveryNoteLabel"_s)->text().contains(u"mailed through smtp.example.com"_s));

        // The password is masked until asked for.
        child<QAction>(dialog, u"revealPasswordAction"_s)->trigger();
        QCOMPARE(password->echoMode(), QLineEdit::Normal);

        window().prompter().setNextAnswer(QMessageBox::Yes);
        QTest::mouseClick(child<QPushButton>(dialog, u"clearMailButton"_s), Qt::LeftButton);
        QVERIFY(!engine().signInPolicy().smtp().isConfigured());
        QVERIFY(host->text().isEmpty());
    }

    void planLimitsEditedInSettingsApplyAtOnce()
    {
        const QByteArray key = m_dashboard->fixture().keyFor(u"gil@example.com"_s);
        QCOMPARE(deployStatus(key, u"gil-one"_s), 200);
        QCOMPARE(deployStatus(key, u"gil-two"_s), 200);
        AccountsDialog *accounts = open(AccountsDialog::Tab::Users);
        QVERIFY(accounts);
        auto *users = child<QTreeWidget>(accounts, u"usersTreeWidget"_s);
        QCOMPARE(
            row(users, UsersPanel::UserColumn, u"gil@example.com"_s)->text(UsersPanel::DeploymentsColumn), u"2 of 5"_s);

        window().activateWindow();
        QVERIFY(test::waitUntilActive(&window()));
        QTest::keyClick(&window(), Qt::Key_Comma, Qt::ControlModifier);
        SettingsDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = test::openDialog<SettingsDialog>(&window())));
        auto *deployments = child<QSpinBox>(dialog, u"freeDeploymentsSpinBox"_s);
        QCOMPARE(deployments->value(), 5);
        QCOMPARE(deployments->accessibleName(), u"Free: Deployments"_s);
        deployments->selectAll();
        QTest::keyClicks(deployments, u"2"_s);
        auto *perDay = child<QSpinBox>(dialog, u"proSubmissionsPerDaySpinBox"_s);
        perDay->selectAll();
        QTest::keyClicks(perDay, u"1234"_s);
        QTest::mouseClick(child<QPushButton>(dialog, u"saveButton"_s), Qt::LeftButton);
        QTRY_VERIFY(!test::openDialog<SettingsDialog>(&window()));

        QCOMPARE(engine().plans().limits(u"free"_s).deployments, 2);
        QCOMPARE(engine().plans().limits(u"pro"_s).submissionsPerDay, 1234);
        QCOMPARE(engine().plans().limits(u"agent"_s), PlanTable().limits(u"agent"_s));
        QCOMPARE(deployStatus(key, u"gil-three"_s), 403);
        QVERIFY(window().statusBar()->currentMessage().contains(u"apply now"_s));
        QCOMPARE(
            row(users, UsersPanel::UserColumn, u"gil@example.com"_s)->text(UsersPanel::DeploymentsColumn), u"2 of 2"_s);
        // Kept: the stored table, read as the next start reads it, has the new limits.
        {
            Database database(QDir(m_dashboard->fixture().dataDir()).filePath(u"berth.sqlite"_s));
            QVERIFY(database.open());
            SettingsRepository stored(database);
            PlanTable reread;
            QVERIFY(PlanSettings(stored, reread).load());
            QCOMPARE(reread.limits(u"free"_s).deployments, 2);
            QCOMPARE(reread.limits(u"pro"_s).submissionsPerDay, 1234);
        }

        // Restore Defaults puts back 5, which applies at the next Save.
        window().activateWindow();
        QVERIFY(test::waitUntilActive(&window()));
        QTest::keyClick(&window(), Qt::Key_Comma, Qt::ControlModifier);
        QTRY_VERIFY((dialog = test::openDialog<SettingsDialog>(&window())));
        QCOMPARE(child<QSpinBox>(dialog, u"freeDeploymentsSpinBox"_s)->value(), 2);
        QTest::mouseClick(child<QPushButton>(dialog, u"defaultLimitsButton"_s), Qt::LeftButton);
        QCOMPARE(child<QSpinBox>(dialog, u"freeDeploymentsSpinBox"_s)->value(), 5);
        QCOMPARE(engine().plans().limits(u"free"_s).deployments, 2);
        QTest::mouseClick(child<QPushButton>(dialog, u"saveButton"_s), Qt::LeftButton);
        QTRY_VERIFY(!test::openDialog<SettingsDialog>(&window()));
        QCOMPARE(engine().plans().limits(u"free"_s).deployments, 5);
        QCOMPARE(deployStatus(key, u"gil-three"_s), 200);
    }

    void reachableAndNamed()
    {
        QAction *action = window().findChild<QAction *>(u"accountsAction"_s);
        QVERIFY(action);
        QCOMPARE(action->shortcut(), QKeySequence(u"Ctrl+U"_s));
        AccountsDialog *dialog = open(AccountsDialog::Tab::Users);
        QVERIFY(dialog);
        QCOMPARE(window().showAccounts(), dialog); // one window, brought to the front
        for (const auto tab : {AccountsDialog::Tab::Users, AccountsDialog::Tab::SignIn, AccountsDialog::Tab::Mail}) {
            dialog->showTab(tab);
            const QStringList unnamed = test::unnamedControls(dialog);
            QVERIFY2(unnamed.isEmpty(), qPrintable(unnamed.join(u", "_s)));
        }
        // Tab goes down the mail form in reading order.
        dialog->showTab(AccountsDialog::Tab::Mail);
        child<QLineEdit>(dialog, u"smtpHostLineEdit"_s)->setFocus();
        QStringList order;
        for (int i = 0; i < 6; ++i) {
            QWidget *focus = QApplication::focusWidget();
            if (qobject_cast<QAbstractSpinBox *>(focus->parentWidget())) // a spin box's own line edit
                focus = focus->parentWidget();
            order.append(focus->objectName());
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        }
        QCOMPARE(order,
            (QStringList {u"smtpHostLineEdit"_s, u"smtpPortSpinBox"_s, u"smtpSecurityComboBox"_s, u"smtpUserLineEdit"_s,
                u"smtpPasswordLineEdit"_s, u"smtpFromLineEdit"_s}));
    }

    void relativeTimes()
    {
        const QDateTime now(QDate(2026, 3, 2), QTime(9, 0), Qt::UTC);
        QCOMPARE(TimeText::relative(now.addSecs(600), now), u"in 10 minutes"_s);
        QCOMPARE(TimeText::relative(now.addSecs(-60), now), u"1 minute ago"_s);
        QCOMPARE(TimeText::relative(now.addSecs(10), now), u"in a few seconds"_s);
        QCOMPARE(TimeText::relative(now.addSecs(-5), now), u"just now"_s);
        QCOMPARE(TimeText::relative(now.addSecs(-3 * 3600), now), u"3 hours ago"_s);
        QCOMPARE(TimeText::relative(now.addDays(2), now), u"in 2 days"_s);
    }
};

QTEST_MAIN(TestAccountsDialog)
#include "tst_accountsdialog.moc"
