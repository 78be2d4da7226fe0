// The deployments model against a real engine: rows follow creates, updates, renames and deletes
// made through the services (as the API makes them), under QAbstractItemModelTester's contract.
#include "domain/accounts/accountservice.h"
#include "domain/deploy/deploymentservice.h"
#include "domain/deploy/siteloader.h"
#include "domain/siterules/siteaddresses.h"
#include "domain/siterules/sitetable.h"
#include "enginefixture.h"
#include "ui/sitelist/deploymentfiltermodel.h"
#include "ui/sitelist/deploymenttablemodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;

class TestDeploymentTableModel : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<test::EngineFixture> m_fixture;
    std::unique_ptr<DeploymentTableModel> m_model;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
    User m_owner;

    DeploymentService &service() { return m_fixture->engine().deployments(); }
    Result<Deployment> run(QFuture<Result<Deployment>> future)
    {
        if (!QTest::qWaitFor([&] { return future.isFinished(); }, 10'000))
            return Error {Error::Kind::Internal, u"timeout"_s};
        return future.result();
    }
    QString create(const QString &slug, const QByteArray &content, const User &owner)
    {
        DeployRequest request;
        request.slug = slug;
        request.files = QList<FileUpload> {{u"index.html"_s, content, "text/html; charset=utf-8"}};
        const auto result = run(service().create(owner, request));
        return result ? result.value().id : QString();
    }

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<test::EngineFixture>();
        QVERIFY(m_fixture->start());
        m_owner = m_fixture->engine().accounts().ensureOwner().value().owner;
        m_model = std::make_unique<DeploymentTableModel>(service(), m_fixture->engine().siteLoader(),
            m_fixture->engine().sites(), m_fixture->engine().addresses(), m_owner);
        m_tester = std::make_unique<QAbstractItemModelTester>(
            m_model.get(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    }
    void cleanup()
    {
        m_tester.reset();
        m_model.reset();
        m_fixture.reset();
    }

    void rowsFollowTheService()
    {
        QCOMPARE(m_model->rowCount(), 0);
        const QString id = create(u"model-site"_s, QByteArray(2048, 'x'), m_owner);
        QVERIFY(!id.isEmpty());
        QCOMPARE(m_model->rowCount(), 1);
        QCOMPARE(m_model->index(0, DeploymentTableModel::SlugColumn).data().toString(), u"model-site"_s);
        QCOMPARE(m_model->index(0, DeploymentTableModel::SizeColumn).data(DeploymentTableModel::SortRole).toLongLong(),
            2048);
        QCOMPARE(m_model->index(0, DeploymentTableModel::UrlColumn).data().toString(),
            m_fixture->engine().addresses().siteUrl(u"model-site"_s));
        QCOMPARE(m_model->index(0, DeploymentTableModel::AccessColumn).data().toString(), u"Public"_s);

        QSignalSpy changed(m_model.get(), &QAbstractItemModel::dataChanged);
        DeployRequest protect;
        protect.protect = true;
        QVERIFY(run(service().update(m_owner, id, protect)));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(m_model->index(0, DeploymentTableModel::AccessColumn).data().toString(), u"Private"_s);
        QVERIFY(m_model->index(0, 0).data(DeploymentTableModel::ShareUrlRole).toString().contains(u"_token="_s));

        QVERIFY(service().rename(m_owner, id, u"renamed-site"_s));
        QCOMPARE(m_model->index(0, DeploymentTableModel::SlugColumn).data().toString(), u"renamed-site"_s);

        QVERIFY(service().remove(m_owner, id));
        QCOMPARE(m_model->rowCount(), 0);
    }

    void anotherUsersDeploymentsAreNotShown()
    {
        const auto other = m_fixture->engine().accounts().ensureUser(u"someone@example.com"_s, u"free"_s);
        QVERIFY(other);
        QVERIFY(!create(u"not-mine"_s, "x", other.value()).isEmpty());
        QCOMPARE(m_model->rowCount(), 0);
    }

    void existingDeploymentsLoadAtStart()
    {
        QVERIFY(!create(u"early-one"_s, "1", m_owner).isEmpty());
        QVERIFY(!create(u"early-two"_s, "2", m_owner).isEmpty());
        DeploymentTableModel fresh(service(), m_fixture->engine().siteLoader(), m_fixture->engine().sites(),
            m_fixture->engine().addresses(), m_owner);
        QCOMPARE(fresh.rowCount(), 2);
    }

    void proxySortsBySizeAndFiltersByWords()
    {
        QVERIFY(!create(u"small-site"_s, "1", m_owner).isEmpty());
        QVERIFY(!create(u"large-site"_s, QByteArray(5000, 'x'), m_owner).isEmpty());
        DeploymentFilterModel proxy;
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(m_model.get());
        proxy.sort(DeploymentTableModel::SizeColumn, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, 0).data().toString(), u"large-site"_s);
        proxy.setFilterText(u"SMALL"_s);
        QCOMPARE(proxy.rowCount(), 1);
        QCOMPARE(proxy.index(0, 0).data().toString(), u"small-site"_s);
        proxy.setFilterText(u"site public"_s); // every word must match somewhere in the row
        QCOMPARE(proxy.rowCount(), 2);
        proxy.setFilterText(u"site private"_s);
        QCOMPARE(proxy.rowCount(), 0);
    }
};

QTEST_MAIN(TestDeploymentTableModel)
#include "tst_deploymenttablemodel.moc"
