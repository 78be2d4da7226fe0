#include "ui/publishing/livefolders.h"

#include "domain/deploy/deploymentservice.h"
#include "domain/deploy/folderwatcher.h"
#include "instance/engine.h"
#include "ui/publishing/folderpackager.h"
#include "ui/publishing/incrementaldeploy.h"
#include "ui/settings/appsettings.h"
#include "ui/sitelist/deploymenttablemodel.h"
#include "ui/widgets/errortext.h"

#include <QFileInfo>
#include <QFutureWatcher>
#include <QLocale>
#include <QTime>
#include <QtConcurrent>

using namespace Qt::StringLiterals;

namespace berth {

struct LiveFolders::Folder
{
    std::unique_ptr<FolderWatcher> watcher;
    IncrementalDeploy deploy;
    bool busy = false; // a sync is under way: another burst waits for it
    bool pending = false;
};

LiveFolders::LiveFolders(const DashboardContext &context, DeploymentTableModel &model, QObject *parent)
    : QObject(parent)
    , m_context(context)
    , m_model(model)
    , m_debounceMs(FolderWatcher::kDefaultDebounceMs)
{
}

LiveFolders::~LiveFolders() = default;

void LiveFolders::setDebounce(int milliseconds)
{
    m_debounceMs = milliseconds;
    for (const auto &folder : std::as_const(m_folders))
        folder->watcher->setDebounce(milliseconds);
}

bool LiveFolders::setLive(const QString &deploymentId, bool live)
{
    if (!live) {
        m_folders.remove(deploymentId);
        m_model.setLiveStatus(deploymentId, QString());
        return true;
    }
    if (m_folders.contains(deploymentId))
        return true;
    const QString source = m_context.settings.sourcePath(deploymentId);
    if (source.isEmpty() || !QFileInfo(source).isDir())
        return false;
    auto folder = std::make_shared<Folder>();
    folder->watcher = std::make_unique<FolderWatcher>(source);
    folder->watcher->setDebounce(m_debounceMs);
    if (!folder->watcher->isWatching())
        return false;
    connect(folder->watcher.get(), &FolderWatcher::changed, this, [this, deploymentId] { sync(deploymentId); });
    connect(&folder->deploy, &IncrementalDeploy::finished, this,
        [this, deploymentId](const Result<Deployment> &result) { deployed(deploymentId, result); });
    m_folders.insert(deploymentId, folder);
    m_model.setLiveStatus(deploymentId, tr("Live"));
    return true;
}

void LiveFolders::sync(const QString &deploymentId)
{
    const auto folder = m_folders.value(deploymentId);
    if (!folder)
        return;
    if (folder->busy) {
        folder->pending = true;
        return;
    }
    folder->busy = true;
    folder->pending = false;

    // Reading on a worker; the engine's calls on this thread, where it lives.
    auto *packaging = new QFutureWatcher<Result<FolderContent>>(this);
    connect(packaging, &QFutureWatcherBase::finished, this, [this, packaging, deploymentId] {
        const Result<FolderContent> site = packaging->result();
        packaging->deleteLater();
        const auto following = m_folders.value(deploymentId);
        if (!following)
            return;
        if (!site) {
            refuse(deploymentId, ErrorText::describe(site.error()));
            return;
        }
        following->deploy.start(site.value().content, [this, deploymentId](DeployRequest request) {
            return m_context.engine.deployments().update(m_context.owner, deploymentId, std::move(request));
        });
    });
    const QString source = folder->watcher->root();
    packaging->setFuture(
        QtConcurrent::run([source] { return FolderPackager::package(source, [](int, int) { return true; }); }));
}

void LiveFolders::deployed(const QString &deploymentId, const Result<Deployment> &result)
{
    if (!m_folders.contains(deploymentId))
        return;
    if (!result) {
        refuse(deploymentId, ErrorText::describe(result.error()));
        return;
    }
    m_model.setLiveStatus(
        deploymentId, tr("Live · synced %1").arg(QLocale().toString(QTime::currentTime(), QLocale::ShortFormat)));
    Q_EMIT synced(deploymentId);
    finish(deploymentId);
}

void LiveFolders::refuse(const QString &deploymentId, const QString &reason)
{
    m_model.setLiveStatus(deploymentId, tr("Live · not synced: %1").arg(reason));
    Q_EMIT refused(deploymentId, reason);
    finish(deploymentId);
}

void LiveFolders::finish(const QString &deploymentId)
{
    const auto folder = m_folders.value(deploymentId);
    if (!folder)
        return;
    folder->busy = false;
    if (folder->pending)
        sync(deploymentId);
}

} // namespace berth
