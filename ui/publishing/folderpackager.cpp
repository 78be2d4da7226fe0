#include "ui/publishing/folderpackager.h"

#include "domain/deploy/deploymentlimits.h"

#include <QFileInfo>
#include <QLocale>
#include <QPromise>
#include <QtConcurrent>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

// The engine counts 1 MB as 1,048,576 bytes and says "MB": so does this. Limits read "10 MB", sizes "10.0 MB".
QString size(qint64 bytes)
{
    return QLocale().formattedDataSize(bytes, bytes % kMiB == 0 ? 0 : 1, QLocale::DataSizeTraditionalFormat);
}

// A refusal of FolderReader's in the user's language.
QString refusalText(const FolderRefusal &refusal)
{
    using Reason = FolderRefusal::Reason;
    const QString &name = refusal.name;
    switch (refusal.reason) {
    case Reason::Missing:
        return FolderPackager::tr("“%1” no longer exists.").arg(name);
    case Reason::NotPublishable:
        return FolderPackager::tr("Only a folder or an .html file can be published; “%1” is neither.")
            .arg(QFileInfo(name).fileName());
    case Reason::NeitherFileNorFolder:
        return FolderPackager::tr("“%1” is neither a folder nor a file.").arg(name);
    case Reason::EmptyPage:
        return FolderPackager::tr("“%1” is empty.").arg(name);
    case Reason::NoFiles:
        return FolderPackager::tr(
            "“%1” has no files to publish (hidden files, .git and links out of the folder are left out).")
            .arg(name);
    case Reason::TooManyFiles:
        return FolderPackager::tr("“%1” holds %L2 files; a site can have at most %L3.")
            .arg(name)
            .arg(refusal.amount)
            .arg(refusal.limit);
    case Reason::UnusableName:
        return FolderPackager::tr("“%1” cannot be published: its name cannot be part of a web address.").arg(name);
    case Reason::PageTooLarge:
        return refusal.amount > 0 ? FolderPackager::tr("“%1” is %2; a single HTML page can be at most %3.")
                                        .arg(name, size(refusal.amount), size(refusal.limit))
                                  : FolderPackager::tr("“%1” is over %2; a single HTML page can be at most %2.")
                                        .arg(name, size(refusal.limit));
    case Reason::FileTooLarge:
        return refusal.amount > 0
            ? FolderPackager::tr("“%1” is %2; each file can be at most %3.")
                  .arg(name, size(refusal.amount), size(refusal.limit))
            : FolderPackager::tr("“%1” is over %2; each file can be at most %2.").arg(name, size(refusal.limit));
    case Reason::FolderTooLarge:
        return FolderPackager::tr("“%1” holds %2 of files; a site can be at most %3 in total.")
            .arg(name, size(refusal.amount), size(refusal.limit));
    case Reason::Unreadable:
        return FolderPackager::tr("“%1” could not be read: %2").arg(name, refusal.detail);
    case Reason::Cancelled:
        return FolderPackager::tr("Cancelled.");
    }
    return {};
}

} // namespace

FolderPackager::FolderPackager(QObject *parent)
    : QObject(parent)
{
    m_pool.setMaxThreadCount(1);
    connect(&m_watcher, &QFutureWatcherBase::progressValueChanged, this,
        [this](int value) { Q_EMIT progressChanged(value, m_watcher.progressMaximum()); });
    connect(&m_watcher, &QFutureWatcherBase::finished, this, [this] {
        const QFuture<Result<FolderContent>> future = m_watcher.future();
        // The flag, not only the future's state: a cancel may come after the worker already finished.
        if (!m_cancelled && !future.isCanceled() && future.resultCount() > 0) {
            m_result = future.result();
            m_issues = *m_pendingIssues;
        }
        Q_EMIT finished();
    });
}

FolderPackager::~FolderPackager()
{
    m_watcher.disconnect(this);
    m_watcher.cancel();
    m_pool.waitForDone();
}

void FolderPackager::start(const QString &path)
{
    m_result.reset();
    m_issues.clear();
    m_cancelled = false;
    m_pendingIssues = std::make_shared<QList<PublishIssue>>();
    m_watcher.setFuture(
        QtConcurrent::run(&m_pool, [path, issues = m_pendingIssues](QPromise<Result<FolderContent>> &promise) {
            auto result = package(
                path,
                [&promise](int done, int total) {
                    promise.setProgressRange(0, total);
                    promise.setProgressValue(done);
                    return !promise.isCanceled();
                },
                issues.get());
            if (!promise.isCanceled())
                promise.addResult(std::move(result));
        }));
}

void FolderPackager::cancel()
{
    m_cancelled = true;
    m_watcher.cancel();
}

Result<FolderContent> FolderPackager::package(
    const QString &path, const std::function<bool(int, int)> &progress, QList<PublishIssue> *issues)
{
    FolderRefusal refusal;
    Result<FolderContent> site = FolderReader::read(path, progress, &refusal, issues);
    if (!site)
        return Error {site.error().kind, refusalText(refusal), site.error().code};
    return site;
}

} // namespace berth
