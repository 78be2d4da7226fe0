#include "domain/deploy/folderreader.h"

#include "domain/common/mimetypes.h"
#include "domain/deploy/deploymentlimits.h"
#include "domain/deploy/digestcache.h"
#include "domain/deploy/filepath.h"
#include "storage/contentdigest.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace berth::FolderReader {

namespace {

using Reason = FolderRefusal::Reason;

// At most limit + 1 bytes of an open file, so that a file over the limit shows. Sized by the file, not the limit:
// a buffer of the limit for every small file costs a large allocation and its page faults each time.
QByteArray readUpTo(QFile &file, qint64 limit)
{
    const qint64 expected = qMin(file.size(), limit);
    QByteArray bytes = file.read(expected + 1);
    if (bytes.size() > expected && bytes.size() <= limit) // it grew since its size was read: the rest too
        bytes += file.read(limit + 1 - bytes.size());
    return bytes;
}

class Reading final
{
public:
    Reading(const Progress &progress, FolderRefusal *refusal)
        : m_progress(progress)
        , m_refusal(refusal)
    {
    }

    Result<FolderContent> page(const QFileInfo &info);
    // digests: each file named by its SHA-256 and size (digest()), else with its content.
    Result<FolderContent> folder(const QFileInfo &info, QList<PublishIssue> *issues, bool digests, DigestCache *cache);
    Error refuse(Reason reason, const QString &name, qint64 amount = 0, qint64 limit = 0, const QString &detail = {});
    // A file's bytes, at most the per-file limit: a file that grew past it since it was listed is refused.
    Result<QByteArray> bytesOf(const QString &absolutePath, const QString &relativePath);
    // upload with the file's content.
    Result<void> content(FileUpload &upload, const FolderFile &entry);
    // upload named by the file's SHA-256 and size, from cache when it holds them for the file's stamp.
    Result<void> digest(FileUpload &upload, const FolderFile &entry, DigestCache *cache);

private:
    bool goOn(qsizetype done, qsizetype total) const { return !m_progress || m_progress(int(done), int(total)); }
    // Sizes, count and names are checked from the listing, before a byte is read.
    Result<void> checkListing(const QList<FolderFile> &files, const QString &folderName);

