#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace berth {

// One file of a folder about to be published.
struct FolderFile
{
    QString absolutePath;
    QString relativePath; // with '/' separators, relative to the folder
    qint64 size = 0;
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
