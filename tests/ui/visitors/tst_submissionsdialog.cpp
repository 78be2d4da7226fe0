// A site's submissions and counters window, driven through its widgets over a real engine: forms
// posted over HTTP appear live, deletions reach the engine, CSV export parses back, paging through
// 1,200 submissions, counters counting and reset, and the tray notification of a new submission.
#include "domain/common/clock.h"
#include "domain/deploy/deploymentservice.h"
#include "domain/visitors/counterservice.h"
#include "domain/visitors/submissionservice.h"
#include "ui/mainwindow/notifier.h"
#include "ui/sitelist/deploymentactions.h"
#include "ui/sitelist/deploymenttablemodel.h"
#include "ui/visitors/counterspanel.h"
#include "ui/visitors/submissionalerts.h"
#include "ui/visitors/submissionsdialog.h"
#include "ui/visitors/submissionsmodel.h"
#include "ui/visitors/submissionspanel.h"
#include "ui/widgets/translations.h"
#include "uitestsupport.h"

#include <QAction>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QToolBar>
#include <QToolButton>

using namespace Qt::StringLiterals;
using namespace berth;
using berth::test::child;
using berth::test::Dashboard;

namespace {
const QDateTime kStart(QDate(2026, 3, 2), QTime(9, 0), Qt::UTC);

// What the tray would have shown: the offscreen platform has none.
class RecordingNotifier final : public Notifier
{
public:
    void notify(const QString &title, const QString &message) override { messages.append({title, message}); }
    QList<std::pair<QString, QString>> messages;
};
} // namespace

class TestSubmissionsDialog : public QObject
{
    Q_OBJECT

private:
    Translations m_translations;
    ManualClock m_clock {kStart};
    std::unique_ptr<Dashboard> m_dashboard;
    QString m_id;
    const QString m_slug = u"contact-form"_s;

    MainWindow &window() { return m_dashboard->window(); }
    Engine &engine() { return m_dashboard->engine(); }
    Deployment site() { return engine().deployments().get(m_dashboard->owner(), m_id).value(); }

