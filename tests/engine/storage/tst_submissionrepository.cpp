// SubmissionRepository: the daily count, pruning at the stored maximum in the insert's transaction, paging.
#include "sitedatarows.h"
#include "storage/submissionrepository.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;

namespace {

// What an insert came to; *pruned (optional) receives the ids it deleted.
enum class InsertResult
{
    Ok,
    DailyLimitReached,
    Full,
    Failed
};

InsertResult outcome(const Result<QStringList> &result, QStringList *pruned = nullptr)
{
    if (result.ok()) {
        if (pruned)
            *pruned = result.value();
        return InsertResult::Ok;
    }
    if (result.error().code == Error::Code::SubmissionLimitReached)
        return InsertResult::DailyLimitReached;
    return result.error().kind == Error::Kind::InsufficientStorage ? InsertResult::Full : InsertResult::Failed;
}

const QDateTime T0 = berth::test::kSiteDataTime;
const QString kDay = u"2026-11-21"_s;
const QString kDep = u"dep_a"_s;

Submission submission(int n, const QString &deploymentId = kDep)
{
    return {u"sub_%1_%2"_s.arg(deploymentId).arg(n), deploymentId, {{u"n"_s, n}}, T0.addSecs(n)};
}

QStringList ids(const QList<Submission> &list)
{
    QStringList result;
    for (const Submission &s : list)
        result.append(s.id);
    return result;
}
} // namespace

class TestSubmissionRepository final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        m_db = std::make_unique<Database>(m_dir->filePath(u"berth.sqlite"_s));
        QVERIFY(m_db->open());
        for (const QString &id : {kDep, u"dep_b"_s})
            QVERIFY(berth::test::insertDeployment(*m_db, id));
        m_repo = std::make_unique<SubmissionRepository>(*m_db);
    }

    void cleanup()
    {
        m_repo.reset();
        m_db.reset();
    }

    void storesAndReadsBack()
    {
        const Submission s {u"sub_1"_s, kDep, {{u"name"_s, u"Ada"_s}, {u"tags"_s, QJsonArray {u"a"_s, u"b"_s}}}, T0};
        QCOMPARE(outcome(m_repo->insert(s, kDay, 10, 10)), InsertResult::Ok);
        const auto found = m_repo->find(kDep, u"sub_1"_s);
        QVERIFY(found);
        QCOMPARE(found->data, s.data);
        QCOMPARE(found->createdAt, T0);
        QVERIFY(!m_repo->find(u"dep_b"_s, u"sub_1"_s)); // ids are looked up within their deployment
    }

    void dailyCountRefusesAndResetsWithTheDay()
    {
        for (int i = 0; i < 3; ++i)
            QCOMPARE(outcome(m_repo->insert(submission(i), kDay, 3, 100)), InsertResult::Ok);
        QCOMPARE(outcome(m_repo->insert(submission(3), kDay, 3, 100)), InsertResult::DailyLimitReached);
        QCOMPARE(m_repo->count(kDep), 3);
        QCOMPARE(m_repo->countOnDay(kDep, kDay), 3);
        // Deleting does not give the day's allowance back.
        QVERIFY(m_repo->remove(kDep, submission(0).id));
        QCOMPARE(outcome(m_repo->insert(submission(4), kDay, 3, 100)), InsertResult::DailyLimitReached);
        // Another deployment has its own count.
        QCOMPARE(outcome(m_repo->insert(submission(0, u"dep_b"_s), kDay, 3, 100)), InsertResult::Ok);
        // A new day starts from zero.
        QCOMPARE(outcome(m_repo->insert(submission(5), u"2026-11-22"_s, 3, 100)), InsertResult::Ok);
        QCOMPARE(m_repo->countOnDay(kDep, u"2026-11-22"_s), 1);
    }

    void prunesTheOldestAtTheStoredMaximum()
    {
        for (int i = 0; i < 5; ++i)
            QCOMPARE(outcome(m_repo->insert(submission(i), kDay, 100, 5)), InsertResult::Ok);
        QStringList pruned;
        QCOMPARE(outcome(m_repo->insert(submission(5), kDay, 100, 5), &pruned), InsertResult::Ok);
        QCOMPARE(pruned, QStringList {submission(0).id});
        QCOMPARE(m_repo->count(kDep), 5);
        const auto page = m_repo->page(kDep, 10);
        QVERIFY(page);
        QCOMPARE(ids(page.value().submissions),
            (QStringList {submission(5).id, submission(4).id, submission(3).id, submission(2).id, submission(1).id}));
        // A lowered maximum prunes down to it in one insert.
        QCOMPARE(outcome(m_repo->insert(submission(6), kDay, 100, 2), &pruned), InsertResult::Ok);
        QCOMPARE(pruned.size(), 4);
        QCOMPARE(m_repo->count(kDep), 2);
    }

    void refusedInsertChangesNothing()
    {
        for (int i = 0; i < 2; ++i)
            QCOMPARE(outcome(m_repo->insert(submission(i), kDay, 2, 2)), InsertResult::Ok);
        QCOMPARE(outcome(m_repo->insert(submission(2), kDay, 2, 2)), InsertResult::DailyLimitReached);
        QCOMPARE(m_repo->count(kDep), 2);
        QVERIFY(m_repo->find(kDep, submission(0).id)); // the refusal did not prune
        QCOMPARE(m_repo->countOnDay(kDep, kDay), 2);
    }

    void pagesNewestFirst()
    {
        for (int i = 0; i < 7; ++i)
            QCOMPARE(outcome(m_repo->insert(submission(i), kDay, 100, 100)), InsertResult::Ok);
        auto page = m_repo->page(kDep, 3);
        QVERIFY(page);
        QCOMPARE(ids(page.value().submissions), (QStringList {submission(6).id, submission(5).id, submission(4).id}));
        QVERIFY(page.value().hasMore);
        page = m_repo->page(kDep, 3, submission(4).id);
        QCOMPARE(ids(page.value().submissions), (QStringList {submission(3).id, submission(2).id, submission(1).id}));
        QVERIFY(page.value().hasMore);
        page = m_repo->page(kDep, 3, submission(1).id);
        QCOMPARE(ids(page.value().submissions), QStringList {submission(0).id});
        QVERIFY(!page.value().hasMore);
        page = m_repo->page(kDep, 7);
        QCOMPARE(page.value().submissions.size(), 7);
        QVERIFY(!page.value().hasMore);
    }

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Database> m_db;
    std::unique_ptr<SubmissionRepository> m_repo;
};

QTEST_GUILESS_MAIN(TestSubmissionRepository)
#include "tst_submissionrepository.moc"
