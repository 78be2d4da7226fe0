// CounterRepository: created by the first increment, capped per deployment, listed by name, removed.
#include "sitedatarows.h"
#include "storage/counterrepository.h"

#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;

namespace {

// What an increment came to; *value receives the new value.
enum class IncrementResult
{
    Ok,
    LimitReached,
    Full,
    Failed
};

IncrementResult outcome(const Result<qint64> &result, qint64 *value)
{
    if (result.ok()) {
        *value = result.value();
        return IncrementResult::Ok;
    }
    if (result.error().code == Error::Code::CounterLimitReached)
        return IncrementResult::LimitReached;
    return result.error().kind == Error::Kind::InsufficientStorage ? IncrementResult::Full : IncrementResult::Failed;
}

const QDateTime T0 = berth::test::kSiteDataTime;
const QString kDep = u"dep_a"_s;
} // namespace

class TestCounterRepository final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        m_db = std::make_unique<Database>(m_dir->filePath(u"berth.sqlite"_s));
        QVERIFY(m_db->open());
        QVERIFY(berth::test::insertDeployment(*m_db, kDep));
        m_repo = std::make_unique<CounterRepository>(*m_db);
    }

    void cleanup()
    {
        m_repo.reset();
        m_db.reset();
    }

    void incrementCreatesThenAdds()
    {
        QVERIFY(!m_repo->find(kDep, u"visits"_s));
        qint64 value = 0;
        QCOMPARE(outcome(m_repo->increment(kDep, u"visits"_s, 5, T0), &value), IncrementResult::Ok);
        QCOMPARE(value, 1);
        QCOMPARE(outcome(m_repo->increment(kDep, u"visits"_s, 5, T0.addSecs(5)), &value), IncrementResult::Ok);
        QCOMPARE(value, 2);
        const auto counter = m_repo->find(kDep, u"visits"_s);
        QVERIFY(counter);
        QCOMPARE(counter->value, 2);
        QCOMPARE(counter->createdAt, T0);
        QCOMPARE(counter->updatedAt, T0.addSecs(5));
        QVERIFY(!m_repo->find(kDep, u"Visits"_s)); // names are case-sensitive
    }

    void capCountsCountersNotIncrements()
    {
        qint64 value = 0;
        for (const QString &name : {u"a"_s, u"b"_s})
            QCOMPARE(outcome(m_repo->increment(kDep, name, 2, T0), &value), IncrementResult::Ok);
        QCOMPARE(outcome(m_repo->increment(kDep, u"c"_s, 2, T0), &value), IncrementResult::LimitReached);
        QVERIFY(!m_repo->find(kDep, u"c"_s));
        QCOMPARE(outcome(m_repo->increment(kDep, u"a"_s, 2, T0), &value), IncrementResult::Ok);
        QCOMPARE(value, 2);
        QVERIFY(m_repo->remove(kDep, u"b"_s));
        QCOMPARE(outcome(m_repo->increment(kDep, u"c"_s, 2, T0), &value), IncrementResult::Ok);
    }

    void listsByNameAndRemoves()
    {
        qint64 value = 0;
        for (const QString &name : {u"zeta"_s, u"alpha"_s, u"mid"_s})
            QCOMPARE(outcome(m_repo->increment(kDep, name, 10, T0), &value), IncrementResult::Ok);
        QCOMPARE(outcome(m_repo->increment(kDep, u"mid"_s, 10, T0), &value), IncrementResult::Ok);
        const QList<Counter> counters = m_repo->list(kDep);
        QCOMPARE(counters.size(), 3);
        QCOMPARE(counters.at(0).name, u"alpha"_s);
        QCOMPARE(counters.at(1).name, u"mid"_s);
        QCOMPARE(counters.at(1).value, 2);
        QCOMPARE(counters.at(2).name, u"zeta"_s);
        QVERIFY(m_repo->remove(kDep, u"mid"_s));
        QVERIFY(!m_repo->remove(kDep, u"mid"_s));
        QCOMPARE(m_repo->list(kDep).size(), 2);
    }

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Database> m_db;
    std::unique_ptr<CounterRepository> m_repo;
};

QTEST_GUILESS_MAIN(TestCounterRepository)
#include "tst_counterrepository.moc"
