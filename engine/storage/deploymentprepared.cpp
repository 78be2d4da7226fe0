// DeploymentRepository's prepared versions: content stored as a deployment's newest version without serving it.
#include "storage/database.h"
#include "storage/deploymentrepository.h"
#include "storage/sqlhelpers.h"
#include "storage/transaction.h"

#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace berth {

Result<StoredVersion> DeploymentRepository::prepareVersion(
    const Deployment &deployment, const QList<StoredFile> &files, int keepVersions, QList<QByteArray> *released)
{
    Transaction transaction(m_db.connection());
    if (auto begun = transaction.begun(); !begun)
        return begun.error();
    // Write first, read after: the write takes SQLite's lock, so the served version read below cannot go stale.
    QSqlDatabase connection = m_db.connection();
    const Result<qint64> written = VersionRepository::write(connection, deployment, files);
    if (!written)
        return written.error();
    QSqlQuery query(connection);
    query.prepare(u"SELECT version_id FROM deployments WHERE id = ?"_s);
    query.addBindValue(deployment.id);
    if (!query.exec())
        return writeFailure(query);
    if (!query.next())
        return notFound();
    const qint64 served = query.value(0).toLongLong();
    query.finish();
    // The served version stays whatever its age; the older ones go as after any deploy.
    const Result<QList<QByteArray>> dropped = VersionRepository::prune(connection, deployment.id, keepVersions, served);
    if (!dropped)
        return dropped.error();
    if (auto committed = transaction.commit(); !committed)
        return committed.error();
    if (released)
        *released += dropped.value();
    const QList<StoredVersion> kept = m_versions.list(deployment.id);
    for (const StoredVersion &version : kept) {
        if (version.id == written.value())
            return version;
    }
    return Error {Error::Kind::Internal, u"The prepared version could not be read back"_s};
}

} // namespace berth
