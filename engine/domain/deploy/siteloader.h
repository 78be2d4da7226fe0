#pragma once

#include "core/error.h"
#include "storage/deployment.h"

#include <QObject>
#include <memory>

namespace berth {

class BlobStore;
class DeploymentRepository;
class SiteTable;
struct Site;

// Keeps the SiteTable that visitors are served from in step with the database, and announces every change to it: the
// sites at start, a placeholder's files on its first request, a deployment just committed or deleted here, one
// another server changed. The only writer of the table; on the thread that owns the database connection.
class SiteLoader final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SiteLoader)

public:
    SiteLoader(DeploymentRepository &repository, BlobStore &blobs, SiteTable &sites, QObject *parent = nullptr);

    // Fills the SiteTable from the database at start, in two queries: every site as a placeholder, whose files are
    // read on its first request (loadSite).
    Result<void> loadSites();
    // The site served under slug with its file table, read from the database when the table holds a placeholder;
    // null when there is no such site or its files cannot be read. On this object's thread (SiteServer's loader).
    std::shared_ptr<const Site> loadSite(const QString &slug);
    // Kept version number of the site served under slug, read from the database unless the SiteTable holds it, and
    // kept there for its next requests; null when there is no such site or version. On this object's thread.
    std::shared_ptr<const Site> loadVersion(const QString &slug, int number);
    // (Re)builds one deployment's site from the database: put in the SiteTable, or removed when the row is gone (e.g.
    // after another node changed it). Emits deploymentChanged or deploymentRemoved when the table changed.
    void refreshSite(const QString &deploymentId);

    // After a commit: serves the deployment with these files (one swap, so visitors see the old version or the new
    // one, never a mix) and emits deploymentChanged. Returns the site, for the rule warnings a deploy reports.
    std::shared_ptr<const Site> serve(const Deployment &deployment, const QList<StoredFile> &files);
    // After a delete: serves the deployment no more, and emits deploymentRemoved.
    void withdraw(const QString &deploymentId);

Q_SIGNALS:
    void deploymentChanged(const QString &id);
    void deploymentRemoved(const QString &id);

private:
    void resolveTitleSources();

    DeploymentRepository &m_repository;
    BlobStore &m_blobs;
    SiteTable &m_sites;
};

} // namespace berth
