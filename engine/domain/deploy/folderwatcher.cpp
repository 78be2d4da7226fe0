#include "domain/deploy/folderwatcher.h"

#include <QDirIterator>
#include <QFileInfo>
#include <QSet>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

constexpr int kMaxWatchedPaths = 20000; // past a site's 10,000 files: inotify watches are a per-user budget

} // namespace

FolderWatcher::FolderWatcher(const QString &root, QObject *parent)
    : QObject(parent)
    , m_root(QFileInfo(root).absoluteFilePath())
{
    m_quiet.setSingleShot(true);
    m_quiet.setInterval(kDefaultDebounceMs);
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, &FolderWatcher::onPathChanged);
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, &FolderWatcher::onPathChanged);
    connect(&m_quiet, &QTimer::timeout, this, [this] {
        rescan(); // a folder created in the burst is watched from now on, a rewritten file again
        Q_EMIT changed();
    });
    rescan();
}

bool FolderWatcher::isWatching() const
{
    return m_watcher.directories().contains(m_root);
}

void FolderWatcher::onPathChanged()
{
    m_quiet.start(); // restarted by every event: fires once the burst is over
}

void FolderWatcher::rescan()
{
    QStringList paths {m_root};
    // Hidden entries are skipped (QDir::Hidden is not asked for); links to folders are not followed.
    QDirIterator it(
        m_root, QDir::Dirs | QDir::Files | QDir::NoDotAndDotDot | QDir::NoSymLinks, QDirIterator::Subdirectories);
    while (it.hasNext() && paths.size() < kMaxWatchedPaths)
        paths.append(it.next());
    const QStringList files = m_watcher.files();
    const QStringList directories = m_watcher.directories();
    QSet<QString> watched(files.cbegin(), files.cend());
    watched.unite(QSet<QString>(directories.cbegin(), directories.cend()));
    QStringList added;
    for (const QString &path : paths) {
        if (!watched.contains(path))
            added.append(path);
    }
    if (!added.isEmpty())
        m_watcher.addPaths(added);
}

} // namespace berth
