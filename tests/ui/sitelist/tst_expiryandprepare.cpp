// A site's expiry and a prepared update, driven through the dashboard over a real engine with a ManualClock: the
// site list counts down the time left, the Expiry dialog extends it from the present expiry (or from now) and
// removes it; Update's "Prepare without publishing" stores a version that visitors do not see (checked over HTTP)
// until History makes it live.
#include "domain/common/clock.h"
#include "domain/deploy/deploymentservice.h"
#include "domain/deploy/versionhistory.h"
#include "ui/publishing/publishdialog.h"
#include "ui/sitelist/deploymentactions.h"
#include "ui/sitelist/deploymenttablemodel.h"
#include "ui/sitelist/expirydialog.h"
#include "ui/sitelist/historydialog.h"
#include "ui/widgets/timetext.h"
#include "ui/widgets/translations.h"
#include "uitestsupport.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>

using namespace Qt::StringLiterals;
using namespace berth;
using berth::test::child;
using berth::test::Dashboard;
using berth::test::openDialog;

namespace {
const QDateTime kStart(QDate(2026, 11, 21), QTime(9, 0), Qt::UTC);
constexpr qint64 kDay = 24 * 3600;
} // namespace

class TestExpiryAndPrepare : public QObject
{
    Q_OBJECT

private:
    Translations m_translations;
    ManualClock m_clock {kStart};
    std::unique_ptr<Dashboard> m_dashboard;
    QTemporaryDir m_files;

