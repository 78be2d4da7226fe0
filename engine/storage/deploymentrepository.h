#pragma once

#include "core/error.h"
#include "storage/deployment.h"
#include "storage/versionrepository.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>
#include <optional>

class QSqlQuery;

namespace berth {

class Database;

// How many files the served version of a deployment has, and their bytes (what a site's placeholder shows).
struct FileTotals
{
    int count = 0;
    qint64 bytes = 0;
};

// Deployments, their versions and file lists. A deployment row points at the version it serves; a new upload
// becomes a new version written in one transaction, so readers see the old site or the new one, never a mix.
// Used only on the thread that opened the Database.
class DeploymentRepository final
{
    Q_DISABLE_COPY_MOVE(DeploymentRepository)
public:
    explicit DeploymentRepository(Database &db);

    // Reads that cannot tell a failure from "none" log the failure (lcStorage) and answer as if there were none.
    std::optional<Deployment> find(const QString &id) const;
    std::optional<Deployment> findBySlug(const QString &slug) const;
    QList<Deployment> listForUser(const QString &userId) const; // most recently updated first
    QList<Deployment> listAll() const; // most recently updated first
    QList<Deployment> listAllUnsorted() const; // in no particular order: a start's read, spared the sort
    QList<DeploymentListing> listingForUser(const QString &userId) const; // in listForUser's order
    int countForUser(const QString &userId) const;
    QList<StoredFile> files(qint64 versionId) const; // ordered by path
    // The file totals of every served version, by version id, in one query (what start needs of the files).
    Result<QHash<qint64, FileTotals>> servedFileTotals() const;

    // Writes fail with Conflict + SlugTaken for a taken slug, NotFound + DeploymentNotFound for no such row,
    // InsufficientStorage for a full disk, Internal (SQLite's words, for the log only) otherwise.
    // The row, a new version and its files in one transaction; sets deployment.versionId on success.
    Result<void> insert(Deployment &deployment, const QList<StoredFile> &files);
    // The same, refused (Forbidden, DeploymentLimitReached) when the owner already holds `ownerLimit` deployments,
    // counted inside the inserting transaction with the owner's row locked (PostgreSQL: SELECT ... FOR UPDATE;
    // SQLite has one writer at a time anyway), so that two servers on one database cannot both take the last slot.
    Result<void> insert(Deployment &deployment, const QList<StoredFile> &files, int ownerLimit);
    // Rewrites every column from deployment (id is the key). With files, a new version (with the content's metadata)
    // is served and the older ones are kept, keepVersions in all counting the new one; the blobs named by the
    // versions dropped are appended to *released. Without files the served version takes the new metadata. Sets
    // deployment.versionId to the version now served.
    Result<void> update(Deployment &deployment, const std::optional<QList<StoredFile>> &files, int keepVersions = 1,
        QList<QByteArray> *released = nullptr);
    // A new version of the deployment with these files and deployment's content metadata, not served: the row stays
    // as it is. Older versions are pruned as by update(), the served one always kept (deploymentprepared.cpp).
    Result<StoredVersion> prepareVersion(const Deployment &deployment, const QList<StoredFile> &files, int keepVersions,
        QList<QByteArray> *released = nullptr);
    Result<void> rename(const QString &id, const QString &newSlug, const QDateTime &updatedAt);
    // The row, its versions and their files. With expiredBy, only while the row's expiry is at or before it (else
    // NotFound, and nothing changes): of the servers sweeping one database, the one whose delete counts the row is the
    // one that expired it, and an expiry extended meanwhile holds.
    Result<void> remove(const QString &id, const QDateTime &expiredBy = {});
    // Deployments whose expiry is at or before `now`, soonest first, at most `limit` of them. An error when the query
    // failed.
    Result<QStringList> expiredBy(const QDateTime &now, int limit) const;
    // Hands every deployment of one user to another (an agent's, when claimed), within the caller's transaction, and
    // returns their ids; their expiries go (a claimed site is kept). Refused (Forbidden, DeploymentLimitReached) when
    // the receiver would then hold more than
    // `receiverLimit`: counted with both users' rows locked, as insert() locks the owner's, so that neither gains a
    // deployment through another server before the commit.
    Result<QStringList> reassignAll(const QString &fromUserId, const QString &toUserId, int receiverLimit);

    // Deployments from before schema 4, whose title may have been read from their document (see migrations.cpp).
    QStringList idsWithUnknownTitleSource() const;

    // Every blob hash any version references; an error when the query failed (callers then remove nothing).
    Result<QSet<QByteArray>> referencedBlobs() const;
    // Which of these blobs some version references, by the index on files(blob): the cost follows the number of
    // candidates, not the size of the store. An error when a query failed.
    Result<QSet<QByteArray>> referencedAmong(const QList<QByteArray> &blobs) const;
    const VersionRepository &versions() const { return m_versions; } // the kept versions

private:
    std::optional<Deployment> findWhere(const QString &column, const QString &value) const;
    QList<Deployment> list(const std::optional<QString> &userId, bool sorted = true) const;
    Result<qint64> writeVersion(const Deployment &deployment, const QList<StoredFile> &files);
    // Within the caller's transaction: locks these users' rows until it ends (PostgreSQL: SELECT ... FOR UPDATE;
    // SQLite has one writer at a time anyway). A deployment is created or handed over only under its owner's lock, so
    // a count taken under it holds until the commit.
    Result<void> lockOwners(QStringList userIds);
    Result<int> countOwned(const QString &userId); // a failure is an error, never 0
    static Error writeFailure(const QSqlQuery &query); // logged, unless it is a taken slug
    static Error notFound();
    static Error limitReached();

    Database &m_db;
    VersionRepository m_versions;
};

} // namespace berth
