// The dashboard's life: quitting (and waiting for a publish the engine is committing), and what a
// person sees when it starts. Driven through the real widgets over a real engine.
#include "domain/siterules/siteaddresses.h"
#include "ui/accounts/firstkeydialog.h"
#include "ui/mainwindow/notifier.h"
#include "ui/publishing/publishdialog.h"
#include "ui/widgets/translations.h"
#include "uitestsupport.h"

#include <QAction>
#include <QClipboard>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStatusBar>

using namespace Qt::StringLiterals;
using namespace berth;
using berth::test::Dashboard;

namespace {
// What the tray would have shown: the offscreen platform has none.
class RecordingNotifier final : public Notifier
{
public:
    void notify(const QString &title, const QString &message) override { messages.append({title, message}); }
    QList<std::pair<QString, QString>> messages;
};
} // namespace

class TestLifecycle : public QObject
{
    Q_OBJECT

private:
    Translations m_translations;
    std::unique_ptr<Dashboard> m_dashboard;
    std::unique_ptr<QTemporaryDir> m_files;

    MainWindow &window() { return m_dashboard->window(); }

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

    void quitWithNothingInFlightQuitsAtOnce()
    {
        QSignalSpy ready(&window(), &MainWindow::readyToQuit);
        QVERIFY(berth::test::waitUntilActive(&window()));
        QTest::keyClick(&window(), Qt::Key_Q, Qt::ControlModifier); // Ctrl+Q, the Quit shortcut
        QCOMPARE(ready.count(), 1);
        QVERIFY(window().isQuitting());
        QVERIFY(!window().isVisible());
    }

    void quitCancelsASheetThatIsOnlyAsking()
    {
        const QString folder = m_files->filePath(u"draft"_s);
        QVERIFY(berth::test::writeTree(folder, {{u"index.html"_s, "draft"}}));
        berth::test::dropPaths(&window(), QPoint(200, 200), {folder});
        PublishDialog *sheet = nullptr;
        QTRY_VERIFY((sheet = berth::test::openDialog<PublishDialog>(&window())));
        QTRY_COMPARE(sheet->stage(), PublishDialog::Stage::Ready);

        QSignalSpy ready(&window(), &MainWindow::readyToQuit);
        berth::test::child<QAction>(&window(), u"quitAction"_s)->trigger();
        QCOMPARE(ready.count(), 1);
        QVERIFY(!sheet->isVisible());
        QCOMPARE(m_dashboard->client().site(u"draft"_s).status, 404); // nothing was published on the way out
    }

    void quitWaitsForThePublishInFlight()
    {
        const QString folder = m_files->filePath(u"late-news"_s);
        QVERIFY(berth::test::writeTree(folder, {{u"index.html"_s, "extra"}}));
        berth::test::dropPaths(&window(), QPoint(200, 200), {folder});
        PublishDialog *sheet = nullptr;
        QTRY_VERIFY((sheet = berth::test::openDialog<PublishDialog>(&window())));
        QTRY_COMPARE(sheet->stage(), PublishDialog::Stage::Ready);
        QTest::mouseClick(berth::test::child<QPushButton>(sheet, u"publishButton"_s), Qt::LeftButton);
        // The engine's answer arrives through the event loop, so the commit is still in flight here.
        QCOMPARE(sheet->stage(), PublishDialog::Stage::Publishing);

        QSignalSpy ready(&window(), &MainWindow::readyToQuit);
        berth::test::child<QAction>(&window(), u"quitAction"_s)->trigger();
        QCOMPARE(ready.count(), 0);
        QCOMPARE(window().statusBar()->currentMessage(), u"Finishing publish…"_s);
        QCOMPARE(berth::test::child<QLabel>(sheet, u"summaryLabel"_s)->text(), u"Finishing publish…"_s);
        QVERIFY(window().isVisible());

        QTRY_COMPARE(ready.count(), 1);
        QCOMPARE(m_dashboard->client().site(u"late-news"_s).body, QByteArray("extra")); // the publish completed
        QVERIFY(!window().isVisible());
    }

