#include "deploymentjson.h"

#include "domain/clock.h"
#include "domain/siteaddresses.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace berth::DeploymentJson {

QJsonObject summary(const Deployment &deployment, const SiteAddresses &addresses)
{
    QJsonObject object {
        {u"id"_s, deployment.id},
        {u"slug"_s, deployment.slug},
        {u"url"_s, addresses.siteUrl(deployment.slug)},
    };
    if (deployment.isProtected)
        object.insert(u"share_url"_s, addresses.shareUrl(deployment.slug, deployment.shareToken));
    if (!deployment.warnings.isEmpty())
        object.insert(u"warnings"_s, QJsonArray::fromStringList(deployment.warnings));
    return object;
}

QJsonObject full(const Deployment &deployment, const SiteAddresses &addresses)
{
    QJsonObject object = summary(deployment, addresses);
    object.insert(u"status"_s, u"active"_s);
    object.insert(u"storage_type"_s, deployment.storageType);
    object.insert(u"is_spa"_s, deployment.isSpa);
    object.insert(u"title"_s, deployment.title);
    object.insert(u"description"_s,
        deployment.description.isNull() ? QJsonValue(QJsonValue::Null) : QJsonValue(deployment.description));
    object.insert(u"favicon"_s, deployment.favicon);
    object.insert(u"og_image"_s, deployment.ogImage);
    object.insert(u"protected"_s, deployment.isProtected);
    object.insert(u"has_password"_s, !deployment.passwordHash.isEmpty());
    object.insert(u"created_at"_s, isoTimestamp(deployment.createdAt));
    object.insert(u"updated_at"_s, isoTimestamp(deployment.updatedAt));
    return object;
}

QJsonObject listEntry(const Deployment &deployment, const SiteAddresses &addresses)
{
    return {
        {u"id"_s, deployment.id},
        {u"slug"_s, deployment.slug},
        {u"url"_s, addresses.siteUrl(deployment.slug)},
        {u"title"_s, deployment.title},
        {u"updated_at"_s, isoTimestamp(deployment.updatedAt)},
    };
}

} // namespace berth::DeploymentJson
