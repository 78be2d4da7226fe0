#include "domain/acme/acmejws.h"

#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace berth {

Result<QByteArray> acmeJws(const AcmeKey &key, const QString &kid, const QString &url, const QByteArray &nonce,
    const std::optional<QJsonObject> &payload)
{
    QJsonObject header {{u"alg"_s, u"ES256"_s}, {u"nonce"_s, QString::fromLatin1(nonce)}, {u"url"_s, url}};
    if (kid.isEmpty())
        header.insert(u"jwk"_s, key.jwk());
    else
        header.insert(u"kid"_s, kid);
    const QByteArray protectedPart = base64Url(QJsonDocument(header).toJson(QJsonDocument::Compact));
    const QByteArray payloadPart = payload ? base64Url(QJsonDocument(*payload).toJson(QJsonDocument::Compact)) : "";
    const Result<QByteArray> signature = key.signEs256(protectedPart + '.' + payloadPart);
    if (!signature)
        return signature.error();
    const QJsonObject body {{u"protected"_s, QString::fromLatin1(protectedPart)},
        {u"payload"_s, QString::fromLatin1(payloadPart)},
        {u"signature"_s, QString::fromLatin1(base64Url(signature.value()))}};
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

} // namespace berth
