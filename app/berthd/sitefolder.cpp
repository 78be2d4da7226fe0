#include "sitefolder.h"

#include "domain/deploymentlimits.h"
#include "domain/filepath.h"
#include "domain/folderfiles.h"
#include "domain/mimetypes.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace berth::SiteFolder {

namespace {

QString megabytes(qint64 bytes)
{
    return QString::number(double(bytes) / double(kMiB), 'f', 1) + u" MB"_s;
}
QString limit(qint64 bytes) // "5 MB"
{
    return QString::number(bytes / kMiB) + u" MB"_s;
}

Error tooLarge(const QString &message)
{
    return {Error::Kind::TooLarge, message};
}
Error problem(const QString &message)
{
    return {Error::Kind::BadRequest, message};
}

Result<Content> readHtml(const QFileInfo &info)
{
    if (info.size() > kMaxHtmlBytes)
        return tooLarge(u"\"%1\" is %2; a single HTML page can be at most %3"_s.arg(
            info.fileName(), megabytes(info.size()), limit(kMaxHtmlBytes)));
    QFile file(info.absoluteFilePath());
    if (!file.open(QIODevice::ReadOnly))
        return problem(u"\"%1\" could not be read: %2"_s.arg(info.fileName(), file.errorString()));
    const QByteArray bytes = file.read(kMaxHtmlBytes + 1);
    if (bytes.size() > kMaxHtmlBytes)
        return tooLarge(
            u"\"%1\" is over %2; a single HTML page can be at most %2"_s.arg(info.fileName(), limit(kMaxHtmlBytes)));
    if (bytes.trimmed().isEmpty())
        return problem(u"\"%1\" is empty"_s.arg(info.fileName()));
    Content content;
    content.fields.insert(u"html"_s, QString::fromUtf8(bytes));
    content.fileCount = 1;
    content.totalBytes = bytes.size();
    content.hasIndex = true;
    return content;
}

Result<void> checkListing(const QList<FolderFile> &entries, const QString &folder)
{
    if (entries.isEmpty())
        return problem(u"\"%1\" has no files to publish (hidden files and .git are skipped)"_s.arg(folder));
    if (entries.size() > kMaxFilesPerDeployment)
        return tooLarge(u"\"%1\" holds %2 files; a site can have at most %3"_s.arg(folder)
                            .arg(entries.size())
                            .arg(kMaxFilesPerDeployment));
    qint64 total = 0;
    for (const FolderFile &entry : entries) {
        if (const Result<QString> path = FilePath::normalise(entry.relativePath); !path)
            return problem(path.error().message);
        if (entry.size > kMaxFileBytes)
            return tooLarge(u"File \"%1\" is %2; each file can be at most %3"_s.arg(
                entry.relativePath, megabytes(entry.size), limit(kMaxFileBytes)));
        total += entry.size;
    }
    if (total > kMaxTotalBytes)
        return tooLarge(u"\"%1\" holds %2 of files; a site can be at most %3 in total"_s.arg(
            folder, megabytes(total), limit(kMaxTotalBytes)));
    return {};
}

} // namespace

Result<Content> read(const QString &path)
{
    const QFileInfo info(path);
    if (!info.exists())
        return problem(u"\"%1\" does not exist"_s.arg(path));
    if (info.isFile()) {
        const QString suffix = info.suffix().toLower();
        if (suffix != u"html" && suffix != u"htm")
            return problem(u"only a folder or an .html file can be published; \"%1\" is neither"_s.arg(path));
        return readHtml(info);
    }
    if (!info.isDir())
        return problem(u"\"%1\" is neither a folder nor a file"_s.arg(path));

    Content content;
    const QList<FolderFile> entries = listFolderFiles(info.absoluteFilePath(), &content.skippedHidden);
    if (const Result<void> listing = checkListing(entries, info.fileName()); !listing)
        return listing.error();
    QJsonArray files;
    for (const FolderFile &entry : entries) {
        QFile file(entry.absolutePath);
        if (!file.open(QIODevice::ReadOnly))
            return problem(u"\"%1\" could not be read: %2"_s.arg(entry.relativePath, file.errorString()));
        const QByteArray bytes = file.read(kMaxFileBytes + 1);
        if (bytes.size() > kMaxFileBytes) // grew since it was listed
            return tooLarge(
                u"File \"%1\" is over %2; each file can be at most %2"_s.arg(entry.relativePath, limit(kMaxFileBytes)));
        const QString normalised = FilePath::normalise(entry.relativePath).value(); // checked above
        files.append(QJsonObject {{u"path"_s, normalised}, {u"content"_s, QString::fromLatin1(bytes.toBase64())},
            {u"encoding"_s, u"base64"_s}, {u"contentType"_s, QString::fromLatin1(MimeTypes::forPath(normalised))}});
        content.totalBytes += bytes.size();
        content.hasIndex = content.hasIndex || normalised == u"index.html"_s;
    }
    if (content.totalBytes > kMaxTotalBytes)
        return tooLarge(u"\"%1\" holds %2 of files; a site can be at most %3 in total"_s.arg(
            info.fileName(), megabytes(content.totalBytes), limit(kMaxTotalBytes)));
    content.fileCount = int(files.size());
    content.fields.insert(u"files"_s, files);
    return content;
}

} // namespace berth::SiteFolder
