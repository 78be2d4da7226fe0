// The dashboard's publish sheet and Redeploy from Folder upload only what changed: every request the sheet
// hands the engine is recorded, and a redeploy of a folder with one changed file carries that file's content only.
#include "ui/publishing/incrementaldeploy.h"
#include "ui/publishing/publishdialog.h"
#include "ui/sitelist/deploymentactions.h"
#include "uitestsupport.h"

#include <QPushButton>

using namespace Qt::StringLiterals;
using berth::DeployRequest;
using berth::IncrementalDeploy;
using berth::PublishDialog;
using berth::test::Dashboard;

class TestIncrementalPublish : public QObject
{
    Q_OBJECT

    std::unique_ptr<Dashboard> m_dashboard;
    std::unique_ptr<QTemporaryDir> m_files;

    // The sheet that opened, with every request it sends to the engine recorded into sent.
    PublishDialog *openSheet(QList<DeployRequest> *sent)
    {
        PublishDialog *sheet = nullptr;
        if (!QTest::qWaitFor(
                [&] { return (sheet = berth::test::openDialog<PublishDialog>(&m_dashboard->window())); }, 5000))
            return nullptr;
        auto *deploy = sheet->findChild<IncrementalDeploy *>(u"incrementalDeploy"_s);
        if (!deploy)
            return nullptr;
        connect(
            deploy, &IncrementalDeploy::sending, this, [sent](const DeployRequest &request) { sent->append(request); });
        return sheet;
    }
    static QStringList withContent(const DeployRequest &request)
    {
        QStringList paths;
        for (const auto &file : request.files.value_or(QList<berth::FileUpload>())) {
            if (!file.isReference())
                paths << file.path;
        }
        return paths;
    }
    static int byHash(const DeployRequest &request)
    {
        int count = 0;
        for (const auto &file : request.files.value_or(QList<berth::FileUpload>()))
            count += file.isReference() && file.content.isEmpty() ? 1 : 0;
        return count;
    }
    bool publishThrough(PublishDialog *sheet)
    {
        if (!QTest::qWaitFor([&] { return sheet->stage() == PublishDialog::Stage::Ready; }, 20'000))
            return false;
        QTest::mouseClick(sheet->findChild<QPushButton *>(u"publishButton"_s), Qt::LeftButton);
        return QTest::qWaitFor([&] { return sheet->stage() == PublishDialog::Stage::Done; }, 20'000);
    }

    // Redeploy from Folder for the current site, through the sheet to the end.
    bool redeploy(berth::DeploymentActions &actions, QList<DeployRequest> *sent)
    {
        actions.redeployAction->trigger();
        PublishDialog *sheet = openSheet(sent);
        if (!sheet || !publishThrough(sheet))
            return false;
        sheet->accept();
        return true;
    }

private Q_SLOTS:
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

    void redeploySendsOnlyTheChangedFile()
    {
        const QString folder = m_files->filePath(u"inc-site"_s);
        QByteArray big(512 * 1024, 'x');
        QVERIFY(berth::test::writeTree(folder,
            {{u"index.html"_s, "<h1>One</h1>"}, {u"style.css"_s, "body{}"}, {u"img/big.bin"_s, big},
                {u"about.html"_s, "<p>about</p>"}}));

        // First publish: the engine holds none of it, so the hashes go first and then every file's content once.
        QList<DeployRequest> sent;
        berth::test::dropPaths(&m_dashboard->window(), QPoint(200, 200), {folder});
        PublishDialog *sheet = openSheet(&sent);
        QVERIFY(sheet);
        QVERIFY(publishThrough(sheet));
        const QString id = sheet->deploymentId();
        sheet->accept();
        QCOMPARE(sent.size(), 2);
        QCOMPARE(withContent(sent.at(0)), QStringList());
        QCOMPARE(byHash(sent.at(0)), 4);
        QCOMPARE(withContent(sent.at(1)).size(), 4);
        QCOMPARE(m_dashboard->client().site(u"inc-site"_s).body, QByteArray("<h1>One</h1>"));

        // One file changed: Redeploy from Folder sends its content and names the other three by hash.
        QVERIFY(berth::test::writeTree(folder, {{u"index.html"_s, "<h1>Two</h1>"}}));
        sent.clear();
        m_dashboard->select(id);
        berth::DeploymentActions &actions = m_dashboard->window().actions();
        actions.setCurrentId(id);
        QVERIFY(actions.redeployAction->isEnabled());
        QVERIFY(redeploy(actions, &sent));
        QCOMPARE(sent.size(), 2);
        QCOMPARE(withContent(sent.at(0)), QStringList());
        QCOMPARE(withContent(sent.at(1)), QStringList {u"index.html"_s});
        QCOMPARE(byHash(sent.at(1)), 3);
        auto &client = m_dashboard->client();
        QCOMPARE(client.site(u"inc-site"_s).body, QByteArray("<h1>Two</h1>"));
        QCOMPARE(client.site(u"inc-site"_s, u"/img/big.bin"_s).body, big);
        QCOMPARE(client.site(u"inc-site"_s, u"/about.html"_s).body, QByteArray("<p>about</p>"));

        // Nothing changed: one request of hashes alone is enough.
        sent.clear();
        QVERIFY(redeploy(actions, &sent));
        QCOMPARE(sent.size(), 1);
        QCOMPARE(byHash(sent.at(0)), 4);
    }

    void aSinglePageGoesAsItIs()
    {
        // A single .html file has no files to name by hash: one request, with the page.
        const QString file = m_files->filePath(u"page.html"_s);
        QVERIFY(berth::test::writeTree(m_files->path(), {{u"page.html"_s, "<h1>Page</h1>"}}));
        QList<DeployRequest> sent;
        berth::test::dropPaths(&m_dashboard->window(), QPoint(200, 200), {file});
        PublishDialog *sheet = openSheet(&sent);
        QVERIFY(sheet);
        QVERIFY(publishThrough(sheet));
        sheet->accept();
        QCOMPARE(sent.size(), 1);
        QVERIFY(!sent.at(0).files);
        QCOMPARE(sent.at(0).html.value_or(QString()), u"<h1>Page</h1>"_s);
    }
};

QTEST_MAIN(TestIncrementalPublish)
#include "tst_incrementalpublish.moc"
