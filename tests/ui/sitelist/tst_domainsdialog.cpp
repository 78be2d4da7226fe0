// A site's custom domains in Edit Details, driven through the dialog's widgets: a name added there serves the site
// over HTTP with that Host, a name another site holds or the rules refuse is said inline and changes nothing, a
// removed name is free for another site, at most ten, the owner's policy for other users, and each name's certificate
// while ACME is on.
#include "domain/accounts/accountservice.h"
#include "domain/deploy/customdomainservice.h"
#include "domain/deploy/deploymentlimits.h"
#include "domain/deploy/deploymentservice.h"
#include "ui/sitelist/deploymentactions.h"
#include "ui/sitelist/editdetailsdialog.h"
#include "ui/widgets/translations.h"
#include "uitestsupport.h"

#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTreeWidget>

using namespace Qt::StringLiterals;
using namespace berth;
using berth::test::child;
using berth::test::Dashboard;
using berth::test::openDialog;
using berth::test::TestReply;

class TestDomainsDialog : public QObject
{
    Q_OBJECT

private:
    Translations m_translations; // English: the messages are compared
    std::unique_ptr<Dashboard> m_dashboard;

    MainWindow &window() { return m_dashboard->window(); }
    CustomDomainService &domains() { return m_dashboard->engine().customDomains(); }

