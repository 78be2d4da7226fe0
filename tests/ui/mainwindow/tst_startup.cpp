// Starting the dashboard: one data folder belongs to one process, a second `berth` brings the first
// forward, a failure to start says what failed and offers a way out that works, and HTTPS set in Settings
// applies at the next start.
#include "deviceget.h"
#include "instance/datadirlock.h"
#include "instance/engine.h"
#include "testcertificates.h"
#include "ui/mainwindow/instancechannel.h"
#include "ui/mainwindow/mainwindow.h"
#include "ui/mainwindow/startup.h"
#include "ui/settings/appsettings.h"
#include "ui/settings/settingsdialog.h"
#include "ui/sitelist/deploymenttablemodel.h"
#include "ui/widgets/prompter.h"
#include "ui/widgets/translations.h"
#include "uitestsupport.h"

#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTcpServer>

using namespace Qt::StringLiterals;
using namespace berth;

class TestStartup : public QObject
{
    Q_OBJECT

private:
    Translations m_translations;
    std::unique_ptr<QTemporaryDir> m_dir;

    QString path(const QString &name) const { return m_dir->filePath(name); }
    // Saved settings of their own, serving on a free port from dataDir.
    std::unique_ptr<AppSettings> settingsFor(const QString &name, const QString &dataDir)
    {
        auto settings = std::make_unique<AppSettings>(path(name + u".conf"_s));
        settings->setListen(u"127.0.0.1:0"_s);
        settings->setDataDir(dataDir);
        settings->setKeepServingInTray(false);
        return settings;
    }

private Q_SLOTS:
    void initTestCase() { m_translations.install(QLocale(QLocale::English, QLocale::UnitedStates)); }
    void init() { m_dir = std::make_unique<QTemporaryDir>(); }
    void cleanup() { m_dir.reset(); }

    void aDataFolderIsLockedByOneHolderAtATime()
    {
        const QString data = path(u"data"_s);
        auto first = std::make_unique<DataDirLock>(data);
        QVERIFY(first->tryLock());
        DataDirLock second(data);
        QVERIFY(!second.tryLock());
        QCOMPARE(second.holderPid(), QCoreApplication::applicationPid());
        QVERIFY2(
            second.error().contains(u"pid %1"_s.arg(QCoreApplication::applicationPid())), qPrintable(second.error()));
        QVERIFY(second.error().contains(data));
        first.reset();
        QVERIFY(second.tryLock()); // released with its holder
    }

    void aSecondBerthBringsTheFirstForward()
    {
        const QString data = path(u"data"_s);
        const auto settings = settingsFor(u"first"_s, data);
        Prompter prompter;
        Startup first(*settings, {}, prompter);
        QCOMPARE(first.run(), Startup::Outcome::Started);
        MainWindow window(*first.engine(), *settings);
        connect(first.channel(), &InstanceChannel::raiseRequested, &window, &MainWindow::bringToFront);
        QVERIFY(!window.isVisible());

        // Another Berth with its own settings, told the same data folder on its command line.
        const auto otherSettings = settingsFor(u"second"_s, path(u"elsewhere"_s));
        Prompter otherPrompter;
        otherPrompter.setNextChoice(Startup::label(Startup::QuitBerth)); // would fail the test below, were it asked
        Startup::Overrides overrides;
        overrides.dataDir = data + u"/"_s; // the same folder, spelled otherwise
        Startup second(*otherSettings, overrides, otherPrompter);
        QCOMPARE(second.run(), Startup::Outcome::RaisedOther);
        QVERIFY(!second.engine());
        QTRY_VERIFY(window.isVisible());
        QVERIFY(otherPrompter.lastMessage().isEmpty()); // nobody was asked anything
    }

