// The pre-publish checks in the dashboard's publish sheet: a dropped folder with every kind of problem lists each
// one, a folder that can be published anyway says so on its button and publishes, a clean folder shows no list,
// and the German dashboard lists them in German. The form: a password typed makes the site private, a folder's name
// proposes a slug that repeats no word; the answer shows the share link and a QR code, and fits its content.
#include "domain/common/passwordhasher.h"
#include "domain/deploy/deploymentservice.h"
#include "domain/deploy/slugrules.h"
#include "domain/siterules/siteaddresses.h"
#include "publishfixture.h"
#include "ui/publishing/publishdialog.h"
#include "ui/widgets/qraddress.h"
#include "ui/widgets/qrcodeview.h"
#include "ui/widgets/translations.h"
#include "uitestsupport.h"

#include <QCheckBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QScopeGuard>
#include <QStackedWidget>

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
    // A folder of these files dropped on the dashboard: its sheet once the files are read, or null.
    PublishDialog *dropReady(const QString &name, const QList<std::pair<QString, QByteArray>> &files)
    {
        const QString folder = m_files->filePath(name);
        return berth::test::writeTree(folder, files) ? dropAndWait(folder, PublishDialog::Stage::Ready) : nullptr;
    }
    static QStringList listed(PublishDialog *sheet)
    {
        QStringList lines;
        auto *list = sheet->findChild<QListWidget *>(u"issuesListWidget"_s);
        for (int i = 0; list && i < list->count(); ++i)
            lines << list->item(i)->text();
        return lines;
    }
    berth::Deployment published(PublishDialog *sheet)
    {
        return m_dashboard->engine().deployments().get(m_dashboard->owner(), sheet->deploymentId()).value();
    }
    // How much taller than its content a widget is laid out: 0 when it fits.
    static int emptyHeight(QWidget *widget)
    {
        const int needed
            = widget->hasHeightForWidth() ? widget->heightForWidth(widget->width()) : widget->sizeHint().height();
        return widget->height() - needed;
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
        PublishDialog *sheet = dropReady(u"rules-site"_s,
            {{u"index.html"_s, "<h1>Rules</h1>"}, {u"_redirects"_s, "/home / 301\n/shop /store 418\n"}});
        QVERIFY(sheet);
        QTest::mouseClick(sheet->findChild<QPushButton *>(u"publishButton"_s), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(sheet->stage(), PublishDialog::Stage::Done, 20'000);
        auto *warnings = sheet->findChild<QLabel *>(u"ruleWarningsLabel"_s);
        QVERIFY(warnings->isVisible());
        QVERIFY2(warnings->text().contains(u"_redirects line 2: unsupported status"_s), qPrintable(warnings->text()));
        sheet->accept();
    }

    void aFolderWithoutIndexIsPublishedWithAWarning()
    {
        // The pre-publish checks say it first; once published, the engine's warning says what visitors get.
        PublishDialog *sheet = dropReady(u"no-index"_s, {{u"about.html"_s, "<h1>About</h1>"}});
        QVERIFY(sheet);
        QTest::mouseClick(sheet->findChild<QPushButton *>(u"publishButton"_s), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(sheet->stage(), PublishDialog::Stage::Done, 20'000);
        auto *warnings = sheet->findChild<QLabel *>(u"ruleWarningsLabel"_s);
        QVERIFY(warnings->isVisible());
        QVERIFY2(
            warnings->text().startsWith(u"Published, with something worth fixing:"_s), qPrintable(warnings->text()));
        QVERIFY2(warnings->text().contains(u"no index.html"_s), qPrintable(warnings->text()));
        sheet->accept();
    }

    void cleanFolderShowsNoList()
    {
        PublishDialog *sheet = dropReady(u"clean"_s,
            {{u"index.html"_s, "<link rel=stylesheet href=site.css><h1>Clean</h1>"}, {u"site.css"_s, "h1{}"}});
        QVERIFY(sheet);
        QVERIFY(!sheet->findChild<QListWidget *>(u"issuesListWidget"_s)->isVisible());
        QCOMPARE(sheet->findChild<QPushButton *>(u"publishButton"_s)->text(), u"&Publish"_s);
        sheet->reject();
    }

    void aPasswordTypedMakesTheSitePrivate()
    {
        PublishDialog *sheet = dropReady(u"team-notes"_s, {{u"index.html"_s, "<h1>Notes</h1>"}});
        QVERIFY(sheet);
        QVERIFY(berth::test::waitUntilActive(sheet));
        auto *slug = sheet->findChild<QLineEdit *>(u"slugLineEdit"_s);
        auto *password = sheet->findChild<QLineEdit *>(u"passwordLineEdit"_s);
        auto *isPrivate = sheet->findChild<QCheckBox *>(u"privateCheckBox"_s);
        const QString proposed = slug->text();
        QVERIFY(!isPrivate->isChecked());

        // Clicked and typed into as a person would: the keys go where the focus is.
        QTest::mouseClick(password, Qt::LeftButton);
        QVERIFY(QApplication::focusWidget());
        QTest::keyClicks(QApplication::focusWidget(), u"tide-2026"_s);
        QCOMPARE(password->text(), u"tide-2026"_s);
        QCOMPARE(slug->text(), proposed);
        QVERIFY(isPrivate->isChecked());
        auto *hint = berth::test::child<QLabel>(sheet, u"passwordHintLabel"_s);
        QVERIFY(hint);
        QVERIFY(hint->isVisible());
        QVERIFY2(hint->text().contains(u"private"_s), qPrintable(hint->text()));
        // Nothing typed is dropped: the site cannot be turned public under a password.
        QTest::mouseClick(isPrivate, Qt::LeftButton);
        QVERIFY(isPrivate->isChecked());
        QCOMPARE(password->text(), u"tide-2026"_s);

        QTest::mouseClick(sheet->findChild<QPushButton *>(u"publishButton"_s), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(sheet->stage(), PublishDialog::Stage::Done, 20'000);
        const berth::Deployment site = published(sheet);
        QCOMPARE(site.slug, proposed);
        QVERIFY(site.isProtected);
        QVERIFY(berth::PasswordHasher::verify(site.passwordHash, u"tide-2026"_s));
        sheet->accept();
    }

    void theAnswerShowsTheShareLinkAndAQrCodeAndFits()
    {
        // A missing image makes the form tall with its findings; the answer is short and shrinks to fit.
        PublishDialog *sheet
            = dropReady(u"hidden-garden"_s, {{u"index.html"_s, "<img src=missing.png><h1>Garden</h1>"}});
        QVERIFY(sheet);
        QTest::mouseClick(sheet->findChild<QCheckBox *>(u"privateCheckBox"_s), Qt::LeftButton);
        QTest::mouseClick(sheet->findChild<QPushButton *>(u"publishButton"_s), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(sheet->stage(), PublishDialog::Stage::Done, 20'000);
        const berth::Deployment site = published(sheet);
        QVERIFY(site.isProtected);

        const QString link = m_dashboard->engine().addresses().shareUrl(site.slug, site.shareToken);
        auto *share = berth::test::child<QLineEdit>(sheet, u"shareUrlLineEdit"_s);
        QTRY_VERIFY(share->isVisible());
        QCOMPARE(share->text(), link);
        QVERIFY(berth::test::child<QPushButton>(sheet, u"copyShareLinkButton"_s)->isVisible());
        QCOMPARE(berth::test::child<QLabel>(sheet, u"urlLabel"_s)->text(),
            m_dashboard->engine().addresses().siteUrl(site.slug));
        auto *qrCode = sheet->findChild<berth::QrCodeView *>(u"qrCodeView"_s);
        QVERIFY(qrCode);
        QVERIFY(qrCode->isVisible());
        QCOMPARE(qrCode->text(), berth::qrAddress(m_dashboard->engine(), site));
        QVERIFY(qrCode->text().contains(u"_token="_s));

        // Sized to what it shows: no room left empty below the answer.
        constexpr int kMargin = 8;
        const QSize hint = sheet->sizeHint().expandedTo(sheet->minimumSize());
        QTRY_VERIFY2(qAbs(sheet->height() - hint.height()) <= kMargin,
            qPrintable(u"%1 high, its hint %2"_s.arg(sheet->height()).arg(hint.height())));
        QVERIFY2(qAbs(sheet->width() - hint.width()) <= kMargin,
            qPrintable(u"%1 wide, its hint %2"_s.arg(sheet->width()).arg(hint.width())));
        QWidget *answer = sheet->findChild<QStackedWidget *>()->currentWidget();
        QVERIFY2(emptyHeight(answer) <= kMargin, qPrintable(u"%1 pixels empty"_s.arg(emptyHeight(answer))));
        sheet->accept();
    }

    void aFolderNamedSiteIsProposedASlugWithoutRepeats()
    {
        PublishDialog *sheet = dropReady(u"site"_s, {{u"index.html"_s, "<h1>Site</h1>"}});
        QVERIFY(sheet);
        const QString slug = sheet->findChild<QLineEdit *>(u"slugLineEdit"_s)->text();
        QVERIFY2(berth::SlugRules::validate(slug).isEmpty(), qPrintable(slug));
        const QStringList words = slug.split(u'-');
        QVERIFY2(QSet<QString>(words.cbegin(), words.cend()).size() == words.size(), qPrintable(slug));
        QVERIFY2(slug.size() <= 12, qPrintable(slug));
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
