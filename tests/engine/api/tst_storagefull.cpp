// A full disk: ENOSPC while storing blobs and SQLITE_FULL while committing give 507 with
// {"error": "Not enough storage space on the server"} and nothing of the server's paths or the system's words; the
// first deploy after space is freed works. The disk is made full by the blob store's write-fault hook and by
// SQLite's page limit, so no root or real full disk is needed.
#include "deploymentfixture.h"
#include "domain/common/clock.h"
#include "domain/deploy/deploymentservice.h"
#include "domain/plans/plantable.h"
#include "domain/siterules/sitetable.h"
#include "domain/visitors/counterservice.h"
#include "domain/visitors/submissionservice.h"
#include "storage/blobstore.h"
#include "storage/counterrepository.h"
#include "storage/database.h"
#include "storage/deploymentrepository.h"
#include "storage/submissionrepository.h"
#include "storage/userrepository.h"
#include "web/apierror.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>
#include <QTest>
#include <atomic>
#include <cerrno>

using namespace Qt::StringLiterals;
using namespace berth;

namespace {

const QDateTime T0(QDate(2026, 11, 23), QTime(12, 0), Qt::UTC);

} // namespace

class TestStorageFull : public QObject
{
    Q_OBJECT

    std::unique_ptr<test::DeploymentFixture> m_fixture;
    std::atomic<bool> m_diskFull {false};

    Result<Deployment> deploy(const QString &path, const QByteArray &content)
    {
        return m_fixture->deployFiles({{path, content, "text/plain; charset=utf-8"}});
    }

    // SQLite's page limit at the database's current size: the next write that needs a page gets SQLITE_FULL.
    void fillDatabase()
    {
        QSqlQuery query(m_fixture->database().connection());
        QVERIFY(query.exec(u"PRAGMA page_count"_s) && query.next());
        const int pages = query.value(0).toInt();
        query.finish();
        QVERIFY(query.exec(u"PRAGMA max_page_count = %1"_s.arg(pages)));
    }
    void freeDatabase()
    {
        QSqlQuery query(m_fixture->database().connection());
        QVERIFY(query.exec(u"PRAGMA max_page_count = 1073741823"_s));
    }

    // The answer the API and the built-in endpoints give for this error, as a client reads it.
    template<typename T>
    static void verifyInsufficientStorage(const Result<T> &result)
    {
        QVERIFY(!result);
        const HttpResponse response = errorResponse(result.error());
        QCOMPARE(response.status, 507);
        QCOMPARE(QJsonDocument::fromJson(response.body).object(),
            QJsonObject({{u"error"_s, u"Not enough storage space on the server"_s}}));
    }

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<test::DeploymentFixture>(
            User {u"usr_full"_s, u"full@example.com"_s, u"pro"_s, false, T0}, T0);
        QVERIFY(m_fixture->start());
        m_diskFull = false;
        m_fixture->blobs().setWriteFault([this](const QString &) { return m_diskFull ? ENOSPC : 0; });
    }
    void cleanup() { m_fixture.reset(); }

    void fullDiskWhileStoringBlobs()
    {
        m_diskFull = true;
        const Result<Deployment> refused = deploy(u"blob1.bin"_s, "some bytes");
        verifyInsufficientStorage(refused);
        QVERIFY(!refused.error().message.contains(m_fixture->path()));

        // Any other failure stays a 500 that names the file the client sent, never a server path.
        m_fixture->blobs().setWriteFault([](const QString &) { return EACCES; });
        const Result<Deployment> denied = deploy(u"blob1.bin"_s, "other bytes");
        QVERIFY(!denied);
        QCOMPARE(errorResponse(denied.error()).status, 500);
        QCOMPARE(denied.error().message, u"Could not store \"blob1.bin\""_s);

        // Space freed: the next deploy works.
        m_fixture->blobs().setWriteFault({});
        QVERIFY(deploy(u"blob1.bin"_s, "some bytes"));
    }

    void fullDatabaseWhileCommitting()
    {
        QVERIFY(deploy(u"first.txt"_s, "first"));
        // SQLite's page limit at the current size: the next insert finds the database full (SQLITE_FULL).
        QSqlQuery query(m_fixture->database().connection());
        QVERIFY(query.exec(u"PRAGMA page_count"_s) && query.next());
        const int pages = query.value(0).toInt();
        query.finish();
        QVERIFY(query.exec(u"PRAGMA max_page_count = %1"_s.arg(pages)));
        query.finish();
        // File rows are small; long paths fill pages fast.
        DeployRequest request;
        QList<FileUpload> files;
        for (int i = 0; i < 200; ++i)
            files.append({u"dir/%1/%2.txt"_s.arg(QString(200, u'p')).arg(i), QByteArray::number(i), "text/plain"});
        request.files = files;
        auto future = m_fixture->service().create(m_fixture->owner(), request);
        QVERIFY(QTest::qWaitFor([&] { return future.isFinished(); }, 30000));
        verifyInsufficientStorage(future.result());

        QVERIFY(query.exec(u"PRAGMA max_page_count = 1073741823"_s));
        QVERIFY(deploy(u"after.txt"_s, "after"));
    }

    // A visitor's form post or counter increment on a full disk: 507 too, and the next one after space is freed works.
    void fullDatabaseForVisitors()
    {
        const Result<Deployment> site = deploy(u"index.html"_s, "<p>form</p>");
        QVERIFY(site);
        SubmissionRepository submissionRepository(m_fixture->database());
        CounterRepository counterRepository(m_fixture->database());
        SubmissionService submissions(
            submissionRepository, m_fixture->repository(), m_fixture->users(), m_fixture->plans(), m_fixture->clock());
        CounterService counters(
            counterRepository, m_fixture->repository(), m_fixture->users(), m_fixture->plans(), m_fixture->clock());

        fillDatabase();
        // Rows are small; a long message and counter names fill pages fast.
        Result<Submission> refused = Submission();
        for (int i = 0; i < 50 && refused; ++i)
            refused = submissions.receive(site.value(), QJsonObject {{u"message"_s, QString(3000, u'm')}});
        verifyInsufficientStorage(refused);
        Result<qint64> notCounted = qint64(0);
        for (int i = 0; i < 50 && notCounted; ++i)
            notCounted = counters.increment(site.value(), u"visits-%1-%2"_s.arg(QString(40, u'c')).arg(i));
        verifyInsufficientStorage(notCounted);

        freeDatabase();
        QVERIFY(submissions.receive(site.value(), QJsonObject {{u"message"_s, u"after"_s}}));
        QVERIFY(counters.increment(site.value(), u"after"_s));
    }
};

QTEST_GUILESS_MAIN(TestStorageFull)
#include "tst_storagefull.moc"