    // The site's page as a browser sends for the name: GET / with Host name:port.
    TestReply visit(const QString &name)
    {
        auto &client = m_dashboard->client();
        return client.request("GET", u"%1:%2"_s.arg(name).arg(client.port()), u"/"_s);
    }
    EditDetailsDialog *openDetails(const QString &id)
    {
        m_dashboard->select(id);
        window().actions().editDetailsAction->trigger();
        EditDetailsDialog *dialog = nullptr;
        return QTest::qWaitFor([&] { return (dialog = openDialog<EditDetailsDialog>(&window())); }, 5000) ? dialog
                                                                                                          : nullptr;
    }
    static QStringList listed(QWidget *dialog)
    {
        QStringList names;
        auto *list = child<QTreeWidget>(dialog, u"domainsTreeWidget"_s);
        for (int i = 0; list && i < list->topLevelItemCount(); ++i)
            names.append(list->topLevelItem(i)->text(0));
        return names;
    }
    static void type(QWidget *dialog, const QString &name)
    {
        auto *field = child<QLineEdit>(dialog, u"domainLineEdit"_s);
        field->clear();
        QTest::keyClicks(field, name);
    }
    static QString message(QWidget *dialog)
    {
        auto *label = child<QLabel>(dialog, u"domainMessageLabel"_s);
        return label->isVisible() ? label->text() : QString();
    }
    // The names given to the site through the engine, as the API's PUT would.
    bool give(const QString &id, const QStringList &names)
    {
        DeployRequest request;
        request.domains = names;
        const auto future = m_dashboard->engine().deployments().update(m_dashboard->owner(), id, request);
        return QTest::qWaitFor([&] { return future.isFinished(); }, 10'000) && future.result();
    }

private Q_SLOTS:
    void initTestCase() { m_translations.install(QLocale(QLocale::English, QLocale::UnitedStates)); }
    void init()
    {
        m_dashboard = std::make_unique<Dashboard>();
        QVERIFY(m_dashboard->start());
    }
    void cleanup() { m_dashboard.reset(); }

    void aDomainAddedInTheDialogServesTheSite()
    {
        const QString id = m_dashboard->deploy(u"team-docs"_s, {{u"index.html"_s, "<h1>Team docs</h1>"}});
        QVERIFY(!id.isEmpty());
        QVERIFY(visit(u"docs.example.org"_s).status != 200);
        EditDetailsDialog *dialog = openDetails(id);
        QVERIFY(dialog);
        QVERIFY(listed(dialog).isEmpty());
        type(dialog, u"Docs.Example.org"_s);
        QTest::mouseClick(child<QPushButton>(dialog, u"addDomainButton"_s), Qt::LeftButton);
        QCOMPARE(listed(dialog), QStringList {u"docs.example.org"_s}); // as the engine stores it
        QVERIFY(child<QLineEdit>(dialog, u"domainLineEdit"_s)->text().isEmpty());
        QVERIFY(domains().namesOf(id).isEmpty()); // nothing is stored before Save
        QVERIFY(visit(u"docs.example.org"_s).status != 200);

        QTest::mouseClick(child<QPushButton>(dialog, u"saveButton"_s), Qt::LeftButton);
        QTRY_VERIFY(!openDialog<EditDetailsDialog>(&window()));
        QCOMPARE(domains().namesOf(id), QStringList {u"docs.example.org"_s});
        const TestReply page = visit(u"docs.example.org"_s);
        QCOMPARE(page.status, 200);
        QCOMPARE(page.body, QByteArray("<h1>Team docs</h1>"));

        // Opened again, the dialog lists the stored name.
        dialog = openDetails(id);
        QVERIFY(dialog);
        QCOMPARE(listed(dialog), QStringList {u"docs.example.org"_s});
        dialog->reject();
    }

    void enterInTheFieldAddsTheNameAndDoesNotSave()
    {
        const QString id = m_dashboard->deploy(u"enter-site"_s, {{u"index.html"_s, "enter"}});
        EditDetailsDialog *dialog = openDetails(id);
        QVERIFY(dialog);
        type(dialog, u"wiki.example.org"_s);
        QTest::keyClick(child<QLineEdit>(dialog, u"domainLineEdit"_s), Qt::Key_Return);
        QVERIFY(dialog->isVisible());
        QCOMPARE(listed(dialog), QStringList {u"wiki.example.org"_s});
        QVERIFY(domains().namesOf(id).isEmpty());
        dialog->reject();
        QVERIFY(domains().namesOf(id).isEmpty()); // Cancel keeps nothing
    }

    void aTakenNameIsSaidAndChangesNothing()
    {
        const QString holder = m_dashboard->deploy(u"holder-site"_s, {{u"index.html"_s, "holder"}});
        const QString other = m_dashboard->deploy(u"other-site"_s, {{u"index.html"_s, "other"}});
        QVERIFY(give(holder, {u"docs.example.org"_s}));
        EditDetailsDialog *dialog = openDetails(other);
        QVERIFY(dialog);
        type(dialog, u"docs.example.org"_s);
        QTest::mouseClick(child<QPushButton>(dialog, u"addDomainButton"_s), Qt::LeftButton);
        QVERIFY2(message(dialog).contains(u"already in use"_s), qPrintable(message(dialog)));
        QVERIFY(listed(dialog).isEmpty());
        QCOMPARE(child<QLineEdit>(dialog, u"domainLineEdit"_s)->text(), u"docs.example.org"_s); // to correct
        QTest::mouseClick(child<QPushButton>(dialog, u"saveButton"_s), Qt::LeftButton);
        QTRY_VERIFY(!openDialog<EditDetailsDialog>(&window()));
        QVERIFY(domains().namesOf(other).isEmpty());
        QCOMPARE(domains().namesOf(holder), QStringList {u"docs.example.org"_s});
        QCOMPARE(visit(u"docs.example.org"_s).body, QByteArray("holder"));
    }

    void aNameTakenWhileTheDialogIsOpenIsRefusedAtSave()
    {
        const QString first = m_dashboard->deploy(u"first-site"_s, {{u"index.html"_s, "first"}});
        const QString second = m_dashboard->deploy(u"second-site"_s, {{u"index.html"_s, "second"}});
        EditDetailsDialog *dialog = openDetails(first);
        QVERIFY(dialog);
        type(dialog, u"race.example.org"_s);
        QTest::mouseClick(child<QPushButton>(dialog, u"addDomainButton"_s), Qt::LeftButton);
        QCOMPARE(listed(dialog), QStringList {u"race.example.org"_s});
        QVERIFY(give(second, {u"race.example.org"_s})); // through the API, meanwhile
        QTest::mouseClick(child<QPushButton>(dialog, u"saveButton"_s), Qt::LeftButton);
        auto *messageLabel = child<QLabel>(dialog, u"messageLabel"_s);
        QTRY_VERIFY(messageLabel->isVisible());
        QVERIFY2(messageLabel->text().contains(u"already in use"_s), qPrintable(messageLabel->text()));
        QVERIFY(dialog->isVisible());
        QVERIFY(domains().namesOf(first).isEmpty());
        QCOMPARE(visit(u"race.example.org"_s).body, QByteArray("second"));
        dialog->reject();
    }

    void aNameTheRulesRefuseSaysWhich()
    {
        const QString id = m_dashboard->deploy(u"rules-site"_s, {{u"index.html"_s, "rules"}});
        EditDetailsDialog *dialog = openDetails(id);
        QVERIFY(dialog);
        for (const QString &refused : {u"*.example.org"_s, u"192.0.2.10"_s, u"intranet"_s}) {
            type(dialog, refused);
            QTest::mouseClick(child<QPushButton>(dialog, u"addDomainButton"_s), Qt::LeftButton);
            QVERIFY2(!message(dialog).isEmpty(), qPrintable(refused));
            QVERIFY(listed(dialog).isEmpty());
        }
        type(dialog, u"*.example.org"_s);
        QTest::mouseClick(child<QPushButton>(dialog, u"addDomainButton"_s), Qt::LeftButton);
        QVERIFY2(message(dialog).contains(u"Wildcard"_s), qPrintable(message(dialog)));
        dialog->reject();
    }

    void removingANameFreesIt()
    {
        const QString holder = m_dashboard->deploy(u"holder-site"_s, {{u"index.html"_s, "holder"}});
        const QString next = m_dashboard->deploy(u"next-site"_s, {{u"index.html"_s, "next"}});
        QVERIFY(give(holder, {u"docs.example.org"_s, u"wiki.example.org"_s}));
        EditDetailsDialog *dialog = openDetails(holder);
        QVERIFY(dialog);
        auto *list = child<QTreeWidget>(dialog, u"domainsTreeWidget"_s);
        auto *remove = child<QPushButton>(dialog, u"removeDomainButton"_s);
        QVERIFY(!remove->isEnabled()); // nothing chosen yet
        list->setCurrentItem(list->topLevelItem(0));
        QCOMPARE(list->currentItem()->text(0), u"docs.example.org"_s);
        QTest::mouseClick(remove, Qt::LeftButton);
        QCOMPARE(listed(dialog), QStringList {u"wiki.example.org"_s});
        QCOMPARE(visit(u"docs.example.org"_s).body, QByteArray("holder")); // until Save
        QTest::mouseClick(child<QPushButton>(dialog, u"saveButton"_s), Qt::LeftButton);
        QTRY_VERIFY(!openDialog<EditDetailsDialog>(&window()));
        QCOMPARE(domains().namesOf(holder), QStringList {u"wiki.example.org"_s});
        QVERIFY(visit(u"docs.example.org"_s).status != 200);

        // Free: another site takes it in its own dialog.
        dialog = openDetails(next);
        QVERIFY(dialog);
        type(dialog, u"docs.example.org"_s);
        QTest::mouseClick(child<QPushButton>(dialog, u"addDomainButton"_s), Qt::LeftButton);
        QCOMPARE(listed(dialog), QStringList {u"docs.example.org"_s});
        QTest::mouseClick(child<QPushButton>(dialog, u"saveButton"_s), Qt::LeftButton);
        QTRY_VERIFY(!openDialog<EditDetailsDialog>(&window()));
        QCOMPARE(visit(u"docs.example.org"_s).body, QByteArray("next"));
    }

    void atMostTenNames()
    {
        const QString id = m_dashboard->deploy(u"many-names"_s, {{u"index.html"_s, "many"}});
        EditDetailsDialog *dialog = openDetails(id);
        QVERIFY(dialog);
        auto *field = child<QLineEdit>(dialog, u"domainLineEdit"_s);
        for (int i = 0; i < kMaxDomainsPerSite; ++i) {
            QVERIFY(field->isEnabled());
            type(dialog, u"name%1.example.org"_s.arg(i));
            QTest::keyClick(field, Qt::Key_Return);
        }
        QCOMPARE(listed(dialog).size(), kMaxDomainsPerSite);
        QVERIFY(!field->isEnabled());
        QVERIFY(!child<QPushButton>(dialog, u"addDomainButton"_s)->isEnabled());
        QVERIFY2(message(dialog).contains(u"at most 10"_s), qPrintable(message(dialog)));
        QTest::mouseClick(child<QPushButton>(dialog, u"saveButton"_s), Qt::LeftButton);
        QTRY_VERIFY(!openDialog<EditDetailsDialog>(&window()));
        QCOMPARE(domains().namesOf(id).size(), kMaxDomainsPerSite);
        QCOMPARE(visit(u"name9.example.org"_s).body, QByteArray("many"));
    }

    void anotherUserIsToldWhyWhileThePolicyKeepsDomainsToTheOwner()
    {
        const Result<User> ana = m_dashboard->engine().accounts().ensureUser(u"ana@example.com"_s, u"free"_s);
        QVERIFY(ana);
        DeployRequest request;
        request.slug = u"ana-site"_s;
        request.html = u"<p>Ana</p>"_s;
        const auto created = m_dashboard->engine().deployments().create(ana.value(), request);
        QTRY_VERIFY(created.isFinished());
        QVERIFY(created.result());
        const DashboardContext context {
            m_dashboard->engine(), ana.value(), m_dashboard->settings(), window().prompter()};
        {
            EditDetailsDialog dialog(context, created.result().value(), &window());
            dialog.show();
            QVERIFY(!dialog.findChild<QLineEdit *>(u"domainLineEdit"_s));
            auto *why = child<QLabel>(&dialog, u"domainPolicyLabel"_s);
            QVERIFY(why && why->isVisible());
            QVERIFY2(why->text().contains(u"berthd domains policy everyone"_s), qPrintable(why->text()));
        }
        QVERIFY(domains().policy().set(DomainPolicy::Who::Everyone));
        EditDetailsDialog dialog(context, created.result().value(), &window());
        dialog.show();
        QVERIFY(!dialog.findChild<QLabel *>(u"domainPolicyLabel"_s));
        type(&dialog, u"ana.example.org"_s);
        QTest::mouseClick(child<QPushButton>(&dialog, u"addDomainButton"_s), Qt::LeftButton);
        QCOMPARE(listed(&dialog), QStringList {u"ana.example.org"_s});
        QTest::mouseClick(child<QPushButton>(&dialog, u"saveButton"_s), Qt::LeftButton);
        QTRY_VERIFY(!dialog.isVisible());
        const TestReply page = visit(u"ana.example.org"_s);
        QCOMPARE(page.status, 200);
        QVERIFY(page.body.contains("<p>Ana</p>"));
    }

    void eachNameShowsItsCertificateWhileAcmeIsOn()
    {
        // An ACME server nobody answers at: every order fails, and the dialog says so for the name.
        m_dashboard = std::make_unique<Dashboard>();
        EngineSettings settings;
        settings.acme.directoryUrl = u"http://127.0.0.1:1/directory"_s;
        settings.acme.email = u"owner@example.org"_s;
        settings.httpsPort = 0; // with ACME the engine listens for HTTPS too: any free port, as tests run side by side
        QVERIFY(m_dashboard->start(settings));
        const QString id = m_dashboard->deploy(u"cert-site"_s, {{u"index.html"_s, "cert"}});
        EditDetailsDialog *dialog = openDetails(id);
        QVERIFY(dialog);
        auto *list = child<QTreeWidget>(dialog, u"domainsTreeWidget"_s);
        QCOMPARE(list->columnCount(), 4);
        QCOMPARE(list->headerItem()->text(1), u"Certificate"_s);
        type(dialog, u"cert.example.org"_s);
        QTest::mouseClick(child<QPushButton>(dialog, u"addDomainButton"_s), Qt::LeftButton);
        QCOMPARE(list->topLevelItem(0)->text(1), u"None yet"_s); // not ordered before it is saved
        dialog->reject();
        QVERIFY(give(id, {u"cert.example.org"_s}));

        dialog = openDetails(id);
        QVERIFY(dialog);
        list = child<QTreeWidget>(dialog, u"domainsTreeWidget"_s);
        QCOMPARE(listed(dialog), QStringList {u"cert.example.org"_s});
        QTRY_COMPARE(list->topLevelItem(0)->text(1), u"Failed"_s);
        QVERIFY(!list->topLevelItem(0)->text(3).isEmpty()); // why
        QVERIFY(list->topLevelItem(0)->toolTip(0).contains(list->topLevelItem(0)->text(3)));
        dialog->reject();
    }
};

QTEST_MAIN(TestDomainsDialog)
#include "tst_domainsdialog.moc"
