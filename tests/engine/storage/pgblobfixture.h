#pragma once

// What the PostgreSQL blob store suites share: a fresh database in the test cluster for every test, two nodes' stores
// (m_a, m_b) over it, and ways to look at and age its rows.
#include "common/postgrescluster.h"
#include "storage/blobstore.h"
#include "storage/database.h"
#include "storage/deploymentrepository.h"
#include "storage/postgresblobbackend.h"
#include "storage/userrepository.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

namespace berth::test {

constexpr qint64 kMiB = 1024 * 1024;

// Distinct content of a given size.
inline QByteArray content(int seed, qint64 size)
{
    QByteArray data(size, Qt::Uninitialized);
    quint32 state = 2166136261u ^ quint32(seed);
    for (qint64 i = 0; i < size; ++i) {
        state = state * 16777619u + 1013904223u;
        data[i] = char(state >> 24);
    }
    return data;
}

// Passes everything on, counting the loads.
class CountingBackend final : public BlobBackend
{
public:
    explicit CountingBackend(BlobBackend &inner)
        : m_inner(inner)
    {
    }
    Result<bool> store(const QByteArray &hash, const QByteArray &suffix, const QByteArray &data) override
    {
        return m_inner.store(hash, suffix, data);
    }
    Result<bool> retain(const QByteArray &hash) override { return m_inner.retain(hash); }
    Result<bool> has(const QByteArray &hash, const QByteArray &suffix) override { return m_inner.has(hash, suffix); }
    Result<QHash<QByteArray, qint64>> variantSizes(const QList<QByteArray> &hashes, const QByteArray &suffix) override
    {
        return m_inner.variantSizes(hashes, suffix);
    }
    Result<bool> load(const QByteArray &hash, const QByteArray &suffix, const ChunkSink &sink) override
    {
        loads.fetchAndAddRelaxed(1);
        return m_inner.load(hash, suffix, sink);
    }
    Result<bool> remove(const QByteArray &hash) override { return m_inner.remove(hash); }
    Result<int> removeAllExcept(const QSet<QByteArray> &keep) override { return m_inner.removeAllExcept(keep); }

    QAtomicInt loads;

private:
    BlobBackend &m_inner;
};

// The base of a QtTest suite: its initTestCase(), init(), cleanup() and cleanupTestCase() call these.
class PgBlobStoreFixture
{
protected:
    void startCluster();
    void setUpDatabase();
    void tearDownDatabase();
    void stopCluster() { m_cluster.reset(); }

    std::unique_ptr<BlobStore> makeStore(const QString &name, qint64 limit, int recentUseMs = 10000);
    int rows(const QString &statement) const;
    // Everything stored counts as stored two hours ago: past the grace of removals.
    bool age() const;
    int chunksOf(const QByteArray &hash) const;
    bool exec(const QString &statement) const;
    static QByteArray readFile(const QString &path);

    QString m_socketFolder;
    std::unique_ptr<PostgresCluster> m_cluster;
    std::unique_ptr<PostgresTestDatabase> m_database;
    std::unique_ptr<Database> m_db;
    std::unique_ptr<PostgresBlobBackend> m_backend;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<BlobStore> m_a;
    std::unique_ptr<BlobStore> m_b;
};

} // namespace berth::test
