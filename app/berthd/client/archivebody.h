#pragma once

#include "core/error.h"

#include <QByteArray>
#include <QJsonObject>
#include <optional>

namespace berth {
struct FolderContent;
}

namespace berth::ArchiveBody {

// A folder's files as one tar archive (ustar; a pax header for a path longer than a ustar name holds), for an archive
// upload: no base64, no JSON. An Error when a file cannot be read any more.
Result<QByteArray> tarOf(const FolderContent &folder);

// A deploy's fields as the query string of an archive upload ("slug=a&is_spa=true"), or nothing when one cannot go
// there (a password, which never goes in a URL; null, an array or an object).
std::optional<QString> queryOf(const QJsonObject &fields);

} // namespace berth::ArchiveBody