    void firstRunShowsTheOwnersKeyWithAnExampleThatWorks()
    {
        const auto key = m_dashboard->engine().ownerFirstKey(); // a fresh data folder: the owner was just made
        QVERIFY(key);
        FirstKeyDialog *sheet = window().showFirstKey(*key);
        QVERIFY(QTest::qWaitForWindowExposed(sheet));
        QCOMPARE(berth::test::child<QLineEdit>(sheet, u"firstKeyLineEdit"_s)->text(), *key);
        QTest::mouseClick(berth::test::child<QPushButton>(sheet, u"copyKeyButton"_s), Qt::LeftButton);
        QCOMPARE(QGuiApplication::clipboard()->text(), *key);

        // The example, run as written (its URL, its key, its body), publishes a page.
        const QString example = berth::test::child<QPlainTextEdit>(sheet, u"curlExampleTextEdit"_s)->toPlainText();
        QTest::mouseClick(berth::test::child<QPushButton>(sheet, u"copyExampleButton"_s), Qt::LeftButton);
        QCOMPARE(QGuiApplication::clipboard()->text(), example);
        const auto url = QRegularExpression(u"^curl -s (\\S+)"_s).match(example);
        const auto bearer = QRegularExpression(u"Authorization: Bearer (\\S+)\""_s).match(example);
        const auto body = QRegularExpression(u"-d '([^']+)'"_s).match(example);
        QVERIFY2(url.hasMatch() && bearer.hasMatch() && body.hasMatch(), qPrintable(example));
        QCOMPARE(url.captured(1), m_dashboard->engine().addresses().baseUrl() + u"/deploy"_s);
        QCOMPARE(bearer.captured(1), *key);
        const auto reply
            = m_dashboard->client().api("POST", u"/deploy"_s, bearer.captured(1).toLatin1(), body.captured(1).toUtf8());
        QVERIFY2(reply.status == 201 || reply.status == 200, reply.body.constData());
        QCOMPARE(m_dashboard->client().site(u"hello-world"_s).body, QByteArray("<h1>Hello, world</h1>"));

        QTest::mouseClick(berth::test::child<QPushButton>(sheet, u"doneButton"_s), Qt::LeftButton);
        QTRY_VERIFY(!berth::test::openDialog<FirstKeyDialog>(&window()));
    }

    // The example is read whole where it is shown, the key with it: no sideways (or other) scrolling.
    void theFirstKeysExampleNeedsNoScrolling()
    {
        const auto key = m_dashboard->engine().ownerFirstKey();
        QVERIFY(key);
        FirstKeyDialog *sheet = window().showFirstKey(*key);
        QVERIFY(QTest::qWaitForWindowExposed(sheet));
        auto *example = berth::test::child<QPlainTextEdit>(sheet, u"curlExampleTextEdit"_s);
        QVERIFY(example->toPlainText().contains(*key));
        QTRY_VERIFY(example->isVisible());
        QApplication::processEvents();
        QCOMPARE(example->horizontalScrollBar()->maximum(), 0);
        QCOMPARE(example->verticalScrollBar()->maximum(), 0);
        sheet->accept();
    }

    void aPublishThatEndsWhileTheWindowIsHiddenIsAnnounced()
    {
        RecordingNotifier notifier;
        window().setNotifier(&notifier);
        const auto publish = [&](const QString &name, bool hideMeanwhile) {
            const QString folder = m_files->filePath(name);
            berth::test::writeTree(folder, {{u"index.html"_s, "hi"}});
            berth::test::dropPaths(&window(), QPoint(200, 200), {folder});
            PublishDialog *sheet = nullptr;
            if (!QTest::qWaitFor([&] { return (sheet = berth::test::openDialog<PublishDialog>(&window())); }, 5000)
                || !QTest::qWaitFor([&] { return sheet->stage() == PublishDialog::Stage::Ready; }, 5000))
                return false;
            QTest::mouseClick(berth::test::child<QPushButton>(sheet, u"publishButton"_s), Qt::LeftButton);
            if (hideMeanwhile)
                window().hide(); // closed to the tray while the engine commits
            const bool done = QTest::qWaitFor([&] { return sheet->stage() == PublishDialog::Stage::Done; }, 10'000);
            sheet->accept();
            return done;
        };
        QVERIFY(publish(u"seen-site"_s, false));
        QVERIFY(notifier.messages.isEmpty()); // the window showed it
        QVERIFY(publish(u"unseen-site"_s, true));
        QCOMPARE(notifier.messages.size(), 1);
        QCOMPARE(notifier.messages.constFirst().first, u"Published unseen-site"_s);
        QCOMPARE(notifier.messages.constFirst().second, m_dashboard->engine().addresses().siteUrl(u"unseen-site"_s));
        window().setNotifier(nullptr);
    }

    void closingWithoutTheTrayIsQuitting()
    {
        QSignalSpy ready(&window(), &MainWindow::readyToQuit);
        window().close();
        QCOMPARE(ready.count(), 1);
    }
};

QTEST_MAIN(TestLifecycle)
#include "tst_lifecycle.moc"
