#pragma once

#include "core/error.h"
#include "storage/deployment.h"

#include <QHash>
#include <QList>
#include <QString>
#include <optional>

class QSqlDatabase;
class QSqlQuery;

namespace berth {

class Database;

// The kept versions of deployments: what the History view lists, what a rollback serves again, and which
// blobs a user's deployments hold (for uploads that name content by its hash). The writes that go with a deploy run
// inside DeploymentRepository's transaction through the static helpers. Used only on the thread that opened the
// Database.
class VersionRepository final
{
    Q_DISABLE_COPY_MOVE(VersionRepository)
public:
    explicit VersionRepository(Database &db);

    // Reads that cannot tell a failure from "none" log the failure (lcStorage) and answer as if there were none.
    QList<StoredVersion> list(const QString &deploymentId) const; // newest first; empty on failure too
    std::optional<StoredVersion> find(const QString &deploymentId, int number) const;
    // Of these blobs, the ones some version of one of userId's deployments references, with their sizes. An error
    // when a query failed. Only this user's rows count: knowing a hash must never give access to another's content.
    Result<QHash<QByteArray, qint64>> heldBy(const QString &userId, const QList<QByteArray> &blobs) const;

    // Inside an open transaction: a new version of deployment (its metadata, the next number) with these files;
    // its id.
    static Result<qint64> write(QSqlDatabase &connection, const Deployment &deployment, const QList<StoredFile> &files);
    // Inside an open transaction: the served version takes deployment's metadata (an update without content).
    static Result<void> amend(QSqlDatabase &connection, const Deployment &deployment, qint64 versionId);
    // Inside an open transaction: deletes all but the newest keep versions of a deployment (the served one always
    // stays); returns the blobs their files named (they may still be referenced elsewhere).
    static Result<QList<QByteArray>> prune(
        QSqlDatabase &connection, const QString &deploymentId, int keep, qint64 servedId);
    // Binds the content metadata a version and its deployment's row both carry (:storage_type, :is_spa, :title,
    // :title_is_custom, :document_title, :description, :favicon, :og_image).
    static void bindMetadata(QSqlQuery &query, const Deployment &deployment);

private:
    Database &m_db;
};

} // namespace berth
