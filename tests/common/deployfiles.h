#pragma once

#include "domain/deploy/deployrequest.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace berth::test {

// One entry of the "files" array of a deploy request's JSON body (POST /deploy, PUT /deploy/:id), as a client sends
// it: a text file with its content as is, or a file with its content in base64, as a client sends binary files.
QJsonObject textFile(const QString &path, const QString &content);
QJsonObject base64File(const QString &path, const QByteArray &content);

// One file of a deploy request built in-process (as the dashboard builds it, not parsed from JSON), typed as plain
// text: "text/plain; charset=utf-8".
FileUpload textUpload(const QString &path, const QByteArray &content);

} // namespace berth::test
