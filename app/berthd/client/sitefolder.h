#pragma once

#include "core/error.h"
#include "domain/deploy/folderreader.h"

#include <QJsonObject>

namespace berth::SiteFolder {

// A folder or an .html file as the content of a deploy body, read by the engine's FolderReader (the dashboard's
// rules: hidden files and links out of the folder left out, limits checked before a byte is read).
struct Content
{
    FolderContent folder;
    QJsonObject fields; // {"html": ...} or {"files": [...]} with base64 contents
};

// TooLarge or BadRequest, with an English message naming the file at fault.
Result<Content> read(const QString &path);

} // namespace berth::SiteFolder
