#include "folderfiles.h"

#include <QDir>
#include <QFileInfo>

namespace berth {

namespace {
void collect(const QDir &root, const QDir &dir, QList<FolderFile> &files, int &skipped)
{
    const QFileInfoList infos
        = dir.entryInfoList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
    for (const QFileInfo &info : infos) {
        if (info.fileName().startsWith(u'.')) {
            ++skipped;
            continue;
        }
        if (info.isDir()) {
            if (!info.isSymLink())
                collect(root, QDir(info.absoluteFilePath()), files, skipped);
        } else if (info.isFile()) {
            files.append({info.absoluteFilePath(), root.relativeFilePath(info.absoluteFilePath()), info.size()});
        }
    }
}
} // namespace

QList<FolderFile> listFolderFiles(const QString &root, int *skippedHidden)
{
    QList<FolderFile> files;
    int skipped = 0;
    const QDir dir(root);
    collect(dir, dir, files, skipped);
    if (skippedHidden)
        *skippedHidden = skipped;
    return files;
}

} // namespace berth
