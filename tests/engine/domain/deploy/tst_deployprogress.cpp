// A deploy's progress and cancel (DeployProgress) over a real engine, SQLite file and blob folder: the steps come in
// order with the bytes stored, a cancel before the commit ends the deploy with PublishCancelled and leaves nothing
// stored (no deployment, no blob, the old version of an update still served), and a cancel once the commit has
// begun is refused and the deploy completes.
#include "domain/accounts/accountservice.h"
#include "domain/common/mimetypes.h"
#include "domain/deploy/deploymentservice.h"
#include "domain/deploy/deployprogress.h"
#include "enginefixture.h"

#include <QDirIterator>
#include <QRandomGenerator>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;
using Step = DeployProgress::Step;

namespace {

struct Report
{
    Step step;
    qint64 done;
    qint64 total;
};

// Every file under the blob folder, variants included.
int filesUnder(const QString &root)
{
    int count = 0;
    QDirIterator it(root, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        ++count;
    }
    return count;
}

// Files of random bytes, so no two share a blob with each other or with an earlier deploy.
QList<FileUpload> randomFiles(int count, int bytes)
{
    QList<FileUpload> files;
    for (int i = 0; i < count; ++i) {
        QByteArray content(bytes, Qt::Uninitialized);
        QRandomGenerator::global()->fillRange(reinterpret_cast<quint32 *>(content.data()), bytes / 4);
        const QString path = u"part-%1.txt"_s.arg(i);
        files.append({path, content, MimeTypes::forPath(path)});
    }
    files.append({u"index.html"_s, "<title>Big</title>big", MimeTypes::forPath(u"index.html"_s)});
    return files;
}

} // namespace

class TestDeployProgress : public QObject
{
    Q_OBJECT

    std::unique_ptr<test::EngineFixture> m_fixture;
    User m_owner;

    Engine &engine() { return m_fixture->engine(); }
    QString blobRoot() const { return QDir(m_fixture->dataDir()).filePath(u"blobs"_s); }

    static Result<Deployment> wait(QFuture<Result<Deployment>> future)
    {
        if (!QTest::qWaitFor([&] { return future.isFinished(); }, 30'000))
            return Error {Error::Kind::Internal, u"timed out"_s};
        return future.result();
    }
    DeployRequest request(const QString &slug, QList<FileUpload> files)
    {
        DeployRequest request;
        if (!slug.isEmpty())
            request.slug = slug;
        request.files = std::move(files);
        return request;
    }

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<test::EngineFixture>();
        QVERIFY(m_fixture->start());
        m_owner = engine().accounts().ensureOwner().value().owner;
    }
    void cleanup() { m_fixture.reset(); }

    void stepsComeInOrderWithTheBytesStored()
    {
        const QList<FileUpload> files = randomFiles(24, 64 * 1024);
        qint64 bytes = 0;
        for (const FileUpload &file : files)
            bytes += file.content.size();
        auto progress = DeployProgress::make();
        QList<Report> reports;
        connect(progress.get(), &DeployProgress::progressed, this, [&](Step step, qint64 done, qint64 total) {
            reports.append({step, done, total});
        });

        const auto result = wait(engine().deployments().create(m_owner, request(u"big-site"_s, files), progress));
        QVERIFY2(result, qPrintable(result.error().message));
        QTRY_VERIFY(!reports.isEmpty() && reports.constLast().step == Step::Committing);

        QCOMPARE(reports.constFirst().step, Step::Checking);
        qint64 previous = -1;
        int storing = 0;
        for (qsizetype i = 1; i + 1 < reports.size(); ++i) {
            const Report &report = reports.at(i);
            QCOMPARE(report.step, Step::Storing);
            QCOMPARE(report.total, bytes);
            QVERIFY(report.done >= previous && report.done <= bytes);
            previous = report.done;
            ++storing;
        }
        QVERIFY2(storing >= 10, qPrintable(QString::number(storing))); // step by step, not only at the end
        QCOMPARE(previous, bytes);
        QVERIFY(!progress->cancel()); // committed: too late
    }

    void cancelBeforeTheCommitStoresNothing()
    {
        auto progress = DeployProgress::make();
        const auto future
            = engine().deployments().create(m_owner, request(u"never-site"_s, randomFiles(24, 64 * 1024)), progress);
        // The commit runs on this thread's event loop, which has not run since: the cancel is in time.
        QVERIFY(progress->cancel());
        const auto result = wait(future);
        QVERIFY(!result);
        QCOMPARE(result.error().code, Error::Code::PublishCancelled);
        QVERIFY(engine().deployments().list(m_owner).isEmpty());
        QCOMPARE(m_fixture->client().site(u"never-site"_s).status, 404);
        QTRY_COMPARE(filesUnder(blobRoot()), 0);
    }

    void aCancelledUpdateKeepsTheOldVersion()
    {
        const auto first = wait(
            engine().deployments().create(m_owner, request(u"kept-site"_s, {{u"index.html"_s, "old", "text/html"}})));
        QVERIFY(first);
        const int before = filesUnder(blobRoot());
        auto progress = DeployProgress::make();
        const auto future = engine().deployments().update(
            m_owner, first.value().id, request({}, randomFiles(16, 64 * 1024)), progress);
        QVERIFY(progress->cancel());
        QCOMPARE(wait(future).error().code, Error::Code::PublishCancelled);
        QCOMPARE(m_fixture->client().site(u"kept-site"_s).body, QByteArray("old"));
        QTRY_COMPARE(filesUnder(blobRoot()), before);
    }

    void aCancelOnceTheCommitBeganIsRefused()
    {
        auto progress = DeployProgress::make();
        std::optional<bool> cancelledAtCommit;
        // Direct: on the thread that commits, at the moment the commit begins.
        connect(
            progress.get(), &DeployProgress::progressed, this,
            [&](Step step) {
                if (step == Step::Committing)
                    cancelledAtCommit = progress->cancel();
            },
            Qt::DirectConnection);
        const auto result
            = wait(engine().deployments().create(m_owner, request(u"late-site"_s, randomFiles(4, 1024)), progress));
        QVERIFY(result);
        QCOMPARE(cancelledAtCommit, std::optional<bool>(false));
        QCOMPARE(m_fixture->client().site(u"late-site"_s).status, 200);
    }
};

QTEST_MAIN(TestDeployProgress)
#include "tst_deployprogress.moc"
