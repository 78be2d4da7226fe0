#pragma once

#include <QFileSystemWatcher>
#include <QObject>
#include <QTimer>

namespace berth {

// Watches a folder tree for a live site: any file or folder added, changed or removed under root gives
// one changed() once the tree has been quiet for the debounce interval, so a burst of edits (a build writing 500
// files) becomes one redeploy. New subfolders are watched as they appear. Hidden entries (names starting with a dot)
// are not watched: they are never published. Lives on the thread that created it.
class FolderWatcher final : public QObject
{
    Q_OBJECT

public:
    explicit FolderWatcher(const QString &root, QObject *parent = nullptr);
    Q_DISABLE_COPY_MOVE(FolderWatcher)

    static constexpr int kDefaultDebounceMs = 1000;
    void setDebounce(int milliseconds) { m_quiet.setInterval(milliseconds); }
    QString root() const { return m_root; }
    bool isWatching() const; // false when the root could not be watched (gone, unreadable)

Q_SIGNALS:
    void changed();

private:
    void rescan(); // (re)adds every folder and file under root; the watcher ignores paths it already has
    void onPathChanged();

    QString m_root;
    QFileSystemWatcher m_watcher;
    QTimer m_quiet;
};

} // namespace berth