    const Progress &m_progress;
    FolderRefusal *m_refusal;
};

Error Reading::refuse(Reason reason, const QString &name, qint64 amount, qint64 limit, const QString &detail)
{
    const FolderRefusal refusal {reason, name, amount, limit, detail};
    if (m_refusal)
        *m_refusal = refusal;
    const bool overLimit = reason == Reason::TooManyFiles || reason == Reason::PageTooLarge
        || reason == Reason::FileTooLarge || reason == Reason::FolderTooLarge;
    Error error {overLimit ? Error::Kind::TooLarge : Error::Kind::BadRequest, message(refusal)};
    if (reason == Reason::Cancelled)
        error.code = Error::Code::PublishCancelled;
    return error;
}

Result<FolderContent> Reading::page(const QFileInfo &info)
{
    if (info.size() > kMaxHtmlBytes)
        return refuse(Reason::PageTooLarge, info.fileName(), info.size(), kMaxHtmlBytes);
    QFile file(info.absoluteFilePath());
    if (!file.open(QIODevice::ReadOnly))
        return refuse(Reason::Unreadable, info.fileName(), 0, 0, file.errorString());
    const QByteArray bytes = readUpTo(file, kMaxHtmlBytes);
    if (bytes.size() > kMaxHtmlBytes) // grew since it was looked at
        return refuse(Reason::PageTooLarge, info.fileName(), 0, kMaxHtmlBytes);
    if (bytes.trimmed().isEmpty())
        return refuse(Reason::EmptyPage, info.fileName());
    FolderContent site;
    site.sourcePath = info.absoluteFilePath();
    site.singleHtml = true;
    site.content.html = QString::fromUtf8(bytes);
    site.fileCount = 1;
    site.totalBytes = bytes.size();
    site.hasIndex = true;
    goOn(1, 1);
    return site;
}

Result<void> Reading::checkListing(const QList<FolderFile> &files, const QString &folderName)
{
    if (files.isEmpty())
        return refuse(Reason::NoFiles, folderName);
    if (files.size() > kMaxFilesPerDeployment)
        return refuse(Reason::TooManyFiles, folderName, files.size(), kMaxFilesPerDeployment);
    qint64 total = 0;
    for (const FolderFile &file : files) {
        if (const Result<QString> path = FilePath::normalise(file.relativePath); !path)
            return refuse(Reason::UnusableName, file.relativePath, 0, 0, path.error().message);
        if (file.size > kMaxFileBytes)
            return refuse(Reason::FileTooLarge, file.relativePath, file.size, kMaxFileBytes);
        total += file.size;
    }
    if (total > kMaxTotalBytes)
        return refuse(Reason::FolderTooLarge, folderName, total, kMaxTotalBytes);
    return {};
}

Result<QByteArray> Reading::bytesOf(const QString &absolutePath, const QString &relativePath)
{
    QFile file(absolutePath);
    if (!file.open(QIODevice::ReadOnly))
        return refuse(Reason::Unreadable, relativePath, 0, 0, file.errorString());
    QByteArray bytes = readUpTo(file, kMaxFileBytes);
    if (bytes.size() > kMaxFileBytes) // grew since it was listed
        return refuse(Reason::FileTooLarge, relativePath, 0, kMaxFileBytes);
    return bytes;
}

Result<void> Reading::content(FileUpload &upload, const FolderFile &entry)
{
    Result<QByteArray> bytes = bytesOf(entry.absolutePath, entry.relativePath);
    if (!bytes)
        return bytes.error();
    upload.content = std::move(bytes).value();
    return {};
}

Result<void> Reading::digest(FileUpload &upload, const FolderFile &entry, DigestCache *cache)
{
    // The stamp of the listing, taken before the bytes: a write while they are read leaves a stamp the next reading
    // does not trust.
    const std::optional<FileStamp> &stamp = entry.stamp;
    if (stamp && cache)
        upload.sha256 = cache->digestOf(entry.relativePath, *stamp);
    if (!upload.sha256.isEmpty()) {
        upload.size = stamp->size; // the digest is of a file of this size, within the limit
    } else {
        const Result<QByteArray> bytes = bytesOf(entry.absolutePath, entry.relativePath);
        if (!bytes)
            return bytes.error();
        upload.sha256 = ContentDigest::hexOf(bytes.value());
        upload.size = bytes.value().size();
    }
    if (stamp && cache)
        cache->remember(entry.relativePath, *stamp, upload.sha256);
    return {};
}

Result<FolderContent> Reading::folder(
    const QFileInfo &info, QList<PublishIssue> *issues, bool digests, DigestCache *cache)
{
    FolderListing listing = listFolder(info.absoluteFilePath());
    if (issues) // an unchanged file's secret scan comes from the cache too
        *issues = PublishChecks::check(listing, digests ? cache : nullptr);
    if (const Result<void> checked = checkListing(listing.files, info.fileName()); !checked)
        return checked.error();

    FolderContent site;
    site.sourcePath = QDir(info.absoluteFilePath()).absolutePath();
    site.skippedHidden = listing.skippedHidden;
    site.linksOutside = std::move(listing.linksOutside);
    QList<FileUpload> uploads;
    uploads.reserve(listing.files.size());
    site.sourceFiles.reserve(listing.files.size());
    for (qsizetype i = 0; i < listing.files.size(); ++i) {
        if (!goOn(i, listing.files.size()))
            return refuse(Reason::Cancelled, info.fileName());
        const FolderFile &entry = listing.files.at(i);
        FileUpload upload;
        upload.path = FilePath::normalise(entry.relativePath).value(); // checked with the listing
        upload.contentType = MimeTypes::forPath(upload.path);
        if (const Result<void> filled = digests ? digest(upload, entry, cache) : content(upload, entry); !filled)
            return filled.error();
        site.totalBytes += upload.byteSize();
        site.hasIndex = site.hasIndex || upload.path == u"index.html";
        uploads.append(std::move(upload));
        site.sourceFiles.append(entry.absolutePath);
    }
    if (site.totalBytes > kMaxTotalBytes) // files grew since they were listed
        return refuse(Reason::FolderTooLarge, info.fileName(), site.totalBytes, kMaxTotalBytes);
    goOn(listing.files.size(), listing.files.size());
    site.fileCount = int(uploads.size());
    site.content.files = std::move(uploads);
    return site;
}

QString megabytes(qint64 bytes) // "5.2 MB"
{
    return QString::number(double(bytes) / double(kMiB), 'f', 1) + u" MB"_s;
}

QString limit(qint64 bytes) // "5 MB"
{
    return QString::number(bytes / kMiB) + u" MB"_s;
}

Result<FolderContent> readAs(const QString &path, const Progress &progress, FolderRefusal *refusal,
    QList<PublishIssue> *issues, bool digests, DigestCache *cache)
{
    Reading reading(progress, refusal);
    const QFileInfo info(path);
    if (!info.exists())
        return reading.refuse(Reason::Missing, path);
    if (info.isFile()) {
        const QString suffix = info.suffix().toLower();
        if (suffix != u"html" && suffix != u"htm")
            return reading.refuse(Reason::NotPublishable, path);
        return reading.page(info);
    }
    if (!info.isDir())
        return reading.refuse(Reason::NeitherFileNorFolder, path);
    return reading.folder(info, issues, digests, cache);
}

} // namespace