    MainWindow &window() { return m_dashboard->window(); }
    Deployment site(const QString &id)
    {
        return m_dashboard->engine().deployments().get(m_dashboard->owner(), id).value();
    }
    QString expiresCell(const QString &id)
    {
        return window().model().indexOf(id, DeploymentTableModel::ExpiresColumn).data().toString();
    }
    QString deployExpiring(const QString &slug, std::optional<qint64> seconds)
    {
        DeployRequest request;
        request.slug = slug;
        request.files = QList<FileUpload> {{u"index.html"_s, "<p>one</p>", "text/html; charset=utf-8"}};
        if (seconds)
            request.expiresIn = *seconds;
        const auto future = m_dashboard->engine().deployments().create(m_dashboard->owner(), request);
        if (!QTest::qWaitFor([&] { return future.isFinished(); }, 10'000))
            return {};
        if (!future.result()) {
            qWarning("deploy of %s refused: %s", qPrintable(slug), qPrintable(future.result().error().message));
            return {};
        }
        return future.result().value().id;
    }
    template<typename T>
    T *openWith(QAction *action, const QString &id)
    {
        m_dashboard->select(id);
        action->trigger();
        T *dialog = nullptr;
        return QTest::qWaitFor([&] { return (dialog = openDialog<T>(&window())); }, 5000) ? dialog : nullptr;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_files.isValid());
        m_translations.install(QLocale(QLocale::English, QLocale::UnitedStates));
    }
    void init()
    {
        m_clock.set(kStart);
        m_dashboard = std::make_unique<Dashboard>();
        EngineSettings settings;
        settings.clock = &m_clock;
        QVERIFY(m_dashboard->start(settings));
    }
    void cleanup() { m_dashboard.reset(); }

    void theSiteListCountsDownTheTimeLeft()
    {
        const QString expiring = deployExpiring(u"pop-up-shop"_s, 3 * kDay);
        const QString staying = deployExpiring(u"team-handbook"_s, std::nullopt);
        QTRY_COMPARE(window().model().rowCount(), 2);
        QCOMPARE(expiresCell(expiring), u"in 3 days"_s);
        QCOMPARE(expiresCell(staying), QString());
        QCOMPARE(
            window().model().headerData(DeploymentTableModel::ExpiresColumn, Qt::Horizontal).toString(), u"Expires"_s);
        m_clock.advance(2 * kDay * 1000);
        QCOMPARE(expiresCell(expiring), TimeText::relative(site(expiring).expiresAt, m_clock.now()));
        QCOMPARE(expiresCell(expiring), u"in 1 day"_s);
    }

    void extendingAddsToThePresentExpiryAndNeverRemovesIt()
    {
        const QString id = deployExpiring(u"pop-up-shop"_s, 3 * kDay);
        QTRY_COMPARE(window().model().rowCount(), 1);
        const QDateTime expiresAt = site(id).expiresAt;
        QCOMPARE(expiresAt, kStart.addSecs(3 * kDay));
        auto *dialog = openWith<ExpiryDialog>(window().actions().expiryAction, id);
        QVERIFY(dialog);
        auto *state = child<QLabel>(dialog, u"expiryStateLabel"_s);
        QVERIFY2(state->text().contains(u"in 3 days"_s), qPrintable(state->text()));
        auto *span = child<QComboBox>(dialog, u"expirySpanComboBox"_s);
        span->setCurrentIndex(span->findData(7 * kDay));
        auto *extend = child<QPushButton>(dialog, u"extendButton"_s);
        QCOMPARE(extend->text(), u"&Extend"_s);
        extend->click();
        QTRY_COMPARE(site(id).expiresAt, expiresAt.addSecs(7 * kDay));
        QTRY_COMPARE(expiresCell(id), u"in 10 days"_s); // the list hears it too
        QTRY_VERIFY2(state->text().contains(u"in 10 days"_s), qPrintable(state->text()));

        auto *never = child<QPushButton>(dialog, u"neverExpireButton"_s);
        QTRY_VERIFY(never->isEnabled()); // once the engine has answered the extension
        never->click();
        QTRY_VERIFY(!site(id).expiresAt.isValid());
        QTRY_COMPARE(expiresCell(id), QString());
        QVERIFY2(state->text().contains(u"never expires"_s), qPrintable(state->text()));
        QVERIFY(!never->isEnabled());

        // A site that does not expire is given an expiry from now.
        span->setCurrentIndex(span->findData(kDay));
        QCOMPARE(extend->text(), u"&Set Expiry"_s);
        QTRY_VERIFY(extend->isEnabled());
        extend->click();
        QTRY_COMPARE(site(id).expiresAt, kStart.addSecs(kDay));
        dialog->reject();
    }

    void aPreparedUpdateGoesLiveOnlyFromHistory()
    {
        const QString id = deployExpiring(u"launch-notes"_s, std::nullopt);
        QTRY_COMPARE(window().model().rowCount(), 1);
        const QString folder = m_files.filePath(u"launch-notes"_s);
        QVERIFY(berth::test::writeTree(folder, {{u"index.html"_s, "<p>two</p>"}}));
        window().actions().replaceContent(id, folder);
        PublishDialog *sheet = nullptr;
        QTRY_VERIFY((sheet = openDialog<PublishDialog>(&window())) && sheet->stage() == PublishDialog::Stage::Ready);
        auto *prepare = child<QCheckBox>(sheet, u"prepareOnlyCheckBox"_s);
        auto *button = child<QPushButton>(sheet, u"publishButton"_s);
        QCOMPARE(button->text(), u"&Replace"_s);
        prepare->setChecked(true);
        QCOMPARE(button->text(), u"&Prepare"_s);
        button->click();
        QTRY_COMPARE_WITH_TIMEOUT(sheet->stage(), PublishDialog::Stage::Done, 10'000);
        QCOMPARE(child<QLabel>(sheet, u"resultHeadingLabel"_s)->text(), u"Version 2 of “launch-notes” is prepared"_s);
        QVERIFY(child<QLabel>(sheet, u"resultNoteLabel"_s)->isVisibleTo(sheet));
        sheet->accept();
        // Visitors still get the live version.
        QCOMPARE(m_dashboard->client().site(u"launch-notes"_s).body, QByteArray("<p>one</p>"));
        const auto versions = m_dashboard->engine().history().versions(m_dashboard->owner(), id);
        QVERIFY(versions);
        QCOMPARE(versions.value().size(), 2);

        auto *history = openWith<HistoryDialog>(window().actions().historyAction, id);
        QVERIFY(history);
        auto *list = child<QTreeWidget>(history, u"versionList"_s);
        QCOMPARE(list->topLevelItem(0)->text(0), u"2 (prepared)"_s);
        QCOMPARE(list->topLevelItem(1)->text(0), u"1 (live)"_s);
        list->setCurrentItem(list->topLevelItem(0));
        auto *makeLive = child<QPushButton>(history, u"rollbackButton"_s);
        QCOMPARE(makeLive->text(), u"&Make This Version Live"_s);
        makeLive->click();
        QCOMPARE(m_dashboard->client().site(u"launch-notes"_s).body, QByteArray("<p>two</p>"));
        list->setCurrentItem(list->topLevelItem(list->topLevelItemCount() - 1));
        QCOMPARE(makeLive->text(), u"&Roll Back to This Version"_s);
        history->reject();
    }
};

QTEST_MAIN(TestExpiryAndPrepare)
#include "tst_expiryandprepare.moc"
