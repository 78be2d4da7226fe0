#include "api/sharelinkscontroller.h"

#include "domain/common/clock.h"
#include "domain/deploy/deploymentservice.h"
#include "domain/deploy/expiryrules.h"
#include "domain/sharing/sharelinkservice.h"
#include "domain/siterules/siteaddresses.h"
#include "web/apierror.h"
#include "web/jsonbody.h"

#include <QJsonArray>
#include <cmath>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

QString stateName(ShareLinkState state)
{
    switch (state) {
    case ShareLinkState::Expired:
        return u"expired"_s;
    case ShareLinkState::Exhausted:
        return u"exhausted"_s;
    case ShareLinkState::Revoked:
        return u"revoked"_s;
    case ShareLinkState::Open:
        break;
    }
    return u"active"_s;
}

QJsonValue timeOrNull(const QDateTime &time)
{
    return time.isValid() ? QJsonValue(isoTimestamp(time)) : QJsonValue(QJsonValue::Null);
}

// The body of POST /deploy/:id/links: label, expires_at or expires_in, max_opens; all optional.
Result<ShareLinkRequest> parseRequest(const QByteArray &body)
{
    ShareLinkRequest request;
    if (body.trimmed().isEmpty())
        return request;
    const Result<QJsonObject> object = JsonBody::parseObject(body);
    if (!object)
        return object.error();
    const QJsonValue label = object.value().value(u"label"_s);
    if (!label.isUndefined() && !label.isNull() && !label.isString())
        return Error {Error::Kind::BadRequest, u"label must be a string"_s};
    request.label = label.toString().trimmed();
    DeployRequest timing;
    if (const Result<void> parsed = ExpiryRules::parse(object.value(), timing); !parsed)
        return parsed.error();
    request.expiresAt = timing.expiresAt;
    request.expiresIn = timing.expiresIn;
    const QJsonValue maxOpens = object.value().value(u"max_opens"_s);
    if (!maxOpens.isUndefined() && !maxOpens.isNull()) {
        const double count = maxOpens.toDouble(-1);
        if (!maxOpens.isDouble() || count < 1 || count > ShareLinkService::kMaxOpensLimit || count != std::floor(count))
            return Error {Error::Kind::BadRequest,
                u"max_opens must be a whole number from 1 to %1"_s.arg(ShareLinkService::kMaxOpensLimit)};
        request.maxOpens = int(count);
    }
    return request;
}

} // namespace

ShareLinksController::ShareLinksController(
    ShareLinkService &links, const DeploymentService &deployments, const SiteAddresses &addresses)
    : m_links(links)
    , m_deployments(deployments)
    , m_addresses(addresses)
{
}

void ShareLinksController::registerRoutes(ApiRouter &router)
{
    static const ControllerRoute<ShareLinksController> kRoutes[] = {
        {"POST", "/deploy/:id/links", &ShareLinksController::create},
        {"GET", "/deploy/:id/links", &ShareLinksController::list},
        {"DELETE", "/deploy/:id/links/:link_id", &ShareLinksController::revoke},
    };
    router.addRoutes(this, kRoutes);
}

QJsonObject ShareLinksController::toJson(const ShareLinkView &view)
{
    const ShareLink &link = view.link;
    QJsonObject object {
        {u"id"_s, link.id},
        {u"label"_s, link.label},
        {u"created_at"_s, isoTimestamp(link.createdAt)},
        {u"expires_at"_s, timeOrNull(link.expiresAt)},
        {u"max_opens"_s, link.maxOpens > 0 ? QJsonValue(link.maxOpens) : QJsonValue(QJsonValue::Null)},
        {u"opens"_s, link.opens},
        {u"last_opened_at"_s, timeOrNull(link.lastOpenedAt)},
        {u"status"_s, stateName(view.state)},
    };
    if (!view.url.isEmpty())
        object.insert(u"url"_s, view.url);
    return object;
}

void ShareLinksController::create(ApiCall &call)
{
    const Result<ShareLinkRequest> request = parseRequest(call.request.body);
    const auto created = request ? m_links.create(call.user, call.params.at(0), request.value())
                                 : Result<ShareLinkView>(request.error());
    call.sink.send(created ? HttpResponse::json(200, toJson(created.value())) : errorResponse(created.error()));
}

void ShareLinksController::list(ApiCall &call)
{
    const QString id = call.params.at(0);
    const Result<Deployment> deployment = m_deployments.get(call.user, id);
    const auto links = deployment ? m_links.list(call.user, id) : Result<QList<ShareLinkView>>(deployment.error());
    if (!links) {
        call.sink.send(errorResponse(links.error()));
        return;
    }
    QJsonArray entries;
    for (const ShareLinkView &view : links.value())
        entries.append(toJson(view));
    QJsonObject answer {{u"id"_s, id}, {u"links"_s, entries}};
    // The site's own link, which every visitor holding it shares; it changes only with the site's protection.
    if (deployment.value().isProtected)
        answer.insert(u"share_url"_s, m_addresses.shareUrl(deployment.value().slug, deployment.value().shareToken));
    call.sink.send(HttpResponse::json(200, answer));
}

void ShareLinksController::revoke(ApiCall &call)
{
    const auto revoked = m_links.revoke(call.user, call.params.at(0), call.params.at(1));
    call.sink.send(revoked ? HttpResponse::json(200, toJson(revoked.value())) : errorResponse(revoked.error()));
}

} // namespace berth
