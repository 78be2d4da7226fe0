#pragma once

#include "app/berthd/client/apiclient.h"

namespace berth::IncrementalUpload {

// Sends a deploy body (POST /deploy or PUT /deploy/:id) sending only content the server lacks: the files
// go first as hashes alone; a 409 "Missing file contents" names the ones it does not hold, which go again with their
// content. A body without files (a single page) is sent as it is. *sentFiles counts the files whose content went
// (left as it is for a body without files).
ApiClient::Reply send(ApiClient &client, const QByteArray &method, const QString &path, const QJsonObject &body,
    bool showProgress, int *sentFiles = nullptr);

} // namespace berth::IncrementalUpload
