#pragma once

#include "api/apirouter.h"
#include "core/error.h"
#include "storage/deployment.h"

#include <QByteArrayList>
#include <QFuture>

namespace berth {

class DeploymentService;

// POST /deploy and PUT /deploy/:id with a tar archive as the body (application/x-tar, or application/gzip for a
// compressed one): the deploy's fields from the query string (?slug=...&title=...&is_spa=true), its files from the
// archive, stored while the body arrives (the front door hands the body over as a stream: HttpRequest::bodyStream).
namespace ArchiveUpload {

// The media types of an archive body: the front door streams these to POST /deploy and PUT /deploy/:id.
QByteArrayList mediaTypes();

QFuture<Result<Deployment>> create(DeploymentService &service, const ApiCall &call);
QFuture<Result<Deployment>> update(DeploymentService &service, const ApiCall &call);

// The 400 of a password in the query string, which would stay in logs and shell histories.
QString passwordInQueryMessage();

} // namespace ArchiveUpload
} // namespace berth
