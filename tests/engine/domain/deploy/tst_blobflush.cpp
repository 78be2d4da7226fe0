// A deploy's blobs are made durable together before its commit: a flush that fails refuses the deploy with the API's
// errors and leaves the version that was live; the order of writes, flush and commit is the one crash safety needs.
#include "deploymentfixture.h"
#include "web/apierror.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QMutex>
#include <QTest>
#include <cerrno>

using namespace Qt::StringLiterals;
using namespace berth;

namespace {

const QDateTime T0(QDate(2026, 1, 1), QTime(12, 0), Qt::UTC);

QList<FileUpload> version(const QByteArray &tag)
{
    return {{u"index.html"_s, "<p>" + tag + "</p>", "text/html"}, {u"page.html"_s, "page " + tag, "text/html"}};
}

} // namespace

class TestBlobFlush final : public QObject
{
    Q_OBJECT

    std::unique_ptr<test::DeploymentFixture> m_fixture;

    Result<Deployment> update(const QString &id, const QByteArray &tag)
    {
        DeployRequest request;
        request.files = version(tag);
        return test::DeploymentFixture::wait(m_fixture->service().update(m_fixture->owner(), id, request));
    }

    QByteArray served(const QString &slug, const QString &path)
    {
        const auto site = m_fixture->sites().find(slug);
        const SiteFile *file = site ? site->file(path) : nullptr;
        return file ? m_fixture->blobs().read(file->blob) : QByteArray();
    }

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<test::DeploymentFixture>(
            User {u"usr_flush"_s, u"flush@example.com"_s, u"pro"_s, false, T0}, T0);
        QVERIFY(m_fixture->start());
    }
    void cleanup() { m_fixture.reset(); }

    void failedFlushRefusesAndKeepsTheLiveVersion()
    {
        const Result<Deployment> first = m_fixture->deployFiles(version("v1"));
        QVERIFY(first);
        const QString id = first.value().id;
        const QString slug = first.value().slug;

        // A write-back the disk refused: a 500 that names no server path.
        m_fixture->blobs().setFlushFault([] { return EIO; });
        const Result<Deployment> failed = update(id, "v2");
        QVERIFY(!failed);
        const HttpResponse refused = errorResponse(failed.error());
        QCOMPARE(refused.status, 500);
        QCOMPARE(QJsonDocument::fromJson(refused.body).object(),
            QJsonObject({{u"error"_s, u"Could not store the files"_s}}));
        QCOMPARE(served(slug, u"index.html"_s), QByteArray("<p>v1</p>"));
        QCOMPARE(m_fixture->repository().versions().list(id).size(), 1);

        // A full disk found at the flush: the 507 of a full disk.
        m_fixture->blobs().setFlushFault([] { return ENOSPC; });
        const Result<Deployment> full = update(id, "v3");
        QVERIFY(!full);
        QCOMPARE(errorResponse(full.error()).status, 507);
        QCOMPARE(served(slug, u"page.html"_s), QByteArray("page v1"));

        // A new deployment is refused the same way, and none is made.
        const Result<Deployment> created = m_fixture->deployFiles(version("new"));
        QVERIFY(!created);
        QCOMPARE(m_fixture->repository().countForUser(m_fixture->owner().id), 1);

        m_fixture->blobs().setFlushFault({});
        QVERIFY(update(id, "v2"));
        QCOMPARE(served(slug, u"index.html"_s), QByteArray("<p>v2</p>"));
    }

    // Every blob written, then one flush, then the commit: a crash before the flush has finished leaves nothing
    // that a committed version references unflushed.
    void blobsAreFlushedOnceBeforeTheCommit()
    {
        QMutex lock;
        QStringList steps;
        const auto note = [&](const QString &step) {
            QMutexLocker locked(&lock);
            if (steps.isEmpty() || steps.last() != step)
                steps.append(step);
        };
        int flushes = 0;
        m_fixture->faults().setHook([&](const char *point) { note(QString::fromLatin1(point)); });
        m_fixture->blobs().setFlushFault([&] {
            ++flushes;
            note(u"flush"_s);
            return 0;
        });
        QList<FileUpload> files;
        for (int i = 0; i < 50; ++i)
            files.append({u"p%1.html"_s.arg(i), "<p>page " + QByteArray::number(i) + "</p>", "text/html"});
        QVERIFY(m_fixture->deployFiles(files));
        QCOMPARE(flushes, 1);
        QCOMPARE(steps,
            QStringList({u"blob-written"_s, u"before-blob-flush"_s, u"flush"_s, u"after-blob-flush"_s,
                u"before-commit"_s, u"after-commit"_s}));

        // Nothing new to write: no flush at all.
        steps.clear();
        QVERIFY(m_fixture->deployFiles(files));
        QCOMPARE(flushes, 1);
    }
};

QTEST_GUILESS_MAIN(TestBlobFlush)
#include "tst_blobflush.moc"
