// Certificates by ACME in Settings: the authority, contact, private CA and names written to the dashboard's settings
// (and so to the engine's at the next start), refused while incomplete; and the names the running engine's
// AcmeManager handles, each with its state, expiry and error, kept current while the dialog is open.
#include "domain/acme/acmemanager.h"
#include "domain/deploy/deploymentservice.h"
#include "testcertificates.h"
#include "ui/settings/settingsdialog.h"
#include "ui/widgets/translations.h"
#include "uitestsupport.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTreeWidget>

using namespace Qt::StringLiterals;
using namespace berth;
using berth::test::child;
using berth::test::Dashboard;

namespace {
const QString kLetsEncrypt = u"https://acme-v02.api.letsencrypt.org/directory"_s;
const QString kNobody = u"http://127.0.0.1:1/directory"_s; // an ACME server that is not there: orders fail
} // namespace

class TestAcmeSettings : public QObject
{
    Q_OBJECT

private:
    Translations m_translations; // English: the messages are compared
    std::unique_ptr<Dashboard> m_dashboard;

    SettingsDialog *openSettings()
    {
        auto *dialog = new SettingsDialog(
            {m_dashboard->engine(), m_dashboard->owner(), m_dashboard->settings(), m_dashboard->window().prompter()},
            &m_dashboard->window());
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
        auto *tabs = child<QTabWidget>(dialog, u"settingsTabWidget"_s);
        tabs->setCurrentWidget(child<QWidget>(dialog, u"acmeSettingsPage"_s));
        return dialog;
    }
    static void choose(QWidget *dialog, const QString &text)
    {
        auto *authority = child<QComboBox>(dialog, u"acmeAuthorityComboBox"_s);
        authority->setCurrentIndex(authority->findText(text));
        QVERIFY2(authority->currentText() == text, qPrintable(text));
    }
    static void retype(QWidget *dialog, const QString &name, const QString &text)
    {
        auto *field = child<QLineEdit>(dialog, name);
        field->clear();
        QTest::keyClicks(field, text);
    }
    static QString message(QWidget *dialog) { return child<QLabel>(dialog, u"messageLabel"_s)->text(); }
    // name -> its row's cells, from the dialog's list of names.
    static QHash<QString, QStringList> rows(QWidget *dialog)
    {
        QHash<QString, QStringList> found;
        auto *list = dialog->findChild<QTreeWidget *>(u"acmeNamesTreeWidget"_s);
        for (int i = 0; list && i < list->topLevelItemCount(); ++i) {
            QStringList cells;
            for (int column = 0; column < list->columnCount(); ++column)
                cells.append(list->topLevelItem(i)->text(column));
            found.insert(cells.constFirst(), cells);
        }
        return found;
    }
    QString giveSite(const QString &slug, const QStringList &names)
    {
        const QString id = m_dashboard->deploy(slug, {{u"index.html"_s, "site"}});
        DeployRequest request;
        request.domains = names;
        const auto future = m_dashboard->engine().deployments().update(m_dashboard->owner(), id, request);
        return QTest::qWaitFor([&] { return future.isFinished(); }, 10'000) && future.result() ? id : QString();
    }

private Q_SLOTS:
    void initTestCase() { m_translations.install(QLocale(QLocale::English, QLocale::UnitedStates)); }
    void cleanup() { m_dashboard.reset(); }

    void letsEncryptNeedsAContactAndIsSaved()
    {
        m_dashboard = std::make_unique<Dashboard>();
        QVERIFY(m_dashboard->start());
        SettingsDialog *dialog = openSettings();
        auto *directory = child<QLineEdit>(dialog, u"acmeDirectoryLineEdit"_s);
        QVERIFY(!directory->isEnabled()); // off to begin with
        QVERIFY(child<QLabel>(dialog, u"acmeOffLabel"_s)->isVisible()); // this run obtains none: no list
        QVERIFY(!dialog->findChild<QTreeWidget *>(u"acmeNamesTreeWidget"_s));

        choose(dialog, u"Let's Encrypt"_s);
        QCOMPARE(directory->text(), kLetsEncrypt);
        QVERIFY(directory->isReadOnly());
        auto *tabs = child<QTabWidget>(dialog, u"settingsTabWidget"_s);
        tabs->setCurrentIndex(0); // Save from the other tab: the refusal brings this one back
        QTest::mouseClick(child<QPushButton>(dialog, u"saveButton"_s), Qt::LeftButton);
        QVERIFY(dialog->isVisible());
        QVERIFY2(message(dialog).contains(u"contact e-mail"_s), qPrintable(message(dialog)));
        QCOMPARE(tabs->currentWidget()->objectName(), u"acmeSettingsPage"_s);
        QVERIFY(m_dashboard->settings().acmeDirectory().isEmpty()); // nothing saved

        retype(dialog, u"acmeEmailLineEdit"_s, u"ops@example.org"_s);
        QTest::mouseClick(child<QPushButton>(dialog, u"saveButton"_s), Qt::LeftButton);
        QVERIFY(!dialog->isVisible());
        const AcmeSettings acme = m_dashboard->settings().engineSettings().acme;
        QCOMPARE(acme.directoryUrl, kLetsEncrypt);
        QCOMPARE(acme.email, u"ops@example.org"_s);
        QVERIFY(acme.caFile.isEmpty());
        QVERIFY(!acme.apiAndSiteNames);
        QVERIFY(!m_dashboard->engine().acme()); // at the next start, like the other server settings
    }

    void anotherServerWithAPrivateCaAndEveryName()
    {
        m_dashboard = std::make_unique<Dashboard>();
        QVERIFY(m_dashboard->start());
        QTemporaryDir temp;
        const QString ca = temp.filePath(u"step-ca-root.pem"_s);
        QFile file(ca);
        QVERIFY(file.open(QIODevice::WriteOnly) && file.write("-----BEGIN CERTIFICATE-----\n") > 0);
        file.close();

        SettingsDialog *dialog = openSettings();
        choose(dialog, u"Another ACME server"_s);
        auto *directory = child<QLineEdit>(dialog, u"acmeDirectoryLineEdit"_s);
        QVERIFY(!directory->isReadOnly());
        retype(dialog, u"acmeDirectoryLineEdit"_s, u"ftp://ca.example.lan/acme"_s);
        retype(dialog, u"acmeEmailLineEdit"_s, u"ops@example.lan"_s);
        QTest::mouseClick(child<QPushButton>(dialog, u"saveButton"_s), Qt::LeftButton);
        QVERIFY2(message(dialog).contains(u"ftp://ca.example.lan/acme"_s), qPrintable(message(dialog)));
        retype(dialog, u"acmeDirectoryLineEdit"_s, u"https://ca.example.lan/acme/directory"_s);
        retype(dialog, u"acmeCaLineEdit"_s, temp.filePath(u"missing.pem"_s));
        QTest::mouseClick(child<QPushButton>(dialog, u"saveButton"_s), Qt::LeftButton);
        QVERIFY2(message(dialog).contains(u"missing.pem"_s), qPrintable(message(dialog)));
        m_dashboard->window().prompter().setNextFileName(ca);
        QTest::mouseClick(child<QPushButton>(dialog, u"acmeCaBrowseButton"_s), Qt::LeftButton);
        QCOMPARE(child<QLineEdit>(dialog, u"acmeCaLineEdit"_s)->text(), ca);
        child<QCheckBox>(dialog, u"acmeAllNamesCheckBox"_s)->setChecked(true);
        QTest::mouseClick(child<QPushButton>(dialog, u"saveButton"_s), Qt::LeftButton);
        QVERIFY(!dialog->isVisible());
        AcmeSettings acme = m_dashboard->settings().engineSettings().acme;
        QCOMPARE(acme.directoryUrl, u"https://ca.example.lan/acme/directory"_s);
        QCOMPARE(acme.email, u"ops@example.lan"_s);
        QCOMPARE(acme.caFile, ca);
        QVERIFY(acme.apiAndSiteNames);

        // Opened again, the fields show what was saved; None turns it off and keeps the contact for next time.
        dialog = openSettings();
        QCOMPARE(child<QComboBox>(dialog, u"acmeAuthorityComboBox"_s)->currentText(), u"Another ACME server"_s);
        QCOMPARE(
            child<QLineEdit>(dialog, u"acmeDirectoryLineEdit"_s)->text(), u"https://ca.example.lan/acme/directory"_s);
        choose(dialog, u"None: no certificates by ACME"_s);
        QTest::mouseClick(child<QPushButton>(dialog, u"saveButton"_s), Qt::LeftButton);
        QVERIFY(!dialog->isVisible());
        acme = m_dashboard->settings().engineSettings().acme;
        QVERIFY(!acme.enabled());
        QCOMPARE(m_dashboard->settings().acmeEmail(), u"ops@example.lan"_s);
    }

    void everyNameShowsItsStateAndStaysCurrent()
    {
        m_dashboard = std::make_unique<Dashboard>();
        // A certificate kept from an earlier run for one name (as ACME stores it), none for the others.
        QTemporaryDir made;
        berth::test::TestCertificates certificates;
        QVERIFY(certificates.make(made.path(), {u"docs.example.test"_s}));
        const QDir folder(QDir(m_dashboard->fixture().dataDir()).filePath(u"certificates"_s));
        QVERIFY(folder.mkpath(u"."_s));
        QVERIFY(QFile::copy(certificates.serverCert, folder.filePath(u"docs.example.test.pem"_s)));
        QVERIFY(QFile::copy(certificates.serverKey, folder.filePath(u"docs.example.test.key"_s)));
        EngineSettings settings;
        settings.acme.directoryUrl = kNobody;
        settings.acme.email = u"owner@example.test"_s;
        settings.httpsPort = 0; // with ACME the engine listens for HTTPS too: any free port, as tests run side by side
        QVERIFY(m_dashboard->start(settings));
        QVERIFY(!giveSite(u"docs-site"_s, {u"docs.example.test"_s, u"wiki.example.test"_s}).isEmpty());
        AcmeManager *acme = m_dashboard->engine().acme();
        QVERIFY(acme);
        QTRY_COMPARE(acme->status(u"wiki.example.test"_s).state, CertificateStatus::State::Failed);

        SettingsDialog *dialog = openSettings();
        QVERIFY(!dialog->findChild<QLabel *>(u"acmeOffLabel"_s));
        auto *list = child<QTreeWidget>(dialog, u"acmeNamesTreeWidget"_s);
        QVERIFY(list->isVisible());
        QStringList docs = rows(dialog).value(u"docs.example.test"_s);
        QCOMPARE(docs.value(1), u"Active"_s);
        QVERIFY2(docs.value(2) != u"–"_s && !docs.value(2).isEmpty(), qPrintable(docs.join(u" | "_s)));
        QVERIFY(docs.value(3).isEmpty());
        const QStringList wiki = rows(dialog).value(u"wiki.example.test"_s);
        QCOMPARE(wiki.value(1), u"Failed"_s);
        QCOMPARE(wiki.value(3), acme->status(u"wiki.example.test"_s).error);
        QVERIFY(!wiki.value(3).isEmpty());

        // A name given to a site while the dialog is open appears, and its order's end shows, without reopening.
        QVERIFY(!giveSite(u"blog-site"_s, {u"blog.example.test"_s}).isEmpty());
        QTRY_COMPARE(rows(dialog).value(u"blog.example.test"_s).value(1), u"Failed"_s);
        QCOMPARE(rows(dialog).size(), 3);
        dialog->reject();
    }
};

QTEST_MAIN(TestAcmeSettings)
#include "tst_acmesettings.moc"
