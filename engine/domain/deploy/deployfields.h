#pragma once

// Private to deployrequest.cpp and deployfields.cpp: what parsing a deploy body and parsing its files array share.

#include "core/error.h"
#include "domain/deploy/deployrequest.h"

#include <QJsonObject>
#include <QLatin1String>
#include <QList>

class QJsonArray;

namespace berth {

class LiftedContent;

namespace DeployFields {

Error badRequest(const QString &message); // 400
Error tooLarge(const QString &message); // 413
// 400 for a field the body may not carry, with the known name it most likely meant: a client that misspells
// "protect" must not get a public site and a 200. `where` prefixes the names in the message ("files[2].").
Result<void> checkFieldNames(const QJsonObject &object, const QList<QLatin1String> &known, const QString &where);
// The files array of a deploy body: each entry checked and decoded, the paths normalised, the limits applied. With
// `lifted`, contents that are its placeholders are read from the body's bytes (and a refusal may only mean that the
// whole body must be parsed: see parseDeployRequest).
Result<QList<FileUpload>> parseFiles(const QJsonArray &array, LiftedContent *lifted);

} // namespace DeployFields
} // namespace berth
