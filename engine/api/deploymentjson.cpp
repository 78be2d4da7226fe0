#include "api/deploymentjson.h"

#include "domain/common/clock.h"
#include "domain/deploy/customdomainservice.h"
#include "domain/siterules/siteaddresses.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace berth::DeploymentJson {

namespace {

QJsonValue expiresAt(const QDateTime &time) // null: never
{
    return time.isValid() ? QJsonValue(isoTimestamp(time)) : QJsonValue(QJsonValue::Null);
}

} // namespace

QJsonObject summary(const Deployment &deployment, const SiteAddresses &addresses)
{
    QJsonObject object {
        {u"id"_s, deployment.id},
        {u"slug"_s, deployment.slug},
        {u"url"_s, addresses.siteUrl(deployment.slug)},
    };
    if (deployment.isProtected)
        object.insert(u"share_url"_s, addresses.shareUrl(deployment.slug, deployment.shareToken));
    if (deployment.expiresAt.isValid())
        object.insert(u"expires_at"_s, isoTimestamp(deployment.expiresAt));
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
    object.insert(u"expires_at"_s, expiresAt(deployment.expiresAt));
    return object;
}

QJsonArray domains(const QStringList &names, const CustomDomainService &service)
{
    QJsonArray array;
    for (const QString &name : names) {
        const DomainCertificate certificate = service.certificate(name);
        array.append(QJsonObject {
            {u"name"_s, name},
            {u"certificate"_s,
                QJsonObject {
                    {u"status"_s, certificate.status},
                    {u"expires_at"_s, expiresAt(certificate.expiresAt)},
                    {u"error"_s,
                        certificate.error.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(certificate.error)},
                }},
        });
    }
    return array;
}

namespace {

// A JSON string as QJsonDocument writes it: the two characters that must be escaped and the control characters
// escaped, everything else as UTF-8.
void appendString(QByteArray &out, const QString &text)
{
    static constexpr char kHex[] = "0123456789abcdef";
    out += '"';
    qsizetype plainFrom = 0;
    const auto flushPlain = [&](qsizetype to) {
        if (to > plainFrom)
            out += QStringView(text).sliced(plainFrom, to - plainFrom).toUtf8();
    };
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char16_t c = text.at(i).unicode();
        if (c >= 0x20 && c != u'"' && c != u'\\')
            continue;
        flushPlain(i);
        plainFrom = i + 1;
        switch (c) {
        case u'"':
            out += "\\\"";
            break;
        case u'\\':
            out += "\\\\";
            break;
        case u'\b':
            out += "\\b";
            break;
        case u'\f':
            out += "\\f";
            break;
        case u'\n':
            out += "\\n";
            break;
        case u'\r':
            out += "\\r";
            break;
        case u'\t':
            out += "\\t";
            break;
        default:
            out += "\\u00";
            out += kHex[c >> 4];
            out += kHex[c & 0xf];
        }
    }
    flushPlain(text.size());
    out += '"';
}

} // namespace

QByteArray listBody(const QList<DeploymentListing> &deployments, const SiteAddresses &addresses)
{
    QByteArray out;
    out.reserve(32 + deployments.size() * 160);
    out += "{\"deployments\":[";
    bool first = true;
    for (const DeploymentListing &deployment : deployments) {
        out += first ? "{\"expires_at\":" : ",{\"expires_at\":";
        first = false;
        if (deployment.expiresAt.isValid())
            appendString(out, isoTimestamp(deployment.expiresAt));
        else
            out += "null";
        out += ",\"id\":";
        appendString(out, deployment.id);
        out += ",\"slug\":";
        appendString(out, deployment.slug);
        out += ",\"title\":";
        appendString(out, deployment.title);
        out += ",\"updated_at\":";
        appendString(out, isoTimestamp(deployment.updatedAt));
        out += ",\"url\":";
        appendString(out, addresses.siteUrl(deployment.slug));
        out += '}';
    }
    out += "]}";
    return out;
}

} // namespace berth::DeploymentJson
