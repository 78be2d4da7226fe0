// A site's History window: its versions newest first, what rolling back would change, and the rollback
// itself, checked over HTTP.
#include "domain/common/mimetypes.h"
#include "domain/deploy/deploymentservice.h"
#include "domain/deploy/versionhistory.h"
#include "ui/mainwindow/mainwindow.h"
#include "ui/settings/settingsdialog.h"
#include "ui/sitelist/deploymentactions.h"
#include "ui/sitelist/historydialog.h"
#include "uitestsupport.h"

#include <QAction>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTreeWidget>

using namespace Qt::StringLiterals;
using namespace berth;
using berth::test::child;
using berth::test::Dashboard;
using berth::test::openDialog;

class TestHistory : public QObject
{
    Q_OBJECT

    std::unique_ptr<Dashboard> m_dashboard;

    bool replace(const QString &id, const QList<std::pair<QString, QByteArray>> &files)
    {
        DeployRequest request;
        QList<FileUpload> uploads;
        for (const auto &[path, content] : files)
            uploads.append({path, content, MimeTypes::forPath(path)});
        request.files = uploads;
        const auto future = m_dashboard->engine().deployments().update(m_dashboard->owner(), id, request);
        return QTest::qWaitFor([&] { return future.isFinished(); }, 10'000) && future.result().ok();
    }

private Q_SLOTS:
    void init()
    {
        m_dashboard = std::make_unique<Dashboard>();
        QVERIFY(m_dashboard->start());
    }
    void cleanup() { m_dashboard.reset(); }

    void versionsKeptIsAnOwnerSetting()
    {
        auto *dialog = new SettingsDialog(
            {m_dashboard->engine(), m_dashboard->owner(), m_dashboard->settings(), m_dashboard->window().prompter()},
            &m_dashboard->window());
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
        auto *kept = child<QSpinBox>(dialog, u"versionsKeptSpinBox"_s);
        QVERIFY(kept);
        QCOMPARE(kept->value(), VersionHistory::kDefaultVersionsKept);
        kept->setValue(2);
        dialog->accept();
        QCOMPARE(m_dashboard->engine().history().versionsKept(), 2);

        const QString id = m_dashboard->deploy(u"kept-two"_s, {{u"index.html"_s, "1"}});
        QVERIFY(replace(id, {{u"index.html"_s, "2"}}));
        QVERIFY(replace(id, {{u"index.html"_s, "3"}}));
        QCOMPARE(m_dashboard->engine().history().versions(m_dashboard->owner(), id).value().size(), 2);
    }

    void diffOfTwoFileLists()
    {
        const QList<StoredFile> from {
            {u"a"_s, "1", 1, "text/plain"}, {u"b"_s, "2", 1, "text/plain"}, {u"c"_s, "3", 1, "text/plain"}};
        const QList<StoredFile> to {
            {u"b"_s, "2", 1, "text/plain"}, {u"c"_s, "9", 1, "text/plain"}, {u"d"_s, "4", 1, "text/plain"}};
        const FileListDiff diff = FileListDiff::between(from, to);
        QCOMPARE(diff.added, QStringList {u"d"_s});
        QCOMPARE(diff.removed, QStringList {u"a"_s});
        QCOMPARE(diff.changed, QStringList {u"c"_s});
    }

    void rollBackFromTheHistoryWindow()
    {
        const QString id
            = m_dashboard->deploy(u"history-site"_s, {{u"index.html"_s, "<p>first</p>"}, {u"old.css"_s, "o"}});
        QVERIFY(!id.isEmpty());
        QVERIFY(replace(id, {{u"index.html"_s, "<p>second</p>"}, {u"new.css"_s, "n"}}));
        m_dashboard->select(id);
        m_dashboard->window().actions().historyAction->trigger();
        HistoryDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = openDialog<HistoryDialog>(&m_dashboard->window())));

        auto *list = child<QTreeWidget>(dialog, u"versionList"_s);
        auto *rollback = child<QPushButton>(dialog, u"rollbackButton"_s);
        auto *diff = child<QLabel>(dialog, u"diffSummary"_s);
        QVERIFY(list && rollback && diff);
        QCOMPARE(list->topLevelItemCount(), 2);
        QVERIFY(list->topLevelItem(0)->text(0).startsWith(u"2"_s)); // newest first, and live
        QVERIFY(!rollback->isEnabled()); // the live version is selected
        list->setCurrentItem(list->topLevelItem(1));
        QVERIFY(rollback->isEnabled());
        // Against the live version: old.css comes back, new.css goes, index.html changes.
        QVERIFY2(diff->text().contains(u"old.css"_s) && diff->text().contains(u"new.css"_s)
                && diff->text().contains(u"index.html"_s),
            qPrintable(diff->text()));

        QTest::mouseClick(rollback, Qt::LeftButton);
        QCOMPARE(m_dashboard->client().site(u"history-site"_s).body, QByteArray("<p>first</p>"));
        QCOMPARE(m_dashboard->client().site(u"history-site"_s, u"/old.css"_s).body, QByteArray("o"));
        QCOMPARE(m_dashboard->client().site(u"history-site"_s, u"/new.css"_s).status, 404);
        QCOMPARE(list->topLevelItemCount(), 3); // the rollback is version 3, live
        QVERIFY(list->topLevelItem(0)->text(0).startsWith(u"3"_s));
    }
};

QTEST_MAIN(TestHistory)
#include "tst_history.moc"
