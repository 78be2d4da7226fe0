#pragma once

#include "core/error.h"
#include "storage/deployment.h"
#include "storage/user.h"

namespace berth {

class BlobGarbage;
class BlobStore;
class ChangeJournal;
class Clock;
class DeploymentRepository;
class FaultPoints;
class SiteLoader;

// A deployment's kept versions and rollback. Every deploy with content makes a version; the newest versionsKept() of
// each deployment stay, older ones go (at that deployment's next commit) with the blobs nothing else references.
// On the thread that owns the database connection.
class VersionHistory final
{
    Q_DISABLE_COPY_MOVE(VersionHistory)

public:
    VersionHistory(DeploymentRepository &repository, BlobStore &blobs, SiteLoader &sites, BlobGarbage &garbage,
        const Clock &clock, const FaultPoints &faults);

    Result<QList<StoredVersion>> versions(const User &owner, const QString &id) const; // newest first
    Result<QList<StoredFile>> versionFiles(const User &owner, const QString &id, int number) const;
    // Serves version number again, as a new version with its files and content metadata; protection stays as it is.
    Result<Deployment> rollback(const User &owner, const QString &id, int number);

    // Stores files as the deployment's newest version without serving it; the deployment (with the content metadata
    // the version takes) comes back with its preparedVersion set. Const: the history's settings stay as they are.
    Result<Deployment> prepare(Deployment deployment, const QList<StoredFile> &files) const;
    // The deployment as it was when version served: its content metadata and version id; the row's other fields
    // (slug, owner, access) stay as they are now.
    static Deployment asOf(Deployment deployment, const StoredVersion &version);

    // Where a rollback's event (a deployment.updated) is written, in the rollback's transaction.
    void setChangeJournal(const ChangeJournal *journal) { m_journal = journal; }

    int versionsKept() const { return m_versionsKept; }
    void setVersionsKept(int count); // at least 1
    static constexpr int kDefaultVersionsKept = 10;

private:
    DeploymentRepository &m_repository;
    BlobStore &m_blobs;
    SiteLoader &m_sites;
    BlobGarbage &m_garbage;
    const Clock &m_clock;
    const FaultPoints &m_faults;
    int m_versionsKept = kDefaultVersionsKept;
    const ChangeJournal *m_journal = nullptr;
};

} // namespace berth
