#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

namespace berth {

// What tells one version of a file from another without reading it, as git's index does: any write, a replacement by
// rename (a new inode), a copy back with the old times (touch -d still moves the change time) changes one of these.
struct FileStamp
{
    qint64 size = 0;
    qint64 modifiedNs = 0; // st_mtim, nanoseconds since the epoch
    qint64 changedNs = 0; // st_ctim
    quint64 inode = 0;
    quint64 device = 0;

    bool operator==(const FileStamp &other) const
    {
        return size == other.size && modifiedNs == other.modifiedNs && changedNs == other.changedNs
            && inode == other.inode && device == other.device;
    }
    bool operator!=(const FileStamp &other) const { return !(*this == other); }

    // The stamp of the file path names (a link followed); nullopt when it cannot be looked at.
    static std::optional<FileStamp> of(const QString &path);
};

// One file of a folder about to be published.
struct FolderFile
{
    QString absolutePath;
    QString relativePath; // with '/' separators, relative to the folder
    qint64 size = 0;
    std::optional<FileStamp> stamp = {}; // as listed, before any byte of it was read
};

// The files of a folder as a site publishes them, for the dashboard, `berthd deploy` and live folders alike.
struct FolderListing
{
    QList<FolderFile> files; // every file under the folder, in name order
    int skippedHidden = 0; // names starting with a dot (.git, .DS_Store, .env): left out
    // Symbolic links whose target lies outside the folder, or nowhere: left out, so that a link such as
    // host.txt -> /etc/hostname cannot publish a file of the machine. Relative paths, in name order.
    QStringList linksOutside;
};

// Lists root as a site publishes it. A link to a file inside the folder is published as that file; a link to a
// folder is not followed (a link cycle cannot loop, and no file is published twice).
FolderListing listFolder(const QString &root);

} // namespace berth
