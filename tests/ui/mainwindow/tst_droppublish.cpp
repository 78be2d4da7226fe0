// Publishing by a drop on the main window, as a person would: real folders and files dropped on the window or on a
// site's row, the publish sheet through to its answer, a cancel, a refusal, a redeploy. Each result is checked where it
// matters: in the table, in the blob store and over HTTP on the live engine.
#include "domain/deploy/deploymentservice.h"
#include "domain/deploy/versionhistory.h"
#include "domain/siterules/siteaddresses.h"
#include "ui/publishing/publishdialog.h"
#include "ui/sitelist/deploymentactions.h"
#include "ui/sitelist/deploymenttablemodel.h"
#include "ui/sitelist/deploymenttableview.h"
#include "ui/widgets/translations.h"
#include "uitestsupport.h"

#include <QClipboard>
#include <QDirIterator>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>

using namespace Qt::StringLiterals;
using namespace berth;
using berth::test::Dashboard;

class TestDropPublish : public QObject
{
    Q_OBJECT

private:
    Translations m_translations; // English, as on most systems: the plural forms come from berth_en.ts
    std::unique_ptr<Dashboard> m_dashboard;
    std::unique_ptr<QTemporaryDir> m_files;

    MainWindow &window() { return m_dashboard->window(); }
    DeploymentTableModel &model() { return window().model(); }
    QWidget *viewport() { return window().tableView()->viewport(); }

    // A folder of 24 files of 256 KB (6 MB) and an index.html, no two alike.
    QString writeBigFolder(const QString &name)
    {
        const QString folder = m_files->filePath(name);
        QList<std::pair<QString, QByteArray>> files {{u"index.html"_s, "<title>Album</title>"}};
        for (int i = 0; i < 24; ++i)
            files.append({u"photos/%1.txt"_s.arg(i), QByteArray(256 * 1024, char('a' + i))});
        return berth::test::writeTree(folder, files) ? folder : QString();
    }
    int blobFilesOnDisk()
    {
        int count = 0;
        QDirIterator it(
            QDir(m_dashboard->fixture().dataDir()).filePath(u"blobs"_s), QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            it.next();
            ++count;
        }
        return count;
    }

