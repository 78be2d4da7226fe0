// The pre-publish checks in the dashboard's publish sheet: a dropped folder with every kind of problem lists each
// one, a folder that can be published anyway says so on its button and publishes, a clean folder shows no list,
// and the German dashboard lists them in German.
#include "publishfixture.h"
#include "ui/publishing/publishdialog.h"
#include "ui/widgets/translations.h"
#include "uitestsupport.h"

#include <QDir>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScopeGuard>

using namespace Qt::StringLiterals;
using berth::PublishDialog;
using berth::Translations;
using berth::test::Dashboard;

class TestPublishSheet : public QObject
{
    Q_OBJECT

private:
    Translations m_translations;
    std::unique_ptr<Dashboard> m_dashboard;
    std::unique_ptr<QTemporaryDir> m_files;

    PublishDialog *dropAndWait(const QString &folder, PublishDialog::Stage stage)
    {
        berth::test::dropPaths(&m_dashboard->window(), QPoint(200, 200), {folder});
        PublishDialog *sheet = nullptr;
        if (!QTest::qWaitFor(
                [&] { return (sheet = berth::test::openDialog<PublishDialog>(&m_dashboard->window())); }, 5000))
            return nullptr;
        if (!QTest::qWaitFor([&] { return sheet->stage() == stage; }, 20'000))
            return nullptr;
        return sheet;
    }
    static QStringList listed(PublishDialog *sheet)
    {
        QStringList lines;
        auto *list = sheet->findChild<QListWidget *>(u"issuesListWidget"_s);
        for (int i = 0; list && i < list->count(); ++i)
            lines << list->item(i)->text();
        return lines;
    }

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

    void everyProblemIsListed()
    {
        const QString folder = m_files->filePath(u"problem-site"_s);
        QVERIFY(berth::test::writeProblemFolder(folder));
        // A file over the limit: the sheet cannot publish, and still lists everything the checks found.
        PublishDialog *sheet = dropAndWait(folder, PublishDialog::Stage::Failed);
        QVERIFY(sheet);
        auto *list = sheet->findChild<QListWidget *>(u"issuesListWidget"_s);
        QVERIFY(list->isVisible());
        QVERIFY(sheet->findChild<QLabel *>(u"issuesHeadingLabel"_s)->isVisible());
        const QString all = listed(sheet).join(u'\n');
        QCOMPARE(list->count(), 8);
        for (const QString &finding : berth::test::problemFolderFindings())
            QVERIFY2(all.contains(finding), qPrintable(finding + u" not listed in:\n"_s + all));
        QVERIFY(!sheet->findChild<QPushButton *>(u"publishButton"_s)->isEnabled());
        sheet->reject();
    }

    void publishAnyway()
    {
        const QString folder = m_files->filePath(u"problem-site"_s);
        QVERIFY(berth::test::writeProblemFolder(folder));
        QVERIFY(QFile::remove(folder + u"/video/big.bin"_s)); // within the limits now: it can be published
        PublishDialog *sheet = dropAndWait(folder, PublishDialog::Stage::Ready);
        QVERIFY(sheet);
        QCOMPARE(listed(sheet).size(), 7);
        QVERIFY(listed(sheet).join(u'\n').contains(u"keys/server.pem contains a private key block"_s));
        auto *publish = sheet->findChild<QPushButton *>(u"publishButton"_s);
        QCOMPARE(publish->text(), u"Publish &Anyway"_s);
        QTest::mouseClick(publish, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(sheet->stage(), PublishDialog::Stage::Done, 20'000);
        QCOMPARE(m_dashboard->client().site(u"problem-site"_s, u"/home.html"_s).status, 200);
    }

    void skippedRuleLinesAfterPublishing()
    {
        const QString folder = m_files->filePath(u"rules-site"_s);
        QVERIFY(berth::test::writeTree(
            folder, {{u"index.html"_s, "<h1>Rules</h1>"}, {u"_redirects"_s, "/home / 301\n/shop /store 418\n"}}));
        PublishDialog *sheet = dropAndWait(folder, PublishDialog::Stage::Ready);
        QVERIFY(sheet);
        QTest::mouseClick(sheet->findChild<QPushButton *>(u"publishButton"_s), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(sheet->stage(), PublishDialog::Stage::Done, 20'000);
        auto *warnings = sheet->findChild<QLabel *>(u"ruleWarningsLabel"_s);
        QVERIFY(warnings->isVisible());
        QVERIFY2(warnings->text().contains(u"_redirects line 2: unsupported status"_s), qPrintable(warnings->text()));
        sheet->accept();
    }

    void cleanFolderShowsNoList()
    {
        const QString folder = m_files->filePath(u"clean"_s);
        QVERIFY(berth::test::writeTree(
            folder, {{u"index.html"_s, "<link rel=stylesheet href=site.css><h1>Clean</h1>"}, {u"site.css"_s, "h1{}"}}));
        PublishDialog *sheet = dropAndWait(folder, PublishDialog::Stage::Ready);
        QVERIFY(sheet);
        QVERIFY(!sheet->findChild<QListWidget *>(u"issuesListWidget"_s)->isVisible());
        QCOMPARE(sheet->findChild<QPushButton *>(u"publishButton"_s)->text(), u"&Publish"_s);
        sheet->reject();
    }

    void findingsInGerman()
    {
        // The German dashboard words the findings itself, from what the checks found and their parameters.
        // On a German system numbers are German too: "1,5 MB".
        const QLocale before;
        QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
        const auto restore = qScopeGuard([before] { QLocale::setDefault(before); });
        Translations german;
        QVERIFY(german.install(QLocale(QLocale::German, QLocale::Germany)));
        const QString folder = m_files->filePath(u"problem-site"_s);
        QVERIFY(berth::test::writeProblemFolder(folder));
        PublishDialog *sheet = dropAndWait(folder, PublishDialog::Stage::Failed);
        QVERIFY(sheet);
        const QStringList lines = listed(sheet);
        QCOMPARE(lines.size(), 8);
        const QString all = lines.join(u'\n');
        for (const QString &expected : {u"Oben im Ordner gibt es keine index.html"_s,
                 u"home.html lädt „img/missing.png“, das nicht im Ordner liegt"_s,
                 u"home.html lädt „../outside.js“, das außerhalb des Ordners liegt"_s,
                 u"keys/server.pem enthält einen privaten Schlüssel"_s,
                 u"js/app.js enthält etwas, das wie ein AWS-Zugangsschlüssel aussieht"_s,
                 u"config.env sieht wie eine Umgebungsdatei (.env) aus"_s, u"img/hero.jpg ist ein Bild von 1,5 MB"_s,
                 u"video/big.bin ist 10,0 MB groß"_s})
            QVERIFY2(all.contains(expected), qPrintable(expected + u" not listed in:\n"_s + all));
        QVERIFY2(!all.contains(u"which is"_s) && !all.contains(u"contains"_s), qPrintable(all));
        sheet->reject();
    }
};

QTEST_MAIN(TestPublishSheet)
#include "tst_publishsheet.moc"
