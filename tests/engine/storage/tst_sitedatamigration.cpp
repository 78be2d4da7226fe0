// Schema version 2 (submissions, submission_days, counters): an instance at version 1 is brought forward with its
// data intact, and deleting a deployment deletes what its visitors left (ON DELETE CASCADE).
#include "common/resultassert.h"
#include "sitedatarows.h"
#include "storage/counterrepository.h"
#include "storage/submissionrepository.h"

#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;

namespace {

const QDateTime T0 = berth::test::kSiteDataTime;

int rows(const Database &db, const QString &table, const QString &deploymentId)
{
    QSqlQuery query(db.connection());
    query.prepare(u"SELECT COUNT(*) FROM %1 WHERE deployment_id = ?"_s.arg(table)); // table: a test constant
    query.addBindValue(deploymentId);
    return query.exec() && query.next() ? query.value(0).toInt() : -1;
}

} // namespace

class TestSiteDataMigration final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void upgradesVersionOneKeepingDeployments()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"berth.sqlite"_s);
        {
            Database v1(path, {builtInMigrations().constFirst()});
            QVERIFY(v1.open());
            QCOMPARE(v1.schemaVersion(), 1);
            QVERIFY(berth::test::insertDeployment(v1, u"dep_old"_s));
        }
        Database db(path);
        BERTH_VERIFY_OK(db.open());
        QVERIFY(Database::latestSchemaVersion() >= 2);
        QCOMPARE(db.schemaVersion(), Database::latestSchemaVersion());
        QVERIFY(DeploymentRepository(db).find(u"dep_old"_s));

        // The new tables work for the deployment that predates them.
        SubmissionRepository submissions(db);
        BERTH_VERIFY_OK(
            submissions.insert({u"sub_1"_s, u"dep_old"_s, {{u"a"_s, u"b"_s}}, T0}, u"2026-11-21"_s, 10, 10));
        CounterRepository counters(db);
        const Result<qint64> value = counters.increment(u"dep_old"_s, u"visits"_s, 10, T0);
        BERTH_VERIFY_OK(value);
        QCOMPARE(value.value(), 1);
    }

    void deletingADeploymentDeletesItsSubmissionsAndCounters()
    {
        QTemporaryDir dir;
        Database db(dir.filePath(u"berth.sqlite"_s));
        QVERIFY(db.open());
        DeploymentRepository deployments(db);
        for (const QString &id : {u"dep_gone"_s, u"dep_kept"_s})
            QVERIFY(berth::test::insertDeployment(db, id));
        SubmissionRepository submissions(db);
        CounterRepository counters(db);
        for (const QString &id : {u"dep_gone"_s, u"dep_kept"_s}) {
            for (int i = 0; i < 3; ++i) {
                BERTH_VERIFY_OK(submissions.insert(
                    {u"sub_%1_%2"_s.arg(id).arg(i), id, {{u"n"_s, i}}, T0}, u"2026-11-21"_s, 10, 10));
            }
            BERTH_VERIFY_OK(counters.increment(id, u"visits"_s, 10, T0));
        }

        BERTH_VERIFY_OK(deployments.remove(u"dep_gone"_s));
        QCOMPARE(rows(db, u"submissions"_s, u"dep_gone"_s), 0);
        QCOMPARE(rows(db, u"submission_days"_s, u"dep_gone"_s), 0);
        QCOMPARE(rows(db, u"counters"_s, u"dep_gone"_s), 0);
        QCOMPARE(rows(db, u"submissions"_s, u"dep_kept"_s), 3);
        QCOMPARE(rows(db, u"submission_days"_s, u"dep_kept"_s), 1);
        QCOMPARE(rows(db, u"counters"_s, u"dep_kept"_s), 1);
    }

    void rowsNeedAnExistingDeployment()
    {
        QTemporaryDir dir;
        Database db(dir.filePath(u"berth.sqlite"_s));
        QVERIFY(db.open());
        const Result<QStringList> submission
            = SubmissionRepository(db).insert({u"sub_x"_s, u"dep_none"_s, {{u"a"_s, 1}}, T0}, u"2026-11-21"_s, 10, 10);
        QVERIFY(!submission);
        QCOMPARE(submission.error().kind, Error::Kind::Internal);
        const Result<qint64> counter = CounterRepository(db).increment(u"dep_none"_s, u"x"_s, 10, T0);
        QVERIFY(!counter);
        QCOMPARE(counter.error().kind, Error::Kind::Internal);
    }
};

QTEST_GUILESS_MAIN(TestSiteDataMigration)
#include "tst_sitedatamigration.moc"
