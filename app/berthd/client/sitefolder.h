#pragma once

#include "core/error.h"
#include "domain/deploy/folderreader.h"

#include <QJsonObject>

namespace berth::SiteFolder {

// A folder or an .html file as the content of a deploy body, read by the engine's FolderReader (the dashboard's
// rules: hidden files and links out of the folder left out, limits checked before a byte is read). A folder's files
// come named by their SHA-256 alone (FolderReader::readDigests), the digests of files unchanged since the last
// reading taken from the user's digest cache (DigestCache), which is then saved: IncrementalUpload reads and encodes
// only the content the server lacks.
struct Content
{
    FolderContent folder;
    QJsonObject fields; // {"html": ...} for a single page; empty for a folder
};

// TooLarge or BadRequest, with an English message naming the file at fault. issues, when given, receives what the
// pre-publish checks find in a folder, also when it is then refused; the folder is listed once for both.
Result<Content> read(const QString &path, QList<PublishIssue> *issues = nullptr);

} // namespace berth::SiteFolder
