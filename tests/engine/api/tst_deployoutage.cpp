// A deploy while the shared database is unreachable: when the blob store behind the folder (PostgreSQL's
// chunk table) cannot take a file, the deploy answers what every other path answers then, 503
// {"error": "The database is unavailable; try again in a moment"}, not a 500; it writes no deployment, an update
// leaves the served version as it was, and the first deploy once the database is back works. The outage is a
// BlobBackend double that refuses as PostgresBlobBackend does on a dropped connection, so no cluster is needed.
#include "deploymentfixture.h"
#include "domain/common/clock.h"
#include "domain/deploy/blobgarbage.h"
#include "domain/deploy/deploymentservice.h"
#include "domain/deploy/faultpoints.h"
#include "domain/deploy/siteloader.h"
#include "domain/deploy/versionhistory.h"
#include "domain/plans/plantable.h"
#include "domain/siterules/sitetable.h"
#include "resultassert.h"
#include "storage/blobbackend.h"
#include "storage/blobstore.h"
#include "storage/database.h"
#include "storage/deploymentrepository.h"
#include "storage/userrepository.h"
#include "web/apierror.h"

#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutex>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;

namespace {

const QDateTime T0(QDate(2026, 11, 25), QTime(12, 0), Qt::UTC);
const QString kUnavailable = u"The database is unavailable; try again in a moment"_s;

// The shared store in memory; from the storeAllowed-th store on (counting from 0), every store is refused the way
// PostgresBlobBackend refuses when its connection is gone (past ReconnectingBlobBackend's second try).
class OutageBackend final : public BlobBackend
{
public:
    void goDown(int storesStillAllowed = 0)
    {
        const QMutexLocker lock(&m_mutex);
        m_storesAllowed = storesStillAllowed;
    }
    void comeBack()
    {
        const QMutexLocker lock(&m_mutex);
        m_storesAllowed = -1;
    }
    int held() const
    {
        const QMutexLocker lock(&m_mutex);
        return int(m_blobs.size());
    }

    Result<bool> store(const QByteArray &hash, const QByteArray &suffix, const QByteArray &data) override
    {
        const QMutexLocker lock(&m_mutex);
        if (m_storesAllowed == 0)
            return Error {Error::Kind::Unavailable, kUnavailable};
        if (m_storesAllowed > 0)
            --m_storesAllowed;
        const bool added = !m_blobs.contains(hash + '.' + suffix);
        m_blobs.insert(hash + '.' + suffix, data);
        return added;
    }
    Result<bool> retain(const QByteArray &hash) override
    {
        const QMutexLocker lock(&m_mutex);
        if (m_storesAllowed == 0)
            return Error {Error::Kind::Unavailable, kUnavailable};
        return m_blobs.contains(hash + '.');
    }
    Result<bool> has(const QByteArray &hash, const QByteArray &suffix) override
    {
        const QMutexLocker lock(&m_mutex);
        return m_blobs.contains(hash + '.' + suffix);
    }
    Result<QHash<QByteArray, qint64>> variantSizes(const QList<QByteArray> &hashes, const QByteArray &suffix) override
    {
        const QMutexLocker lock(&m_mutex);
        QHash<QByteArray, qint64> sizes;
        for (const QByteArray &hash : hashes) {
            if (const auto found = m_blobs.constFind(hash + '.' + suffix); found != m_blobs.constEnd())
                sizes.insert(hash, found->size());
        }
        return sizes;
    }
    Result<bool> load(const QByteArray &hash, const QByteArray &suffix, const ChunkSink &sink) override
    {
        QByteArray data;
        {
            const QMutexLocker lock(&m_mutex);
            const auto found = m_blobs.constFind(hash + '.' + suffix);
            if (found == m_blobs.constEnd())
                return false;
            data = *found;
        }
        return sink(data);
    }
    Result<bool> remove(const QByteArray &) override { return false; } // kept: this test removes nothing
    Result<int> removeAllExcept(const QSet<QByteArray> &) override { return 0; }

private:
    mutable QMutex m_mutex;
    QHash<QByteArray, QByteArray> m_blobs;
    int m_storesAllowed = -1; // -1: up
};

} // namespace

class TestDeployOutage : public QObject
{
    Q_OBJECT

    std::unique_ptr<OutageBackend> m_backend; // outlives the fixture's blob store
    std::unique_ptr<test::DeploymentFixture> m_fixture;

    static Result<Deployment> wait(QFuture<Result<Deployment>> future)
    {
        return test::DeploymentFixture::wait(std::move(future));
    }
    static DeployRequest filesRequest(const QList<QPair<QString, QByteArray>> &files)
    {
        DeployRequest request;
        QList<FileUpload> uploads;
        for (const auto &[path, content] : files)
            uploads.append({path, content, "text/plain; charset=utf-8"});
        request.files = uploads;
        return request;
    }

    // What the API answers for this refusal, as a client reads it.
    static void verifyUnavailable(const Result<Deployment> &result)
    {
        QVERIFY(!result);
        const HttpResponse response = errorResponse(result.error());
        QCOMPARE(response.status, 503);
        QCOMPARE(QJsonDocument::fromJson(response.body).object(), QJsonObject({{u"error"_s, kUnavailable}}));
    }