    void dataFolderInUseByAnotherProgramSaysWhichAndOffersAnother()
    {
        const QString data = path(u"data"_s);
        DataDirLock server(data); // as berthd would hold it: no window to raise
        QVERIFY(server.tryLock());
        const auto settings = settingsFor(u"dashboard"_s, data);
        Prompter prompter;
        prompter.setNextChoice(Startup::label(Startup::ChooseDataFolder));
        prompter.setNextFileName(path(u"mine"_s));
        Startup startup(*settings, {}, prompter);
        QCOMPARE(startup.run(), Startup::Outcome::Started);
        QVERIFY2(prompter.lastMessage().contains(u"process %1"_s.arg(QCoreApplication::applicationPid())),
            qPrintable(prompter.lastMessage()));
        QCOMPARE(startup.engine()->dataDir(), path(u"mine"_s));
        QCOMPARE(settings->dataDir(), path(u"mine"_s)); // the next start uses it too
    }

    // A data folder that another program holds has nothing to do with ports or settings: only what helps is offered.
    void dataFolderInUseOffersOnlyWhatApplies()
    {
        const QString data = path(u"data"_s);
        DataDirLock server(data);
        QVERIFY(server.tryLock());
        const auto settings = settingsFor(u"dashboard"_s, data);
        Prompter prompter;
        prompter.setNextChoice(-1); // the box closed: as Quit
        Startup startup(*settings, {}, prompter);
        QCOMPARE(startup.run(), Startup::Outcome::Quit);
        const QStringList offered = prompter.lastChoices();
        QVERIFY2(offered.contains(u"Choose &Data Folder…"_s), qPrintable(offered.join(u", "_s)));
        QVERIFY2(offered.contains(u"&Quit"_s), qPrintable(offered.join(u", "_s)));
        for (const QString &unrelated : {u"Use Another &Port…"_s, u"&Settings…"_s})
            QVERIFY2(!offered.contains(unrelated), qPrintable(offered.join(u", "_s)));
    }

    void portInUseOffersAnotherPort()
    {
        QTcpServer occupant;
        QVERIFY(occupant.listen(QHostAddress::LocalHost));
        const auto settings = settingsFor(u"dashboard"_s, path(u"data"_s));
        const QString busy = u"127.0.0.1:%1"_s.arg(occupant.serverPort());
        settings->setListen(busy);
        Prompter prompter;
        prompter.setNextChoice(Startup::label(Startup::AnotherPort));
        prompter.setNextNumber(0);
        Startup startup(*settings, {}, prompter);
        QCOMPARE(startup.run(), Startup::Outcome::Started);
        QVERIFY2(prompter.lastMessage().contains(u"cannot listen on "_s + busy), qPrintable(prompter.lastMessage()));
        QVERIFY(startup.engine()->port() != occupant.serverPort());
        QCOMPARE(settings->listen(), u"127.0.0.1:0"_s);
    }

    void aBadCommandLinePortIsReplacedForThisRunOnly()
    {
        QTcpServer occupant;
        QVERIFY(occupant.listen(QHostAddress::LocalHost));
        const auto settings = settingsFor(u"dashboard"_s, path(u"data"_s));
        settings->setListen(u"127.0.0.1:8123"_s);
        Prompter prompter;
        prompter.setNextChoice(Startup::label(Startup::AnotherPort));
        prompter.setNextNumber(0);
        Startup::Overrides overrides;
        overrides.listen = u"127.0.0.1:%1"_s.arg(occupant.serverPort());
        Startup startup(*settings, overrides, prompter);
        QCOMPARE(startup.run(), Startup::Outcome::Started);
        QCOMPARE(settings->listen(), u"127.0.0.1:8123"_s); // the saved value was not the one that failed
    }

    void unusableDataFolderOffersSettings()
    {
        QVERIFY(berth::test::writeTree(m_dir->path(), {{u"not-a-folder"_s, "x"}}));
        const auto settings = settingsFor(u"dashboard"_s, path(u"not-a-folder"_s));
        Prompter prompter;
        prompter.setNextChoice(Startup::label(Startup::OpenSettings));
        bool sawSettings = false;
        bool sawPlanLimits = true;
        prompter.setDialogHandler([&](QDialog *dialog) {
            sawSettings = qobject_cast<SettingsDialog *>(dialog) != nullptr;
            sawPlanLimits = dialog->findChild<QWidget *>(u"planLimitsGroupBox"_s) != nullptr;
            auto *dataDir = berth::test::child<QLineEdit>(dialog, u"dataDirLineEdit"_s);
            dataDir->setText(path(u"fixed"_s));
            QTest::mouseClick(berth::test::child<QPushButton>(dialog, u"saveButton"_s), Qt::LeftButton);
            return dialog->result();
        });
        Startup startup(*settings, {}, prompter);
        QCOMPARE(startup.run(), Startup::Outcome::Started);
        QVERIFY(sawSettings);
        QVERIFY(!sawPlanLimits); // the plans live in the data, which is not open yet
        QVERIFY2(prompter.lastMessage().contains(u"cannot use the data folder"_s), qPrintable(prompter.lastMessage()));
        QCOMPARE(startup.engine()->dataDir(), path(u"fixed"_s));
    }

