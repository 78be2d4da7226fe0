#include "domain/deploy/folderfiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <sys/stat.h>

namespace berth {

namespace {

qint64 nanoseconds(const timespec &time)
{
    return qint64(time.tv_sec) * 1'000'000'000 + time.tv_nsec;
}

class FolderWalk final
{
public:
    explicit FolderWalk(const QString &root)
        : m_root(QFileInfo(root).canonicalFilePath())
    {
    }

    FolderListing run()
    {
        if (!m_root.isEmpty())
            collect(QDir(m_root));
        return std::move(m_listing);
    }

private:
    // Inside the folder: the root itself or below it, by canonical path (every link along the way resolved).
    bool isInside(const QString &canonicalPath) const
    {
        return canonicalPath == m_root || canonicalPath.startsWith(m_root + QLatin1Char('/'));
    }

    void collect(const QDir &dir)
    {
        const QFileInfoList infos
            = dir.entryInfoList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
        for (const QFileInfo &info : infos) {
            if (info.fileName().startsWith(QLatin1Char('.'))) {
                ++m_listing.skippedHidden;
                continue;
            }
            const QString relative = QDir(m_root).relativeFilePath(info.absoluteFilePath());
            if (info.isSymLink() && !isInside(info.canonicalFilePath())) {
                m_listing.linksOutside.append(relative);
                continue;
            }
            if (info.isDir()) {
                if (!info.isSymLink())
                    collect(QDir(info.absoluteFilePath()));
            } else if (info.isFile()) {
                m_listing.files.append(
                    {info.absoluteFilePath(), relative, info.size(), FileStamp::of(info.absoluteFilePath())});
            }
        }
    }

    const QString m_root;
    FolderListing m_listing;
};

} // namespace

std::optional<FileStamp> FileStamp::of(const QString &path)
{
    struct stat status = {};
    if (::stat(QFile::encodeName(path).constData(), &status) != 0)
        return std::nullopt;
    return FileStamp {qint64(status.st_size), nanoseconds(status.st_mtim), nanoseconds(status.st_ctim),
        quint64(status.st_ino), quint64(status.st_dev)};
}

FolderListing listFolder(const QString &root)
{
    return FolderWalk(root).run();
}

} // namespace berth