    // What a visitor of slug gets for path: the bytes of the served version's file.
    QByteArray served(const QString &slug, const QString &path) const
    {
        const std::shared_ptr<const Site> site = m_fixture->sites().find(slug);
        const SiteFile *file = site ? site->file(path) : nullptr;
        return file ? m_fixture->blobs().read(file->blob) : QByteArray();
    }

private Q_SLOTS:
    void init()
    {
        m_backend = std::make_unique<OutageBackend>();
        m_fixture = std::make_unique<test::DeploymentFixture>(
            User {u"usr_outage"_s, u"outage@example.com"_s, u"pro"_s, false, T0}, T0);
        test::DeploymentFixture::Options options;
        options.backend = m_backend.get();
        QVERIFY(m_fixture->start(options));
    }
    void cleanup()
    {
        m_fixture.reset();
        m_backend.reset();
    }

    // A new site, as an HTML page and as files (the second file refused after the first was stored): 503, no row, no
    // site; once the database is back the same deploy works.
    void createWhileUnavailable()
    {
        m_backend->goDown();
        DeployRequest page;
        page.html = u"<title>Down</title><p>page</p>"_s;
        page.slug = u"outage-page"_s;
        verifyUnavailable(wait(m_fixture->service().create(m_fixture->owner(), page)));

        m_backend->goDown(1);
        DeployRequest files = filesRequest({{u"index.html"_s, "<p>one</p>"}, {u"two.txt"_s, "two"}});
        files.slug = u"outage-files"_s;
        verifyUnavailable(wait(m_fixture->service().create(m_fixture->owner(), files)));
        QCOMPARE(m_backend->held(), 1); // the first file went to the shared store; nothing references it

        QCOMPARE(m_fixture->repository().countForUser(m_fixture->owner().id), 0);
        QVERIFY(!m_fixture->repository().findBySlug(u"outage-page"_s));
        QVERIFY(!m_fixture->repository().findBySlug(u"outage-files"_s));
        QCOMPARE(m_fixture->sites().size(), 0);

        m_backend->comeBack();
        const Result<Deployment> created = wait(m_fixture->service().create(m_fixture->owner(), files));
        BERTH_VERIFY_OK(created);
        QCOMPARE(served(u"outage-files"_s, u"two.txt"_s), QByteArray("two"));
    }

    // An update: 503, and the version served before stays the one in the database and the one visitors get.
    void updateWhileUnavailable()
    {
        DeployRequest first = filesRequest({{u"index.html"_s, "<p>old</p>"}, {u"a.txt"_s, "old a"}});
        first.slug = u"kept-site"_s;
        const Result<Deployment> created = wait(m_fixture->service().create(m_fixture->owner(), first));
        BERTH_VERIFY_OK(created);
        const qint64 oldVersion = created.value().versionId;

        m_backend->goDown(1);
        const DeployRequest second = filesRequest({{u"index.html"_s, "<p>new</p>"}, {u"a.txt"_s, "new a"}});
        verifyUnavailable(wait(m_fixture->service().update(m_fixture->owner(), created.value().id, second)));

        const std::optional<Deployment> stored = m_fixture->repository().find(created.value().id);
        QVERIFY(stored);
        QCOMPARE(stored->versionId, oldVersion);
        QCOMPARE(m_fixture->repository().files(oldVersion).size(), 2);
        QCOMPARE(served(u"kept-site"_s, u"index.html"_s), QByteArray("<p>old</p>"));
        QCOMPARE(served(u"kept-site"_s, u"a.txt"_s), QByteArray("old a"));

        m_backend->comeBack();
        BERTH_VERIFY_OK(wait(m_fixture->service().update(m_fixture->owner(), created.value().id, second)));
        QCOMPARE(served(u"kept-site"_s, u"a.txt"_s), QByteArray("new a"));
    }

    // Any other failure of the shared store stays a 500 that says only which file, never the store's words.
    void otherFailuresStayInternal()
    {
        class BrokenBackend final : public BlobBackend
        {
        public:
            Result<bool> store(const QByteArray &, const QByteArray &, const QByteArray &) override
            {
                return Error {Error::Kind::Internal, u"ERROR: relation \"blob_chunks\" does not exist"_s};
            }
            Result<bool> retain(const QByteArray &) override { return false; }
            Result<bool> has(const QByteArray &, const QByteArray &) override { return false; }
            Result<QHash<QByteArray, qint64>> variantSizes(const QList<QByteArray> &, const QByteArray &) override
            {
                return QHash<QByteArray, qint64>();
            }
            Result<bool> load(const QByteArray &, const QByteArray &, const ChunkSink &) override { return false; }
            Result<bool> remove(const QByteArray &) override { return false; }
            Result<int> removeAllExcept(const QSet<QByteArray> &) override { return 0; }
        } broken;
        BlobStore blobs(m_fixture->filePath(u"blobs2"_s));
        QVERIFY(blobs.init());
        blobs.setBackend(&broken, 1024 * 1024);
        SiteTable sites;
        FaultPoints faults;
        SiteLoader loader(m_fixture->repository(), blobs, sites);
        BlobGarbage garbage(m_fixture->repository(), blobs, sites, m_fixture->workers(), faults);
        VersionHistory history(m_fixture->repository(), blobs, loader, garbage, m_fixture->clock(), faults);
        DeploymentService service(m_fixture->repository(), blobs, loader, garbage, history, m_fixture->plans(),
            m_fixture->clock(), m_fixture->workers(), faults);
        const Result<Deployment> refused = wait(service.create(m_fixture->owner(), filesRequest({{u"x.txt"_s, "x"}})));
        QVERIFY(!refused);
        QCOMPARE(errorResponse(refused.error()).status, 500);
        // The database takes a deploy's blobs in groups when they are flushed: the failure names no single file.
        QCOMPARE(refused.error().message, u"Could not store the files"_s);
        m_fixture->workers().waitForDone();
    }
};

QTEST_GUILESS_MAIN(TestDeployOutage)
#include "tst_deployoutage.moc"
