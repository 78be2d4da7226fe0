#include "livefolders.h"

#include "appsettings.h"
#include "deploymenttablemodel.h"
#include "domain/deploymentservice.h"
#include "domain/folderwatcher.h"
#include "engine.h"
#include "errortext.h"
#include "folderpackager.h"
#include "storage/blobstore.h"

#include <QFileInfo>
#include <QFutureWatcher>
#include <QLocale>
#include <QSet>
#include <QTime>
#include <QtConcurrent>

using namespace Qt::StringLiterals;

namespace berth {

struct LiveFolders::Folder
{
    std::unique_ptr<FolderWatcher> watcher;
    bool busy = false; // a sync is under way: another burst waits for it
    bool pending = false;
};

namespace {

// The packaged folder with every file named by its hash, plus the full request for what the engine lacks.
struct Prepared
{
    Result<PackagedSite> site;
    DeployRequest byHash;
};

Prepared prepare(const QString &folder)
{
    Prepared prepared {FolderPackager::package(folder, [](int, int) { return true; }), {}};
    if (!prepared.site || !prepared.site.value().content.files)
        return prepared;
    QList<FileUpload> references;
    for (const FileUpload &file : *prepared.site.value().content.files) {
        FileUpload reference = file;
        reference.sha256 = BlobStore::hashOf(file.content);
        reference.size = file.content.size();
        reference.content.clear();
        references.append(std::move(reference));
    }
    prepared.byHash.files = std::move(references);
    return prepared;
}

} // namespace

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

    // Reading and hashing on a worker; the engine's calls on this thread, where it lives.
    auto *packaging = new QFutureWatcher<Prepared>(this);
    connect(packaging, &QFutureWatcherBase::finished, this, [this, packaging, deploymentId] {
        const Prepared prepared = packaging->result();
        packaging->deleteLater();
        if (!m_folders.contains(deploymentId))
            return;
        const auto refuse = [this, deploymentId](const QString &reason) {
            m_model.setLiveStatus(deploymentId, tr("Live · not synced: %1").arg(reason));
            Q_EMIT refused(deploymentId, reason);
            finish(deploymentId);
        };
        if (!prepared.site) {
            refuse(ErrorText::describe(prepared.site.error()));
            return;
        }
        const DeployRequest full = prepared.site.value().content;
        DeployRequest request = full.files ? prepared.byHash : full;
        auto &service = m_context.engine.deployments();
        auto *deploy = new QFutureWatcher<Result<Deployment>>(this);
        const auto first = std::make_shared<bool>(true);
        connect(deploy, &QFutureWatcherBase::finished, this, [this, deploy, deploymentId, full, refuse, first] {
            const Result<Deployment> result = deploy->result();
            if (!m_folders.contains(deploymentId)) {
                deploy->deleteLater();
                return;
            }
            if (!result && *first && !result.error().missing.isEmpty() && full.files) {
                // The content of what the engine lacks, once; the rest stays named by hash.
                *first = false;
                const QSet<QString> missing(result.error().missing.cbegin(), result.error().missing.cend());
                DeployRequest mixed;
                mixed.files = QList<FileUpload>();
                for (const FileUpload &file : *full.files) {
                    FileUpload entry = file;
                    if (!missing.contains(file.path)) {
                        entry.sha256 = BlobStore::hashOf(file.content);
                        entry.size = file.content.size();
                        entry.content.clear();
                    }
                    mixed.files->append(std::move(entry));
                }
                deploy->setFuture(m_context.engine.deployments().update(m_context.owner, deploymentId, mixed));
                return;
            }
            deploy->deleteLater();
            if (!result) {
                refuse(ErrorText::describe(result.error()));
                return;
            }
            m_model.setLiveStatus(deploymentId,
                tr("Live · synced %1").arg(QLocale().toString(QTime::currentTime(), QLocale::ShortFormat)));
            Q_EMIT synced(deploymentId);
            finish(deploymentId);
        });
        deploy->setFuture(service.update(m_context.owner, deploymentId, request));
    });
    const QString source = folder->watcher->root();
    packaging->setFuture(QtConcurrent::run([source] { return prepare(source); }));
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
