#include "api/versionscontroller.h"

#include "api/deploymentjson.h"
#include "domain/common/clock.h"
#include "domain/deploy/deploymentservice.h"
#include "domain/deploy/versionhistory.h"
#include "domain/siterules/siteaddresses.h"
#include "web/apierror.h"
#include "web/jsonbody.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace berth {

VersionsController::VersionsController(
    const DeploymentService &deployments, VersionHistory &history, const SiteAddresses &addresses)
    : m_deployments(deployments)
    , m_history(history)
    , m_addresses(addresses)
{
}

void VersionsController::registerRoutes(ApiRouter &router)
{
    router.add("GET", u"/deploy/:id/versions"_s, [this](ApiCall &call) { list(call); });
    router.add("POST", u"/deploy/:id/rollback"_s, [this](ApiCall &call) { rollback(call); });
}

void VersionsController::list(ApiCall &call)
{
    const QString id = call.params.at(0);
    const auto deployment = m_deployments.get(call.user, id);
    const auto versions = m_history.versions(call.user, id);
    if (!deployment || !versions) {
        call.sink.send(errorResponse(deployment ? versions.error() : deployment.error()));
        return;
    }
    QJsonArray entries;
    for (const StoredVersion &version : versions.value()) {
        entries.append(QJsonObject {
            {u"version"_s, version.number},
            {u"created_at"_s, isoTimestamp(version.createdAt)},
            {u"file_count"_s, version.fileCount},
            {u"total_size"_s, version.totalSize},
            {u"title"_s, version.title},
            {u"live"_s, version.id == deployment.value().versionId},
            {u"url"_s, m_addresses.versionUrl(deployment.value().slug, version.number)},
        });
    }
    call.sink.send(HttpResponse::json(200, {{u"id"_s, id}, {u"versions"_s, entries}}));
}

void VersionsController::rollback(ApiCall &call)
{
    const auto body = JsonBody::parseObject(call.request.body);
    if (!body) {
        call.sink.send(errorResponse(body.error()));
        return;
    }
    const QJsonValue version = body.value().value(u"version"_s);
    if (version.isUndefined() || version.isNull()) {
        call.sink.send(HttpResponse::jsonError(400, u"version is required"_s));
        return;
    }
    const double number = version.toDouble(-1);
    if (!version.isDouble() || number < 1 || number > 2147483647.0 || number != double(qint64(number))) {
        call.sink.send(HttpResponse::jsonError(400, u"\"version\" must be a positive integer"_s));
        return;
    }
    const auto result = m_history.rollback(call.user, call.params.at(0), int(number));
    call.sink.send(result ? HttpResponse::json(200, DeploymentJson::summary(result.value(), m_addresses))
                          : errorResponse(result.error()));
}

} // namespace berth
