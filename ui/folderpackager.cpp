#include "folderpackager.h"

#include "domain/deploymentlimits.h"
#include "domain/filepath.h"
#include "domain/folderfiles.h"
#include "domain/mimetypes.h"

#include <QDir>
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

Error refusal(const QString &message)
{
    return Error {Error::Kind::TooLarge, message};
}
Error problem(const QString &message)
{
    return Error {Error::Kind::BadRequest, message};
}

Result<PackagedSite> packageHtml(const QFileInfo &info, const std::function<bool(int, int)> &progress)
{
    if (info.size() > kMaxHtmlBytes)
        return refusal(FolderPackager::tr("“%1” is %2; a single HTML page can be at most %3.")
                           .arg(info.fileName(), size(info.size()), size(kMaxHtmlBytes)));
    QFile file(info.absoluteFilePath());
    if (!file.open(QIODevice::ReadOnly))
        return problem(FolderPackager::tr("“%1” could not be read: %2").arg(info.fileName(), file.errorString()));
    const QByteArray bytes = file.read(kMaxHtmlBytes + 1);
    if (bytes.size() > kMaxHtmlBytes)
        return refusal(FolderPackager::tr("“%1” is over %2; a single HTML page can be at most %2.")
                           .arg(info.fileName(), size(kMaxHtmlBytes)));
    if (bytes.trimmed().isEmpty())
        return problem(FolderPackager::tr("“%1” is empty.").arg(info.fileName()));
    PackagedSite site;
    site.sourcePath = info.absoluteFilePath();
    site.singleHtml = true;
    site.content.html = QString::fromUtf8(bytes);
    site.fileCount = 1;
    site.totalBytes = bytes.size();
    site.hasIndex = true;
    progress(1, 1);
    return site;
}

// Sizes, count and paths are checked from the listing, before a byte is read.
Result<void> checkListing(const QList<FolderFile> &entries, const QString &folderName)
{
    if (entries.isEmpty())
        return problem(
            FolderPackager::tr("“%1” has no files to publish (hidden files and .git are skipped).").arg(folderName));
    if (entries.size() > kMaxFilesPerDeployment)
        return refusal(FolderPackager::tr("“%1” holds %L2 files; a site can have at most %L3.")
                           .arg(folderName)
                           .arg(entries.size())
                           .arg(kMaxFilesPerDeployment));
    qint64 total = 0;
    for (const FolderFile &entry : entries) {
        if (!FilePath::normalise(entry.relativePath))
            return problem(FolderPackager::tr("“%1” cannot be published: its name cannot be part of a web address.")
                               .arg(entry.relativePath));
        if (entry.size > kMaxFileBytes)
            return refusal(FolderPackager::tr("“%1” is %2; each file can be at most %3.")
                               .arg(entry.relativePath, size(entry.size), size(kMaxFileBytes)));
        total += entry.size;
    }
    if (total > kMaxTotalBytes)
        return refusal(FolderPackager::tr("“%1” holds %2 of files; a site can be at most %3 in total.")
                           .arg(folderName, size(total), size(kMaxTotalBytes)));
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
        const QFuture<Result<PackagedSite>> future = m_watcher.future();
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
        QtConcurrent::run(&m_pool, [path, issues = m_pendingIssues](QPromise<Result<PackagedSite>> &promise) {
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

Result<PackagedSite> FolderPackager::package(
    const QString &path, const std::function<bool(int, int)> &progress, QList<PublishIssue> *issues)
{
    const QFileInfo info(path);
    if (!info.exists())
        return problem(FolderPackager::tr("“%1” no longer exists.").arg(path));
    if (info.isFile()) {
        const QString suffix = info.suffix().toLower();
        if (suffix != u"html" && suffix != u"htm")
            return problem(FolderPackager::tr("Only a folder or an .html file can be published; “%1” is neither.")
                               .arg(info.fileName()));
        return packageHtml(info, progress);
    }
    if (!info.isDir())
        return problem(FolderPackager::tr("“%1” is neither a folder nor a file.").arg(path));

    PackagedSite site;
    const QList<FolderFile> entries = listFolderFiles(info.absoluteFilePath(), &site.skippedHidden);
    if (issues)
        *issues = PublishChecks::check(entries);
    if (const Result<void> listing = checkListing(entries, info.fileName()); !listing)
        return listing.error();

    QList<FileUpload> files;
    files.reserve(entries.size());
    for (qsizetype i = 0; i < entries.size(); ++i) {
        if (!progress(int(i), int(entries.size())))
            return problem(FolderPackager::tr("Cancelled."));
        const FolderFile &entry = entries.at(i);
        QFile file(entry.absolutePath);
        if (!file.open(QIODevice::ReadOnly))
            return problem(
                FolderPackager::tr("“%1” could not be read: %2").arg(entry.relativePath, file.errorString()));
        FileUpload upload;
        upload.path = FilePath::normalise(entry.relativePath).value(); // checked by the listing's check
        upload.content = file.read(kMaxFileBytes + 1);
        if (upload.content.size() > kMaxFileBytes) // grew since it was listed
            return refusal(FolderPackager::tr("“%1” is over %2; each file can be at most %2.")
                               .arg(entry.relativePath, size(kMaxFileBytes)));
        upload.contentType = MimeTypes::forPath(upload.path);
        site.totalBytes += upload.content.size();
        if (upload.path == u"index.html")
            site.hasIndex = true;
        files.append(std::move(upload));
    }
    if (site.totalBytes > kMaxTotalBytes)
        return refusal(FolderPackager::tr("“%1” holds %2 of files; a site can be at most %3 in total.")
                           .arg(info.fileName(), size(site.totalBytes), size(kMaxTotalBytes)));
    progress(int(entries.size()), int(entries.size()));
    site.sourcePath = QDir(info.absoluteFilePath()).absolutePath();
    site.fileCount = int(files.size());
    site.content.files = std::move(files);
    return site;
}

} // namespace berth
