// Live folders in the dashboard: a site set Live follows its folder. Edits, additions and deletions show
// on the site within 3 s, a refusal shows in the row and the watch goes on, a burst of 500 changes makes at most a
// few deploys.
#include "domain/deploy/deploymentservice.h"
#include "domain/deploy/versionhistory.h"
#include "ui/mainwindow/mainwindow.h"
#include "ui/publishing/livefolders.h"
#include "ui/sitelist/deploymentactions.h"
#include "ui/sitelist/deploymenttablemodel.h"
#include "uitestsupport.h"

#include <QAction>
#include <QSignalSpy>

using namespace Qt::StringLiterals;
using namespace berth;
using berth::test::Dashboard;

class TestLiveFolder : public QObject
{
    Q_OBJECT

    std::unique_ptr<Dashboard> m_dashboard;
    QTemporaryDir m_sites;

    static bool write(const QString &path, const QByteArray &bytes)
    {
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile file(path);
        return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(bytes) == bytes.size();
    }
    int newestVersion(const QString &id)
    {
        const auto versions = m_dashboard->engine().history().versions(m_dashboard->owner(), id);
        return versions && !versions.value().isEmpty() ? versions.value().first().number : 0;
    }

private Q_SLOTS:
    void init()
    {
        m_dashboard = std::make_unique<Dashboard>();
        QVERIFY(m_dashboard->start());
    }
    void cleanup() { m_dashboard.reset(); }

    void aLiveSiteFollowsItsFolder()
    {
        const QString folder = m_sites.filePath(u"live"_s);
        QVERIFY(write(folder + u"/index.html"_s, "<p>one</p>"));
        QVERIFY(write(folder + u"/gone.txt"_s, "soon gone"));
        const QString id
            = m_dashboard->deploy(u"live-folder"_s, {{u"index.html"_s, "<p>one</p>"}, {u"gone.txt"_s, "soon gone"}});
        QVERIFY(!id.isEmpty());
        m_dashboard->settings().setSourcePath(id, folder);
        m_dashboard->select(id);
        DeploymentActions &actions = m_dashboard->window().actions();
        actions.setCurrentId(id); // the source folder is known now
        actions.liveFolders().setDebounce(200);
        QVERIFY(actions.liveAction->isEnabled());
        actions.liveAction->trigger();
        QVERIFY(actions.liveAction->isChecked());
        QVERIFY(actions.liveFolders().isLive(id));
        auto &client = m_dashboard->client();

        QVERIFY(write(folder + u"/index.html"_s, "<p>two</p>")); // an edit
        QTRY_COMPARE_WITH_TIMEOUT(client.site(u"live-folder"_s).body, QByteArray("<p>two</p>"), 3000);
        QVERIFY(write(folder + u"/sub/new.txt"_s, "added")); // an addition in a new folder
        QTRY_COMPARE_WITH_TIMEOUT(client.site(u"live-folder"_s, u"/sub/new.txt"_s).body, QByteArray("added"), 3000);
        QVERIFY(QFile::remove(folder + u"/gone.txt"_s)); // a deletion
        QTRY_COMPARE_WITH_TIMEOUT(client.site(u"live-folder"_s, u"/gone.txt"_s).status, 404, 3000);
        DeploymentTableModel &model = m_dashboard->window().model();
        QTRY_VERIFY(model.liveStatus(id).contains(u"synced"_s));

        // A refusal shows in the row; the watch goes on.
        QVERIFY(berth::test::writeSparse(folder + u"/huge.bin"_s, 10 * 1024 * 1024 + 1));
        QTRY_VERIFY_WITH_TIMEOUT(model.liveStatus(id).contains(u"not synced"_s), 5000);
        QVERIFY(model.data(model.indexOf(id, DeploymentTableModel::UpdatedColumn)).toString().contains(u"huge.bin"_s));
        QVERIFY(QFile::remove(folder + u"/huge.bin"_s));
        QVERIFY(write(folder + u"/index.html"_s, "<p>three</p>"));
        QTRY_COMPARE_WITH_TIMEOUT(client.site(u"live-folder"_s).body, QByteArray("<p>three</p>"), 3000);

        // A burst of 500 changes makes at most a few deploys.
        QTRY_VERIFY(model.liveStatus(id).contains(u"synced"_s));
        const int before = newestVersion(id);
        for (int i = 0; i < 500; ++i)
            QVERIFY(write(folder + u"/burst/f%1.txt"_s.arg(i % 100), QByteArray::number(i)));
        QTRY_COMPARE_WITH_TIMEOUT(client.site(u"live-folder"_s, u"/burst/f99.txt"_s).body, QByteArray("499"), 5000);
        QTest::qWait(800); // on the event loop: a late redeploy would land meanwhile
        const int deploys = newestVersion(id) - before;
        QVERIFY2(deploys >= 1 && deploys <= 3, qPrintable(QString::number(deploys)));

        // Turned off, the folder no longer moves the site.
        actions.liveAction->trigger();
        QVERIFY(!actions.liveFolders().isLive(id));
        QVERIFY(write(folder + u"/index.html"_s, "<p>four</p>"));
        QTest::qWait(600);
        QCOMPARE(client.site(u"live-folder"_s).body, QByteArray("<p>three</p>"));
    }
};

QTEST_MAIN(TestLiveFolder)
#include "tst_livefolder.moc"
