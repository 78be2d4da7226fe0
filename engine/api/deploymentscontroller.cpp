#include "api/deploymentscontroller.h"

#include "api/archiveupload.h"
#include "api/deploymentjson.h"
#include "domain/deploy/customdomainservice.h"
#include "domain/deploy/deploymentservice.h"
#include "domain/siterules/siteaddresses.h"
#include "web/apierror.h"
#include "web/jsonbody.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

// A deploy's refusal; the 409 of an incremental upload also lists the paths whose content must be sent.
HttpResponse deployErrorResponse(const Error &error)
{
    if (error.kind != Error::Kind::Conflict || error.missing.isEmpty())
        return errorResponse(error);
    return HttpResponse::json(httpStatusFor(error.kind),
        {{u"error"_s, error.message}, {u"missing"_s, QJsonArray::fromStringList(error.missing)}});
}

} // namespace

DeploymentsController::DeploymentsController(
    DeploymentService &service, const CustomDomainService &domains, const SiteAddresses &addresses)
    : m_service(service)
    , m_domains(domains)
    , m_addresses(addresses)
{
}

void DeploymentsController::registerRoutes(ApiRouter &router)
{
    using C = DeploymentsController;
    static const ControllerRoute<C> kRoutes[] = {
        {"POST", "/deploy", &C::create, RouteAccess::ApiKey, RouteBody::Files},
        {"GET", "/deploys", &C::list},
        {"GET", "/deploy/:id", &C::get},
        {"PUT", "/deploy/:id", &C::update, RouteAccess::ApiKey, RouteBody::Files},
        {"DELETE", "/deploy/:id", &C::remove},
        {"PATCH", "/deploy/:id/slug", &C::rename},
    };
    router.addRoutes(this, kRoutes);
}

void DeploymentsController::create(ApiCall &call)
{
    // Parsing, decoding and storing run on a worker; the answer is written on the connection's thread.
    (call.request.bodyStream ? ArchiveUpload::create(m_service, call)
                             : m_service.createFromJson(call.user, call.request.body))
        .then(call.sink.context(), [sink = call.sink, this](Result<Deployment> result) {
            sink.send(result ? HttpResponse::json(200, changed(result.value())) : deployErrorResponse(result.error()));
        });
}

void DeploymentsController::update(ApiCall &call)
{
    (call.request.bodyStream ? ArchiveUpload::update(m_service, call)
                             : m_service.updateFromJson(call.user, call.params.at(0), call.request.body))
        .then(call.sink.context(), [sink = call.sink, this](Result<Deployment> result) {
            if (result && result.value().preparedVersion > 0) { // "publish": false: stored, not live
                const Deployment &prepared = result.value();
                sink.send(HttpResponse::json(200,
                    {{u"id"_s, prepared.id}, {u"slug"_s, prepared.slug}, {u"version"_s, prepared.preparedVersion},
                        {u"url"_s, m_addresses.versionUrl(prepared.slug, prepared.preparedVersion)},
                        {u"live"_s, false}}));
                return;
            }
            sink.send(result ? HttpResponse::json(200, changed(result.value())) : deployErrorResponse(result.error()));
        });
}

void DeploymentsController::get(ApiCall &call)
{
    const auto result = m_service.get(call.user, call.params.at(0));
    if (!result) {
        call.sink.send(errorResponse(result.error()));
        return;
    }
    QJsonObject object = DeploymentJson::full(result.value(), m_addresses);
    object.insert(u"domains"_s, DeploymentJson::domains(m_domains.namesOf(result.value().id), m_domains));
    call.sink.send(HttpResponse::json(200, object));
}

void DeploymentsController::rename(ApiCall &call)
{
    const auto body = JsonBody::parseObject(call.request.body);
    if (!body) {
        call.sink.send(errorResponse(body.error()));
        return;
    }
    const QJsonValue slug = body.value().value(u"slug"_s);
    if (slug.isUndefined() || slug.isNull()) {
        call.sink.send(HttpResponse::jsonError(400, u"slug is required"_s));
        return;
    }
    if (!slug.isString()) {
        call.sink.send(HttpResponse::jsonError(400, u"\"slug\" must be a string"_s));
        return;
    }
    const auto result = m_service.rename(call.user, call.params.at(0), slug.toString());
    call.sink.send(result ? HttpResponse::json(200, DeploymentJson::summary(result.value(), m_addresses))
                          : errorResponse(result.error()));
}

void DeploymentsController::remove(ApiCall &call)
{
    const auto result = m_service.remove(call.user, call.params.at(0));
    if (!result) {
        call.sink.send(errorResponse(result.error()));
        return;
    }
    call.sink.send(HttpResponse::json(
        200, {{u"id"_s, result.value().id}, {u"message"_s, u"Deployment %1 deleted"_s.arg(result.value().slug)}}));
}

QJsonObject DeploymentsController::changed(const Deployment &deployment) const
{
    QJsonObject object = DeploymentJson::summary(deployment, m_addresses);
    if (const QStringList names = m_domains.namesOf(deployment.id); !names.isEmpty())
        object.insert(u"domains"_s, DeploymentJson::domains(names, m_domains));
    return object;
}

void DeploymentsController::list(ApiCall &call)
{
    call.sink.send(HttpResponse::bytes(200, QByteArrayLiteral("application/json"),
        DeploymentJson::listBody(m_service.listing(call.user), m_addresses)));
}

} // namespace berth
