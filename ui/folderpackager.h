#pragma once

#include "core/error.h"
#include "packagedsite.h"

#include <QFutureWatcher>
#include <QObject>
#include <QThreadPool>
#include <optional>

namespace berth {

// Reads a dropped folder or .html file into a DeployRequest on a worker thread, with progress and
// cancel. Applies the deploy rules before anything is sent to the engine (sizes, file count, web
// paths), so a refusal names the file at fault and nothing large is read for nothing.
class FolderPackager final : public QObject
{
    Q_OBJECT

public:
    explicit FolderPackager(QObject *parent = nullptr);
    ~FolderPackager() override;
    Q_DISABLE_COPY_MOVE(FolderPackager)

    void start(const QString &path);
    void cancel();
    bool isRunning() const { return m_watcher.isRunning(); }
    // Set once finished() was emitted; empty after a cancel.
    const std::optional<Result<PackagedSite>> &result() const { return m_result; }

    // The packaging itself, synchronous; progress(done, total) is called as files are read and
    // returns false to stop.
    static Result<PackagedSite> package(const QString &path, const std::function<bool(int, int)> &progress);

Q_SIGNALS:
    void progressChanged(int done, int total);
    void finished();

private:
    QThreadPool m_pool;
    QFutureWatcher<Result<PackagedSite>> m_watcher;
    std::optional<Result<PackagedSite>> m_result;
    bool m_cancelled = false;
};

} // namespace berth
