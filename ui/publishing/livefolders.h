#pragma once

#include "core/error.h"
#include "storage/deployment.h"
#include "ui/mainwindow/dashboardcontext.h"

#include <QHash>
#include <QObject>
#include <memory>

namespace berth {

class DeploymentTableModel;
class FolderWatcher;

// The dashboard's live folders: a site published from a folder can follow it. Each burst of changes
// (debounced by FolderWatcher) repackages the folder on a worker and redeploys it sending only what the site's owner
// does not hold yet (files named by sha256; content for those the engine answers missing). The row shows when it
// last synced, or why not (a file over a limit), and the watch goes on either way.
class LiveFolders final : public QObject
{
    Q_OBJECT

public:
    LiveFolders(const DashboardContext &context, DeploymentTableModel &model, QObject *parent = nullptr);
    ~LiveFolders() override;
    Q_DISABLE_COPY_MOVE(LiveFolders)

    bool isLive(const QString &deploymentId) const { return m_folders.contains(deploymentId); }
    // Starts or stops following the site's source folder; false when it has none that exists.
    bool setLive(const QString &deploymentId, bool live);
    void setDebounce(int milliseconds); // for tests; FolderWatcher::kDefaultDebounceMs otherwise

Q_SIGNALS:
    void synced(const QString &deploymentId); // a redeploy went through
    void refused(const QString &deploymentId, const QString &reason);

private:
    struct Folder;
    void sync(const QString &deploymentId);
    void deployed(const QString &deploymentId, const Result<Deployment> &result);
    void refuse(const QString &deploymentId, const QString &reason);
    void finish(const QString &deploymentId);

    DashboardContext m_context;
    DeploymentTableModel &m_model;
    QHash<QString, std::shared_ptr<Folder>> m_folders;
    int m_debounceMs;
};

} // namespace berth
