#pragma once

#include "app/berthd/client/apiclient.h"
#include "core/error.h"

namespace berth {
struct FolderContent;
}

namespace berth::IncrementalUpload {

// Sends a deploy body (POST /deploy or PUT /deploy/:id) with only the content the server lacks: fields (title,
// slug, ...) with folder's files (read by FolderReader::readDigests) named by their SHA-256 first; a 409 "Missing file
// contents" names the ones it does not hold, whose bytes are then read and go again with their content, base64, or,
// when it holds none of them, as a tar archive of the folder (ArchiveBody). A single page (no files) goes as fields
// alone. *sentFiles counts the files whose content went (left as it is for a single page). An
// Error when a file to send cannot be read any more (or grew over a limit).
Result<ApiClient::Reply> send(ApiClient &client, const QByteArray &method, const QString &path,
    const QJsonObject &fields, const FolderContent &folder, bool showProgress, int *sentFiles = nullptr);

} // namespace berth::IncrementalUpload