    // HTTPS is set in Settings (the certificate and key chosen through the dialog's file pickers) and applies when
    // Berth next starts, as app/berth builds its engine: here after a start that failed on a wrong key.
    void httpsFilesFromSettingsApplyAtTheNextStart()
    {
        berth::test::TestCertificates certs;
        QVERIFY(certs.make(m_dir->path(), {u"localhost"_s}));
        const auto settings = settingsFor(u"dashboard"_s, path(u"data"_s));
        settings->setTlsCertFile(certs.serverCert);
        settings->setTlsKeyFile(certs.otherKey); // not the certificate's: the engine refuses to start
        settings->setHttpsPort(0);
        Prompter prompter;
        prompter.setNextChoice(Startup::label(Startup::OpenSettings));
        prompter.setNextChoice(Startup::label(Startup::QuitBerth)); // would fail the test, were it asked
        prompter.setNextFileName(certs.serverCert);
        prompter.setNextFileName(certs.serverKey);
        QString refusal;
        prompter.setDialogHandler([&](QDialog *dialog) {
            auto *cert = berth::test::child<QLineEdit>(dialog, u"tlsCertLineEdit"_s);
            auto *key = berth::test::child<QLineEdit>(dialog, u"tlsKeyLineEdit"_s);
            auto *save = berth::test::child<QPushButton>(dialog, u"saveButton"_s);
            if (!cert || !key || !save || key->text() != certs.otherKey)
                return int(QDialog::Rejected);
            dialog->show(); // as exec() would: the buttons on its tabs are laid out, where a click lands
            // A certificate without a key is refused on Save; the dialog stays.
            cert->clear();
            key->clear();
            QTest::mouseClick(berth::test::child<QPushButton>(dialog, u"tlsCertBrowseButton"_s), Qt::LeftButton);
            QTest::mouseClick(save, Qt::LeftButton);
            refusal = berth::test::child<QLabel>(dialog, u"messageLabel"_s)->text();
            if (dialog->result() == QDialog::Accepted || cert->text() != certs.serverCert)
                return int(QDialog::Rejected);
            QTest::mouseClick(berth::test::child<QPushButton>(dialog, u"tlsKeyBrowseButton"_s), Qt::LeftButton);
            QTest::mouseClick(save, Qt::LeftButton);
            return dialog->result();
        });
        Startup startup(*settings, {}, prompter);
        const Startup::Outcome outcome = startup.run();
        QVERIFY2(outcome == Startup::Outcome::Started, qPrintable(prompter.lastMessage() + u" / "_s + refusal));
        QVERIFY2(refusal.contains(u"both a certificate file and a private key file"_s), qPrintable(refusal));
        QCOMPARE(settings->tlsKeyFile(), certs.serverKey);
        QCOMPARE(settings->engineSettings().tlsKeyFile, certs.serverKey);
        QCOMPARE(settings->engineSettings().tlsCertFile, certs.serverCert);

        // The engine Berth started serves HTTPS with them, verified against the test's CA.
        const quint16 https = startup.engine()->httpsPort();
        QVERIFY(https != 0);
        const auto reply = berth::test::deviceGet(QUrl(u"https://localhost:%1/deploys"_s.arg(https)), {}, certs.caCert);
        QVERIFY2(reply.status == 401, qPrintable(reply.error));
    }

