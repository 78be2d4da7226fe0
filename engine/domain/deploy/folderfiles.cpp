#include "domain/deploy/folderfiles.h"

#include <QDir>
#include <QFileInfo>

namespace berth {

namespace {

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
                m_listing.files.append({info.absoluteFilePath(), relative, info.size()});
            }
        }
    }

    const QString m_root;
    FolderListing m_listing;
};

} // namespace

FolderListing listFolder(const QString &root)
{
    return FolderWalk(root).run();
}

} // namespace berth
