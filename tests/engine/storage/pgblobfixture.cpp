#include "pgblobfixture.h"

#include "common/resultassert.h"

#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace berth::test {

void PgBlobStoreFixture::startCluster()
{
    QString error;
    m_socketFolder = PostgresCluster::fixtureOrOwn(m_cluster, &error);
    QVERIFY2(!m_socketFolder.isEmpty(), qPrintable(error));
}

void PgBlobStoreFixture::setUpDatabase()
{
    m_database = std::make_unique<PostgresTestDatabase>(m_socketFolder);
    QString error;
    QVERIFY2(m_database->create(&error), qPrintable(error));
    m_db = std::make_unique<Database>(QString(), m_database->url());
    BERTH_VERIFY_OK(m_db->open());
    m_backend = std::make_unique<PostgresBlobBackend>(m_database->url());
    m_dir = std::make_unique<QTemporaryDir>();
    m_a = makeStore(u"a"_s, 64 * kMiB);
    m_b = makeStore(u"b"_s, 64 * kMiB);
}

void PgBlobStoreFixture::tearDownDatabase()
{
    m_a.reset();
    m_b.reset();
    m_backend.reset();
    m_db.reset();
    m_database.reset();
}

std::unique_ptr<BlobStore> PgBlobStoreFixture::makeStore(const QString &name, qint64 limit, int recentUseMs)
{
    auto store = std::make_unique<BlobStore>(m_dir->filePath(name));
    store->setBackend(m_backend.get(), limit, recentUseMs);
    if (!store->init())
        qFatal("cannot open a blob store");
    return store;
}

int PgBlobStoreFixture::rows(const QString &statement) const
{
    QSqlQuery query(m_db->connection());
    if (!query.exec(statement) || !query.next())
        return -1;
    return query.value(0).toInt();
}

bool PgBlobStoreFixture::age() const
{
    return exec(u"UPDATE blob_chunks SET stored_at = now() - interval '2 hours'"_s);
}

int PgBlobStoreFixture::chunksOf(const QByteArray &hash) const
{
    return rows(u"SELECT COUNT(*) FROM blob_chunks WHERE hash = '%1'"_s.arg(QLatin1String(hash)));
}

bool PgBlobStoreFixture::exec(const QString &statement) const
{
    QSqlQuery query(m_db->connection());
    return query.exec(statement);
}

QByteArray PgBlobStoreFixture::readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace berth::test