Result<FolderContent> read(
    const QString &path, const Progress &progress, FolderRefusal *refusal, QList<PublishIssue> *issues)
{
    return readAs(path, progress, refusal, issues, false, nullptr);
}

Result<FolderContent> readDigests(const QString &path, DigestCache *cache, const Progress &progress,
    FolderRefusal *refusal, QList<PublishIssue> *issues)
{
    return readAs(path, progress, refusal, issues, true, cache);
}

Result<QByteArray> contentOf(const FolderContent &content, qsizetype index)
{
    const Progress none;
    Reading reading(none, nullptr);
    return reading.bytesOf(content.sourceFiles.at(index), content.content.files->at(index).path);
}

QString message(const FolderRefusal &refusal)
{
    const QString &name = refusal.name;
    switch (refusal.reason) {
    case Reason::Missing:
        return u"\"%1\" does not exist"_s.arg(name);
    case Reason::NotPublishable:
        return u"only a folder or an .html file can be published; \"%1\" is neither"_s.arg(name);
    case Reason::NeitherFileNorFolder:
        return u"\"%1\" is neither a folder nor a file"_s.arg(name);
    case Reason::EmptyPage:
        return u"\"%1\" is empty"_s.arg(name);
    case Reason::NoFiles:
        return u"\"%1\" has no files to publish (hidden files, .git and links out of the folder are left out)"_s.arg(
            name);
    case Reason::TooManyFiles:
        return u"\"%1\" holds %2 files; a site can have at most %3"_s.arg(name).arg(refusal.amount).arg(refusal.limit);
    case Reason::UnusableName: // detail: what FilePath found, naming the path
        return refusal.detail;
    case Reason::PageTooLarge:
        return refusal.amount > 0
            ? u"\"%1\" is %2; a single HTML page can be at most %3"_s.arg(
                name, megabytes(refusal.amount), limit(refusal.limit))
            : u"\"%1\" is over %2; a single HTML page can be at most %2"_s.arg(name, limit(refusal.limit));
    case Reason::FileTooLarge:
        return refusal.amount > 0
            ? u"File \"%1\" is %2; each file can be at most %3"_s.arg(
                name, megabytes(refusal.amount), limit(refusal.limit))
            : u"File \"%1\" is over %2; each file can be at most %2"_s.arg(name, limit(refusal.limit));
    case Reason::FolderTooLarge:
        return u"\"%1\" holds %2 of files; a site can be at most %3 in total"_s.arg(
            name, megabytes(refusal.amount), limit(refusal.limit));
    case Reason::Unreadable:
        return u"\"%1\" could not be read: %2"_s.arg(name, refusal.detail);
    case Reason::Cancelled:
        return u"Cancelled"_s;
    }
    return {};
}

} // namespace berth::FolderReader