    // berth --database (or BERTH_DATABASE): the dashboard's engine keeps its records and sites' files in PostgreSQL.
    // A site deployed through another server on the same database is in the window's table, served from here too.
    void startsOnPostgresql()
    {
        BERTH_FRESH_POSTGRES_DATABASE(database);
        // With a password, which the test cluster (trusting its role) never asks for.
        QString url = database.url();
        url.replace(u"postgresql://berth@"_s, u"postgresql://berth:hunter2@"_s);
        {
            EngineSettings other;
            other.dataDir = path(u"other"_s);
            other.databaseUrl = url;
            other.listenPort = 0;
            Engine server(other);
            QVERIFY(server.start());
            QVERIFY(server.ownerFirstKey());
            berth::test::HttpTestClient client(server.port());
            QCOMPARE(client
                         .api("POST", u"/deploy"_s, server.ownerFirstKey()->toLatin1(),
                             QJsonObject {{u"html"_s, u"<p>shared</p>"_s}, {u"slug"_s, u"shared-site"_s}})
                         .status,
                200);
        }

        const auto settings = settingsFor(u"dashboard"_s, path(u"data"_s));
        Prompter prompter;
        prompter.setNextChoice(Startup::label(Startup::QuitBerth)); // would fail the test, were it asked
        Startup::Overrides overrides;
        overrides.database = url;
        Startup startup(*settings, overrides, prompter);
        QCOMPARE(startup.run(), Startup::Outcome::Started);
        QVERIFY2(prompter.lastMessage().isEmpty(), qPrintable(prompter.lastMessage()));
        QVERIFY(!startup.engine()->ownerFirstKey()); // the database's owner, made by the other server
        QVERIFY(!QFile::exists(path(u"data/berth.sqlite"_s)));
        MainWindow window(*startup.engine(), *settings);
        window.show();
        QTRY_COMPARE(window.model().rowCount(), 1);
        QCOMPARE(window.model().index(0, DeploymentTableModel::SlugColumn).data().toString(), u"shared-site"_s);
        berth::test::HttpTestClient client(startup.engine()->port());
        QTRY_VERIFY(client.site(u"shared-site"_s).body.contains("<p>shared</p>")); // its file from the database
    }

    // A malformed --database, or a database that cannot be reached: the start-up's failure, which names what is
    // wrong and never the URL's password, and quitting there quits.
    void unusableDatabaseSaysWhy_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("words");
        QTest::newRow("malformed") << u"postgresql://ann:hunter2@db.lan"_s
                                   << u"cannot use the database given by --database or BERTH_DATABASE: invalid "
                                      "database URL"_s;
        QTest::newRow("unreachable") << u"postgresql://ann:hunter2@localhost/berth?host=%1"_s
                                     << u"cannot use the database postgresql://ann@/berth?host="_s;
    }
    void unusableDatabaseSaysWhy()
    {
        QFETCH(QString, url);
        QFETCH(QString, words);
        const auto settings = settingsFor(u"dashboard"_s, path(u"data"_s));
        Prompter prompter;
        prompter.setNextChoice(Startup::label(Startup::Retry)); // the same failure again
        prompter.setNextChoice(Startup::label(Startup::QuitBerth));
        Startup::Overrides overrides;
        overrides.database = url.contains(u"%1"_s) ? url.arg(path(u"no-server-here"_s)) : url;
        Startup startup(*settings, overrides, prompter);
        QCOMPARE(startup.run(), Startup::Outcome::Quit);
        QVERIFY(!startup.engine());
        QVERIFY2(prompter.lastMessage().contains(words), qPrintable(prompter.lastMessage()));
        QVERIFY2(!prompter.lastMessage().contains(u"hunter2"_s), qPrintable(prompter.lastMessage()));
    }

    void givingUpQuits()
    {
        QVERIFY(berth::test::writeTree(m_dir->path(), {{u"not-a-folder"_s, "x"}}));
        const auto settings = settingsFor(u"dashboard"_s, path(u"not-a-folder"_s));
        Prompter prompter;
        prompter.setNextChoice(Startup::label(Startup::Retry)); // the same failure again
        prompter.setNextChoice(Startup::label(Startup::QuitBerth));
        Startup startup(*settings, {}, prompter);
        QCOMPARE(startup.run(), Startup::Outcome::Quit);
        QVERIFY(!startup.engine());
    }
};

QTEST_MAIN(TestStartup)
#include "tst_startup.moc"
