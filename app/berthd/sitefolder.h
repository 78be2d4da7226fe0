#pragma once

#include "core/error.h"

#include <QJsonObject>
#include <QString>

namespace berth {

// A folder or an .html file read into the content of a deploy body: {"html": ...} or {"files": [...]} with
// base64 contents. The rules are the dashboard's: hidden files and folders (.git, .DS_Store) are skipped, links to
// folders are not followed, and the size limits (5 MB page, 10 MB file, 50 MB total, 10,000 files) are checked
// from the listing before a byte is read, naming the file that is over. TooLarge or BadRequest otherwise.
namespace SiteFolder {

struct Content
{
    QJsonObject fields; // html, or files
    int fileCount = 0;
    qint64 totalBytes = 0;
    int skippedHidden = 0;
    bool hasIndex = false;
};

Result<Content> read(const QString &path);

} // namespace SiteFolder
} // namespace berth