    // Waits for the publish sheet, checks it read the files, publishes, and returns the new id.
    QString publishThroughSheet(const QString &slug = {})
    {
        PublishDialog *sheet = nullptr;
        if (!QTest::qWaitFor([&] { return (sheet = berth::test::openDialog<PublishDialog>(&window())); }, 5000))
            return {};
        if (!QTest::qWaitFor([&] { return sheet->stage() == PublishDialog::Stage::Ready; }, 10'000))
            return {};
        if (!slug.isEmpty()) {
            auto *edit = sheet->findChild<QLineEdit *>(u"slugLineEdit"_s);
            edit->selectAll();
            QTest::keyClicks(edit, slug);
        }
        QTest::mouseClick(sheet->findChild<QPushButton *>(u"publishButton"_s), Qt::LeftButton);
        if (!QTest::qWaitFor([&] { return sheet->stage() == PublishDialog::Stage::Done; }, 10'000))
            return {};
        return sheet->deploymentId();
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

    void linksOutOfADroppedFolderAreLeftOutAndSaid()
    {
        const QString folder = m_files->filePath(u"Linked"_s);
        QVERIFY(berth::test::writeTree(folder, {{u"index.html"_s, "<h1>Linked</h1>"}}));
        QVERIFY(QFile::link(u"/etc/hostname"_s, folder + u"/host.txt"_s));
        berth::test::dropPaths(&window(), QPoint(200, 200), {folder});

        PublishDialog *sheet = nullptr;
        QTRY_VERIFY((sheet = berth::test::openDialog<PublishDialog>(&window())));
        QTRY_COMPARE(sheet->stage(), PublishDialog::Stage::Ready);
        const QString summary = sheet->findChild<QLabel *>(u"summaryLabel"_s)->text();
        QVERIFY2(summary.contains(u"1 file"_s) && summary.contains(u"1 link out of the folder left out"_s),
            qPrintable(summary));
        // The checks name it, so the owner publishes knowingly.
        auto *issues = sheet->findChild<QListWidget *>(u"issuesListWidget"_s);
        QVERIFY(issues);
        QCOMPARE(issues->count(), 1);
        QCOMPARE(
            issues->item(0)->text(), u"host.txt is a link to outside the folder (or to nothing): it is left out"_s);
        QTest::mouseClick(sheet->findChild<QPushButton *>(u"publishButton"_s), Qt::LeftButton);
        QTRY_COMPARE(sheet->stage(), PublishDialog::Stage::Done);
        const auto deployments = m_dashboard->engine().deployments().list(m_dashboard->owner());
        QCOMPARE(deployments.size(), 1);
        const auto versions = m_dashboard->engine().history().versions(m_dashboard->owner(), deployments[0].id);
        QVERIFY(versions);
        QCOMPARE(versions.value().constFirst().fileCount, 1); // index.html alone
        sheet->close();
    }

    void droppedFolderBecomesALiveSite()
    {
        const QString folder = m_files->filePath(u"Summer Trip"_s);
        QVERIFY(berth::test::writeTree(folder,
            {{u"index.html"_s, "<title>Trip</title><h1>Dropped</h1>"}, {u"css/site.css"_s, "h1 { color: teal }"},
                {u".git/config"_s, "[core]"}, {u".env"_s, "SECRET=1"}}));
        berth::test::dropPaths(&window(), QPoint(200, 200), {folder});

        PublishDialog *sheet = nullptr;
        QTRY_VERIFY((sheet = berth::test::openDialog<PublishDialog>(&window())));
        auto *slug = sheet->findChild<QLineEdit *>(u"slugLineEdit"_s);
        QCOMPARE(slug->text(), u"summer-trip"_s); // proposed from the folder's name
        QTRY_COMPARE(sheet->stage(), PublishDialog::Stage::Ready);
        const QString summary = sheet->findChild<QLabel *>(u"summaryLabel"_s)->text();
        QVERIFY2(summary.contains(u"2 files"_s) && summary.contains(u"2 hidden items skipped"_s), qPrintable(summary));

        QTest::mouseClick(sheet->findChild<QPushButton *>(u"publishButton"_s), Qt::LeftButton);
        QTRY_COMPARE(sheet->stage(), PublishDialog::Stage::Done);
        const QString url = sheet->findChild<QLabel *>(u"urlLabel"_s)->text();
        QCOMPARE(url, m_dashboard->engine().addresses().siteUrl(u"summer-trip"_s));
        QTest::mouseClick(sheet->findChild<QPushButton *>(u"copyUrlButton"_s), Qt::LeftButton);
        QCOMPARE(QGuiApplication::clipboard()->text(), url);

        QTRY_COMPARE(model().rowCount(), 1);
        QVERIFY(window().tableView()->isVisible());
        const QModelIndex row = model().index(0, DeploymentTableModel::SlugColumn);
        QCOMPARE(row.data().toString(), u"summer-trip"_s);
        QCOMPARE(model().index(0, DeploymentTableModel::TitleColumn).data().toString(), u"Trip"_s);
        QCOMPARE(model().index(0, DeploymentTableModel::KindColumn).data().toString(), u"Files"_s);

        auto &client = m_dashboard->client();
        const auto page = client.site(u"summer-trip"_s);
        QCOMPARE(page.status, 200);
        QCOMPARE(page.body, QByteArray("<title>Trip</title><h1>Dropped</h1>"));
        QCOMPARE(client.site(u"summer-trip"_s, u"/css/site.css"_s).body, QByteArray("h1 { color: teal }"));
        QCOMPARE(client.site(u"summer-trip"_s, u"/.git/config"_s).status, 404); // hidden files stay home
        QCOMPARE(client.site(u"summer-trip"_s, u"/.env"_s).status, 404);
        QCOMPARE(m_dashboard->settings().sourcePath(sheet->deploymentId()), folder);
    }

    // A long publish names its steps (storing n of m MB) under a moving bar, with Cancel usable while storing.
    void aLongPublishShowsItsSteps()
    {
        const QString folder = writeBigFolder(u"big-album"_s);
        QVERIFY(!folder.isEmpty());
        berth::test::dropPaths(&window(), QPoint(200, 200), {folder});
        PublishDialog *sheet = nullptr;
        QTRY_VERIFY((sheet = berth::test::openDialog<PublishDialog>(&window())));
        QTRY_COMPARE(sheet->stage(), PublishDialog::Stage::Ready);
        auto *bar = berth::test::child<QProgressBar>(sheet, u"progressBar"_s);
        auto *summary = berth::test::child<QLabel>(sheet, u"summaryLabel"_s);
        auto *cancel = berth::test::child<QPushButton>(sheet, u"cancelButton"_s);
        QStringList storing;
        bool cancelUsable = true;
        connect(bar, &QProgressBar::valueChanged, this, [&] {
            if (summary->text().startsWith(u"Storing "_s)) {
                storing.append(summary->text());
                cancelUsable = cancelUsable && cancel->isEnabled();
            }
        });
        QTest::mouseClick(berth::test::child<QPushButton>(sheet, u"publishButton"_s), Qt::LeftButton);
        QTRY_COMPARE(sheet->stage(), PublishDialog::Stage::Done);
        QVERIFY2(storing.size() >= 10, qPrintable(storing.join(u" | "_s)));
        QVERIFY2(storing.constLast() == u"Storing 6.0 MB of 6.0 MB…"_s, qPrintable(storing.constLast()));
        QVERIFY(cancelUsable);
        QCOMPARE(m_dashboard->client().site(u"big-album"_s).status, 200);
    }

    // Cancel while the files are being stored: the sheet closes and nothing is left, not a site, not a blob.
    void cancelDuringAPublishLeavesNothingStored()
    {
        const QString folder = writeBigFolder(u"cancelled-album"_s);
        QVERIFY(!folder.isEmpty());
        berth::test::dropPaths(&window(), QPoint(200, 200), {folder});
        PublishDialog *sheet = nullptr;
        QTRY_VERIFY((sheet = berth::test::openDialog<PublishDialog>(&window())));
        QTRY_COMPARE(sheet->stage(), PublishDialog::Stage::Ready);
        QTest::mouseClick(berth::test::child<QPushButton>(sheet, u"publishButton"_s), Qt::LeftButton);
        // The commit runs on this thread's event loop, which has not run since the click: Cancel is in time.
        QCOMPARE(sheet->stage(), PublishDialog::Stage::Publishing);
        auto *cancel = berth::test::child<QPushButton>(sheet, u"cancelButton"_s);
        QVERIFY(cancel->isEnabled());
        QTest::mouseClick(cancel, Qt::LeftButton);
        QCOMPARE(berth::test::child<QLabel>(sheet, u"summaryLabel"_s)->text(), u"Cancelling…"_s);
        QVERIFY(!cancel->isEnabled());

        QTRY_VERIFY(!sheet->isVisible());
        QVERIFY(sheet->deploymentId().isEmpty());
        QVERIFY(m_dashboard->engine().deployments().list(m_dashboard->owner()).isEmpty());
        QCOMPARE(m_dashboard->client().site(u"cancelled-album"_s).status, 404);
        QTRY_COMPARE(blobFilesOnDisk(), 0);
        QCOMPARE(model().rowCount(), 0);
    }

    void droppedHtmlFileBecomesASinglePageSite()
    {
        const QString file = m_files->filePath(u"launch.html"_s);
        QVERIFY(berth::test::writeTree(m_files->path(), {{u"launch.html"_s, "<h1>Launch</h1>"}}));
        berth::test::dropPaths(&window(), QPoint(100, 100), {file});
        const QString id = publishThroughSheet(u"launch-page"_s);
        QVERIFY(!id.isEmpty());
        QCOMPARE(model().index(0, DeploymentTableModel::KindColumn).data().toString(), u"HTML page"_s);
        QCOMPARE(m_dashboard->client().site(u"launch-page"_s).body, QByteArray("<h1>Launch</h1>"));
    }

    void folderDroppedOnARowReplacesThatSite()
    {
        const QString id = m_dashboard->deploy(u"old-site"_s, {{u"index.html"_s, "v1"}, {u"old.css"_s, "o"}});
        QVERIFY(!id.isEmpty());
        QTRY_COMPARE(model().rowCount(), 1);
        const QString folder = m_files->filePath(u"new-version"_s);
        QVERIFY(berth::test::writeTree(folder, {{u"index.html"_s, "v2"}}));

        const QRect row = window().tableView()->visualRect(window().tableView()->model()->index(0, 1));
        berth::test::dropPaths(viewport(), row.center(), {folder});
        PublishDialog *sheet = nullptr;
        QTRY_VERIFY((sheet = berth::test::openDialog<PublishDialog>(&window())));
        QVERIFY(!sheet->findChild<QLineEdit *>(u"slugLineEdit"_s)); // a confirmation, not a new site's form
        QCOMPARE(m_dashboard->client().site(u"old-site"_s).body, QByteArray("v1")); // nothing happens unconfirmed
        QTRY_COMPARE(sheet->stage(), PublishDialog::Stage::Ready);
        QTest::mouseClick(sheet->findChild<QPushButton *>(u"publishButton"_s), Qt::LeftButton);
        QTRY_COMPARE(sheet->stage(), PublishDialog::Stage::Done);

        QCOMPARE(sheet->deploymentId(), id);
        QCOMPARE(model().rowCount(), 1);
        QCOMPARE(m_dashboard->client().site(u"old-site"_s).body, QByteArray("v2"));
        QCOMPARE(m_dashboard->client().site(u"old-site"_s, u"/old.css"_s).status, 404);
    }

    void dropBelowTheRowsPublishesANewSite()
    {
        QVERIFY(!m_dashboard->deploy(u"first-site"_s, {{u"index.html"_s, "1"}}).isEmpty());
        QTRY_COMPARE(model().rowCount(), 1);
        const QString folder = m_files->filePath(u"second"_s);
        QVERIFY(berth::test::writeTree(folder, {{u"index.html"_s, "2"}}));
        berth::test::dropPaths(viewport(), QPoint(20, viewport()->height() - 10), {folder});
        QVERIFY(!publishThroughSheet(u"second-site"_s).isEmpty());
        QTRY_COMPARE(model().rowCount(), 2);
        QCOMPARE(m_dashboard->client().site(u"first-site"_s).body, QByteArray("1"));
    }

    void refusedDropSaysWhichFileIsTooLarge()
    {
        const QString folder = m_files->filePath(u"too-big"_s);
        QVERIFY(berth::test::writeTree(folder, {{u"index.html"_s, "<h1>hi</h1>"}}));
        QVERIFY(berth::test::writeSparse(folder + u"/media/video.bin"_s, 10 * 1024 * 1024 + 1));
        berth::test::dropPaths(&window(), QPoint(200, 200), {folder});

        PublishDialog *sheet = nullptr;
        QTRY_VERIFY((sheet = berth::test::openDialog<PublishDialog>(&window())));
        QTRY_COMPARE(sheet->stage(), PublishDialog::Stage::Failed);
        auto *message = sheet->findChild<QLabel *>(u"messageLabel"_s);
        QVERIFY(message->isVisible());
        QVERIFY2(message->text().contains(u"media/video.bin"_s) && message->text().contains(u"10.0 MB"_s),
            qPrintable(message->text()));
        QVERIFY(!sheet->findChild<QPushButton *>(u"publishButton"_s)->isEnabled());
        QCOMPARE(m_dashboard->engine().deployments().listAll().size(), 0);
    }

    void redeployUsesTheFolderItCameFrom()
    {
        const QString folder = m_files->filePath(u"blog"_s);
        QVERIFY(berth::test::writeTree(folder, {{u"index.html"_s, "first post"}}));
        berth::test::dropPaths(&window(), QPoint(200, 200), {folder});
        const QString id = publishThroughSheet(u"my-blog"_s);
        QVERIFY(!id.isEmpty());
        berth::test::openDialog<PublishDialog>(&window())->accept();
        QTRY_VERIFY(!berth::test::openDialog<PublishDialog>(&window()));

        QVERIFY(berth::test::writeTree(folder, {{u"index.html"_s, "second post"}}));
        m_dashboard->select(id);
        QVERIFY(window().actions().redeployAction->isEnabled());
        window().actions().redeployAction->trigger();
        QCOMPARE(publishThroughSheet(), id);
        QCOMPARE(m_dashboard->client().site(u"my-blog"_s).body, QByteArray("second post"));
    }

    void droppingASitesFolderAgainProposesUpdatingIt()
    {
        const QString folder = m_files->filePath(u"journal"_s);
        QVERIFY(berth::test::writeTree(folder, {{u"index.html"_s, "day one"}}));
        berth::test::dropPaths(&window(), QPoint(200, 200), {folder});
        const QString id = publishThroughSheet(u"my-journal"_s);
        QVERIFY(!id.isEmpty());
        berth::test::openDialog<PublishDialog>(&window())->accept();
        QTRY_VERIFY(!berth::test::openDialog<PublishDialog>(&window()));

        // Edited and dropped again: updating the site comes first.
        QVERIFY(berth::test::writeTree(folder, {{u"index.html"_s, "day two"}}));
        window().prompter().setNextChoice(0);
        berth::test::dropPaths(&window(), QPoint(200, 200), {folder + u"/"_s});
        QCOMPARE(window().prompter().lastChoices(),
            QStringList({u"&Update my-journal"_s, u"Publish as a &New Site"_s, u"Cancel"_s}));
        PublishDialog *sheet = nullptr;
        QTRY_VERIFY((sheet = berth::test::openDialog<PublishDialog>(&window())));
        QVERIFY(!sheet->findChild<QLineEdit *>(u"slugLineEdit"_s)); // replacing, not a new site
        QTRY_COMPARE(sheet->stage(), PublishDialog::Stage::Ready);
        QTest::mouseClick(sheet->findChild<QPushButton *>(u"publishButton"_s), Qt::LeftButton);
        QTRY_COMPARE(sheet->stage(), PublishDialog::Stage::Done);
        QCOMPARE(sheet->deploymentId(), id);
        QCOMPARE(m_dashboard->client().site(u"my-journal"_s).body, QByteArray("day two"));
        sheet->accept();
        QTRY_VERIFY(!berth::test::openDialog<PublishDialog>(&window()));

        // The second choice: the same files as another site.
        window().prompter().setNextChoice(1);
        berth::test::dropPaths(&window(), QPoint(200, 200), {folder});
        const QString copy = publishThroughSheet(u"journal-copy"_s);
        QVERIFY(!copy.isEmpty() && copy != id);
        QTRY_COMPARE(model().rowCount(), 2);
        QCOMPARE(m_dashboard->client().site(u"journal-copy"_s).body, QByteArray("day two"));

        // Cancel publishes nothing.
        berth::test::openDialog<PublishDialog>(&window())->accept();
        QTRY_VERIFY(!berth::test::openDialog<PublishDialog>(&window()));
        window().prompter().setNextChoice(2);
        berth::test::dropPaths(&window(), QPoint(200, 200), {folder});
        QVERIFY(!berth::test::openDialog<PublishDialog>(&window()));
    }

    void onlyPublishableThingsAreAcceptedWhileDragging()
    {
        QVERIFY(berth::test::writeTree(m_files->path(), {{u"notes.txt"_s, "text"}, {u"page.html"_s, "<p>"}}));
        QWidget *empty = window().findChild<QWidget *>(u"emptyStateWidget"_s);
        QMimeData mime;
        const auto enter = [&](const QString &name) {
            mime.setUrls({QUrl::fromLocalFile(m_files->filePath(name))});
            QDragEnterEvent event(QPoint(200, 200), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
            QApplication::sendEvent(&window(), &event);
            return event.isAccepted();
        };
        const QColor window = empty->palette().color(QPalette::Window);
        QVERIFY(!enter(u"notes.txt"_s)); // refused while dragging, not after the drop
        QVERIFY(!empty->property("dropTarget").toBool());
        QVERIFY(enter(u"page.html"_s));
        QVERIFY(empty->property("dropTarget").toBool()); // the empty window lights up as the target
        QVERIFY(empty->palette().color(QPalette::Window) != window);
        QDragLeaveEvent leave;
        QApplication::sendEvent(&this->window(), &leave);
        QVERIFY(!empty->property("dropTarget").toBool());
        QCOMPARE(empty->palette().color(QPalette::Window), window);
    }
};

QTEST_MAIN(TestDropPublish)
#include "tst_droppublish.moc"