    SubmissionsDialog *open(QAction *action)
    {
        m_dashboard->select(m_id);
        action->trigger();
        SubmissionsDialog *dialog = nullptr;
        if (!QTest::qWaitFor([&] { return (dialog = berth::test::openDialog<SubmissionsDialog>(&window())); }, 5000))
            return nullptr;
        berth::test::waitUntilActive(dialog); // keys go to the window in front
        return dialog;
    }
    static QStringList column(const QAbstractItemModel &model, const QString &header)
    {
        int section = -1;
        for (int i = 0; i < model.columnCount(); ++i) {
            if (model.headerData(i, Qt::Horizontal).toString() == header)
                section = i;
        }
        QStringList values;
        for (int row = 0; section >= 0 && row < model.rowCount(); ++row)
            values.append(model.index(row, section).data().toString());
        return values;
    }
    static void clickRow(QTableView *table, int row, Qt::KeyboardModifiers modifiers = {})
    {
        const QRect rect = table->visualRect(table->model()->index(row, 0));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, modifiers, rect.center());
    }
    void receive(int count)
    {
        const Deployment deployment = site();
        for (int n = 1; n <= count; ++n) {
            // Two minutes apart: 1,200 of them span two days, within the plan's daily count.
            m_clock.advance(120'000);
            QVERIFY(engine().submissions().receive(deployment, {{u"n"_s, QString::number(n)}}));
        }
    }

private Q_SLOTS:
    void initTestCase() { m_translations.install(QLocale(QLocale::English, QLocale::UnitedStates)); }
    void init()
    {
        m_clock.set(kStart);
        m_dashboard = std::make_unique<Dashboard>();
        EngineSettings settings;
        settings.clock = &m_clock;
        QVERIFY(m_dashboard->start(settings));
        m_id = m_dashboard->deploy(m_slug, {{u"index.html"_s, "<form method=post action=/_submit>"}});
        QVERIFY(!m_id.isEmpty());
        QTRY_COMPARE(window().model().rowCount(), 1);
        // The window is active before a test opens another over it, as when a person uses it.
        window().activateWindow();
        QTRY_COMPARE(QApplication::activeWindow(), &window());
    }
    void cleanup() { m_dashboard.reset(); }

    void postedFormAppearsLive()
    {
        SubmissionsDialog *dialog = open(window().actions().submissionsAction);
        QVERIFY(dialog);
        QVERIFY(!dialog->isModal()); // the dashboard stays usable beside it
        QCOMPARE(dialog->windowTitle(), u"contact-form – Submissions and Counters"_s);
        auto *table = child<QTableView>(dialog, u"submissionsTableView"_s);
        QVERIFY(child<QLabel>(dialog, u"noSubmissionsLabel"_s)->isVisible());
        QCOMPARE(m_dashboard->submitForm(m_slug, "email=ana%40example.com&message=Hi+there&_hp="), 200);

        QTRY_COMPARE(table->model()->rowCount(), 1);
        QVERIFY(table->isVisible());
        QCOMPARE(column(*table->model(), u"email"_s), QStringList {u"ana@example.com"_s});
        QCOMPARE(column(*table->model(), u"message"_s), QStringList {u"Hi there"_s});
        QCOMPARE(column(*table->model(), u"_hp"_s), QStringList()); // the honeypot is not a field
        auto *tabs = child<QTabWidget>(dialog, u"submissionsTabWidget"_s);
        QCOMPARE(tabs->tabText(0), u"&Submissions (1)"_s);
        QCOMPARE(child<QLabel>(dialog, u"pageLabel"_s)->text(), u"1–1 of 1"_s);

        QCOMPARE(m_dashboard->submitForm(m_slug, "email=bo%40example.com&message=Line+1%0D%0ALine+2"), 200);
        QTRY_COMPARE(table->model()->rowCount(), 2);
        QCOMPARE(column(*table->model(), u"email"_s), (QStringList {u"bo@example.com"_s, u"ana@example.com"_s}));
        clickRow(table, 0);
        const QString details = child<QTextBrowser>(dialog, u"submissionTextBrowser"_s)->toPlainText();
        QVERIFY2(details.contains(u"Line 1\nLine 2"_s) && details.contains(u"bo@example.com"_s), qPrintable(details));

        // The same site's window is raised again, not opened twice.
        QCOMPARE(window().actions().showSubmissions(m_id, SubmissionsDialog::Tab::Counters), dialog);
        QCOMPARE(window().findChildren<SubmissionsDialog *>().size(), 1);
        QCOMPARE(tabs->currentWidget(), dialog->countersPanel());
        // Once closed (and about to be deleted) it is not reused: the site opens in a new one.
        dialog->close();
        SubmissionsDialog *again = window().actions().showSubmissions(m_id, SubmissionsDialog::Tab::Submissions);
        QVERIFY(again && again != dialog && again->isVisible());
        QTRY_COMPARE(window().findChildren<SubmissionsDialog *>().size(), 1);
    }

    void deletingRemovesFromTheEngine()
    {
        receive(3);
        SubmissionsDialog *dialog = open(window().actions().submissionsAction);
        QVERIFY(dialog);
        auto *table = child<QTableView>(dialog, u"submissionsTableView"_s);
        QCOMPARE(column(*table->model(), u"n"_s), (QStringList {u"3"_s, u"2"_s, u"1"_s}));
        auto *deleteButton = child<QToolButton>(dialog, u"deleteSubmissionsButton"_s);
        auto *message = child<QLabel>(dialog, u"submissionsMessageLabel"_s);
        QVERIFY(!deleteButton->isEnabled()); // nothing selected

        clickRow(table, 0);
        clickRow(table, 2, Qt::ControlModifier);
        QVERIFY(deleteButton->isEnabled());
        window().prompter().setNextAnswer(QMessageBox::Cancel);
        QTest::mouseClick(deleteButton, Qt::LeftButton);
        QCOMPARE(window().prompter().lastMessage(), u"Delete 2 submissions of contact-form? This cannot be undone."_s);
        QCOMPARE(table->model()->rowCount(), 3);

        window().prompter().setNextAnswer(QMessageBox::Yes);
        table->setFocus();
        QTest::keyClick(table, Qt::Key_Delete);
        QTRY_COMPARE(column(*table->model(), u"n"_s), QStringList {u"2"_s});
        const auto left = engine().submissions().list(m_dashboard->owner(), m_id, 10, {});
        QCOMPARE(left.value().total, 1);
        QCOMPARE(left.value().submissions.constFirst().data.value(u"n"_s).toString(), u"2"_s);
        QCOMPARE(message->text(), u"Deleted 2 submissions."_s);
    }

    // The columns come in the order the visitor's form sent the fields, in the table and in the CSV alike.
    void fieldsKeepTheFormsOrder()
    {
        QCOMPARE(m_dashboard->submitForm(m_slug, "name=Ana&email=ana%40example.com&message=Hi&_hp="), 200);
        SubmissionsDialog *dialog = open(window().actions().submissionsAction);
        QVERIFY(dialog);
        auto *table = child<QTableView>(dialog, u"submissionsTableView"_s);
        QTRY_COMPARE(table->model()->rowCount(), 1);
        QStringList headers;
        for (int i = 1; i < table->model()->columnCount(); ++i) // after the time
            headers.append(table->model()->headerData(i, Qt::Horizontal).toString());
        QCOMPARE(headers, (QStringList {u"name"_s, u"email"_s, u"message"_s}));

        QTemporaryDir out;
        const QString path = out.filePath(u"ordered.csv"_s);
        window().prompter().setNextFileName(path);
        QTest::mouseClick(child<QToolButton>(dialog, u"exportCsvButton"_s), Qt::LeftButton);
        QTRY_VERIFY(QFileInfo::exists(path));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(berth::test::parseCsv(file.readAll()).at(0),
            (QStringList {u"id"_s, u"created_at"_s, u"name"_s, u"email"_s, u"message"_s}));
    }

    void exportWritesEverySubmissionAsCsv()
    {
        const Deployment deployment = site();
        QVERIFY(engine().submissions().receive(deployment, {{u"name"_s, u"Ana"_s}, {u"note"_s, u"plain"_s}}));
        m_clock.advance(1000);
        const QString tricky = u"She said \"hi\", then left\nLine two, with a comma"_s;
        QVERIFY(engine().submissions().receive(deployment, {{u"name"_s, u"Bo, Jr."_s}, {u"note"_s, tricky}}));
        m_clock.advance(1000);
        QVERIFY(engine().submissions().receive(deployment, {{u"email"_s, u"cy@example.com"_s}}));

        SubmissionsDialog *dialog = open(window().actions().submissionsAction);
        QVERIFY(dialog);
        QTemporaryDir out;
        const QString path = out.filePath(u"contact-form.csv"_s);
        window().prompter().setNextFileName(path);
        QTest::mouseClick(child<QToolButton>(dialog, u"exportCsvButton"_s), Qt::LeftButton);
        QTRY_VERIFY(QFileInfo::exists(path));
        QCOMPARE(
            child<QLabel>(dialog, u"submissionsMessageLabel"_s)->text(), u"Exported 3 submissions to %1."_s.arg(path));

        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QStringList> rows = berth::test::parseCsv(file.readAll());
        QCOMPARE(rows.size(), 4);
        QCOMPARE(rows.at(0), (QStringList {u"id"_s, u"created_at"_s, u"email"_s, u"name"_s, u"note"_s}));
        for (const QStringList &row : rows)
            QCOMPARE(row.size(), 5);
        QCOMPARE(rows.at(1).at(2), u"cy@example.com"_s); // newest first, as in the table
        QCOMPARE(rows.at(2).at(3), u"Bo, Jr."_s);
        QCOMPARE(rows.at(2).at(4), tricky);
        QCOMPARE(rows.at(3).mid(2), (QStringList {QString(), u"Ana"_s, u"plain"_s}));
        QVERIFY(rows.at(3).at(0).startsWith(u"sub_"_s));
        QCOMPARE(rows.at(3).at(1), u"2026-03-02T09:00:00Z"_s);
    }

    void pagesThroughThousands()
    {
        receive(1200);
        SubmissionsDialog *dialog = open(window().actions().submissionsAction);
        QVERIFY(dialog);
        auto *table = child<QTableView>(dialog, u"submissionsTableView"_s);
        auto *page = child<QLabel>(dialog, u"pageLabel"_s);
        auto *newer = child<QToolButton>(dialog, u"previousPageButton"_s);
        auto *older = child<QToolButton>(dialog, u"nextPageButton"_s);
        QCOMPARE(page->text(), u"1–100 of 1,200"_s);
        QCOMPARE(child<QTabWidget>(dialog, u"submissionsTabWidget"_s)->tabText(0), u"&Submissions (1,200)"_s);
        QCOMPARE(table->model()->rowCount(), 100);
        QCOMPARE(column(*table->model(), u"n"_s).constFirst(), u"1200"_s);
        QCOMPARE(column(*table->model(), u"n"_s).constLast(), u"1101"_s);
        QVERIFY(!newer->isEnabled());

        QTest::mouseClick(older, Qt::LeftButton);
        QCOMPARE(page->text(), u"101–200 of 1,200"_s);
        QCOMPARE(column(*table->model(), u"n"_s).constFirst(), u"1100"_s);
        QCOMPARE(column(*table->model(), u"n"_s).constLast(), u"1001"_s);
        QVERIFY(newer->isEnabled());
        QTest::mouseClick(newer, Qt::LeftButton);
        QCOMPARE(column(*table->model(), u"n"_s).constFirst(), u"1200"_s);

        table->setFocus();
        for (int i = 0; i < 11; ++i)
            QTest::keyClick(table, Qt::Key_Right, Qt::AltModifier); // Forward: the next, older page
        QCOMPARE(page->text(), u"1,101–1,200 of 1,200"_s);
        QCOMPARE(column(*table->model(), u"n"_s).constFirst(), u"100"_s);
        QCOMPARE(column(*table->model(), u"n"_s).constLast(), u"1"_s);
        QVERIFY(!older->isEnabled());

        // A visitor posts while an older page is shown: it stays put, the total and position move.
        QCOMPARE(m_dashboard->submitForm(m_slug, "n=1201"), 200);
        QTRY_COMPARE(page->text(), u"1,102–1,201 of 1,201"_s);
        QCOMPARE(column(*table->model(), u"n"_s).constLast(), u"1"_s);
    }

    void countersCountLiveAndReset()
    {
        SubmissionsDialog *dialog = open(window().actions().countersAction);
        QVERIFY(dialog);
        auto *tabs = child<QTabWidget>(dialog, u"submissionsTabWidget"_s);
        QCOMPARE(tabs->currentWidget(), dialog->countersPanel());
        auto *table = child<QTableView>(dialog, u"countersTableView"_s);
        QVERIFY(child<QLabel>(dialog, u"noCountersLabel"_s)->isVisible());

        auto &client = m_dashboard->client();
        QCOMPARE(client.site(m_slug, u"/_counter/visits/increment"_s, "POST").status, 200);
        QTRY_COMPARE(table->model()->rowCount(), 1);
        QVERIFY(table->isVisible());
        QCOMPARE(column(*table->model(), u"Name"_s), QStringList {u"visits"_s});
        QCOMPARE(column(*table->model(), u"Value"_s), QStringList {u"1"_s});
        m_clock.advance(60'000);
        for (int i = 0; i < 2; ++i)
            QCOMPARE(client.site(m_slug, u"/_counter/visits/increment"_s, "POST").status, 200);
        QCOMPARE(client.site(m_slug, u"/_counter/likes/increment"_s, "POST").status, 200);
        QTRY_COMPARE(column(*table->model(), u"Value"_s), (QStringList {u"1"_s, u"3"_s}));
        QCOMPARE(column(*table->model(), u"Name"_s), (QStringList {u"likes"_s, u"visits"_s}));
        QCOMPARE(column(*table->model(), u"Last update"_s).constLast(),
            QLocale().toString(kStart.addSecs(60).toLocalTime().date(), QLocale::ShortFormat) + u' '
                + QLocale().toString(kStart.addSecs(60).toLocalTime().time(), QLocale::ShortFormat));
        QCOMPARE(tabs->tabText(1), u"&Counters (2)"_s);

        auto *reset = child<QToolButton>(dialog, u"resetCounterButton"_s);
        QVERIFY(!reset->isEnabled());
        clickRow(table, 1);
        window().prompter().setNextAnswer(QMessageBox::Yes);
        QTest::mouseClick(reset, Qt::LeftButton);
        QVERIFY2(window().prompter().lastMessage().contains(u"Reset “visits” to 0?"_s),
            qPrintable(window().prompter().lastMessage()));
        QTRY_COMPARE(column(*table->model(), u"Name"_s), QStringList {u"likes"_s});
        QCOMPARE(engine().counters().value(site(), u"visits"_s).value(), 0);
        QCOMPARE(client.site(m_slug, u"/_counter/visits"_s).json().value(u"value"_s).toInt(), 0);
        QCOMPARE(client.site(m_slug, u"/_counter/visits/increment"_s, "POST").json().value(u"value"_s).toInt(), 1);
        QTRY_COMPARE(column(*table->model(), u"Value"_s), (QStringList {u"1"_s, u"1"_s}));
    }

    void newSubmissionAsksForATrayNotification()
    {
        RecordingNotifier notifier;
        window().setNotifier(&notifier);
        window().submissionAlerts().setQuietInterval(200);
        QCOMPARE(m_dashboard->submitForm(m_slug, "email=ana%40example.com"), 200);
        QTRY_COMPARE(notifier.messages.size(), 1);
        QCOMPARE(notifier.messages.constFirst().first, u"New form submission"_s);
        QCOMPARE(notifier.messages.constFirst().second, u"Someone sent a form on contact-form."_s);

        // A burst within the quiet interval is one summary, not a notification each.
        QCOMPARE(m_dashboard->submitForm(m_slug, "email=bo%40example.com"), 200);
        QCOMPARE(m_dashboard->submitForm(m_slug, "email=cy%40example.com"), 200);
        QCOMPARE(notifier.messages.size(), 1);
        QTRY_COMPARE(notifier.messages.size(), 2);
        QCOMPARE(notifier.messages.constLast().second, u"2 more form submissions on contact-form."_s);
        window().setNotifier(nullptr);
    }

    void windowClosesWithItsSite()
    {
        QPointer<SubmissionsDialog> dialog = open(window().actions().submissionsAction);
        QVERIFY(dialog);
        QVERIFY(engine().deployments().remove(m_dashboard->owner(), m_id));
        QTRY_VERIFY(!dialog);
    }

    void reachableFromMenusToolbarAndShortcuts()
    {
        DeploymentActions &actions = window().actions();
        QCOMPARE(actions.submissionsAction->shortcut(), QKeySequence(u"Ctrl+Shift+S"_s));
        QCOMPARE(actions.countersAction->shortcut(), QKeySequence(u"Ctrl+Shift+N"_s));
        QVERIFY(window().findChild<QToolBar *>(u"mainToolBar"_s)->actions().contains(actions.submissionsAction));
        m_dashboard->select(m_id);
        QTest::keyClick(&window(), Qt::Key_N, Qt::ControlModifier | Qt::ShiftModifier);
        SubmissionsDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = berth::test::openDialog<SubmissionsDialog>(&window())));
        QCOMPARE(dialog->findChild<QTabWidget *>()->currentWidget(), dialog->countersPanel());

        // Every control of the window can be named by a screen reader.
        for (const auto tab : {SubmissionsDialog::Tab::Counters, SubmissionsDialog::Tab::Submissions}) {
            dialog->showTab(tab);
            const QStringList unnamed = berth::test::unnamedControls(dialog);
            QVERIFY2(unnamed.isEmpty(), qPrintable(unnamed.join(u", "_s)));
        }
    }
};

QTEST_MAIN(TestSubmissionsDialog)
#include "tst_submissionsdialog.moc"
