#pragma once

#include <QList>
#include <QString>

namespace berth {

// One file of a folder about to be published.
struct FolderFile
{
    QString absolutePath;
    QString relativePath; // with '/' separators, relative to the folder
    qint64 size = 0;
};

// The files of a folder as a site publishes them, for the dashboard and `berthd deploy` alike: every file under
// root in name order, except hidden ones (names starting with a dot: .git, .DS_Store, .env), which are counted in
// skippedHidden. Symbolic links to folders are not followed, so a link cycle cannot loop.
QList<FolderFile> listFolderFiles(const QString &root, int *skippedHidden);

} // namespace berth
