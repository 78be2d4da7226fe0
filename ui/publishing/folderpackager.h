#pragma once

#include "core/error.h"
#include "domain/deploy/folderreader.h"
#include "domain/deploy/publishchecks.h"

#include <QFutureWatcher>
#include <QObject>
#include <QThreadPool>
#include <optional>

namespace berth {

// Reads a dropped folder or .html file into a DeployRequest on a worker thread, with progress and cancel, through
// the engine's FolderReader (the same rules as `berthd deploy`), and words its refusals in the user's language.
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
    const std::optional<Result<FolderContent>> &result() const { return m_result; }
    // What the pre-publish checks found in the folder (PublishChecks), also when packaging then refused it; set
    // once finished() was emitted. Empty for a single .html file.
    const QList<PublishIssue> &issues() const { return m_issues; }

    // The packaging itself, synchronous; progress(done, total) is called as files are read and
    // returns false to stop.
    // `issues`, when given, receives what the pre-publish checks find in a folder, before the limits are applied.
    static Result<FolderContent> package(
        const QString &path, const std::function<bool(int, int)> &progress, QList<PublishIssue> *issues = nullptr);

Q_SIGNALS:
    void progressChanged(int done, int total);
    void finished();

private:
    QThreadPool m_pool;
    QFutureWatcher<Result<FolderContent>> m_watcher;
    std::optional<Result<FolderContent>> m_result;
    std::shared_ptr<QList<PublishIssue>> m_pendingIssues; // written by the worker, read once it has finished
    QList<PublishIssue> m_issues;
    bool m_cancelled = false;
};

} // namespace berth
