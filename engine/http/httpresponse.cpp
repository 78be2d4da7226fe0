#include "http/httpresponse.h"

#include <QJsonDocument>

namespace berth {

void HttpResponse::setHeader(const QByteArray &name, const QByteArray &value)
{
    headers.removeIf([&name](const auto &field) { return sameHeaderName(field.first, name); });
    headers.append({name, value});
}

QByteArray HttpResponse::header(QByteArrayView name) const
{
    for (const auto &field : headers) {
        if (sameHeaderName(field.first, name))
            return field.second;
    }
    return {};
}

HttpResponse HttpResponse::json(int status, const QJsonObject &object)
{
    return bytes(status, QByteArrayLiteral("application/json"), QJsonDocument(object).toJson(QJsonDocument::Compact));
}

HttpResponse HttpResponse::jsonError(int status, const QString &message)
{
    return json(status, QJsonObject {{QStringLiteral("error"), message}});
}

HttpResponse HttpResponse::bytes(int status, const QByteArray &contentType, const QByteArray &body)
{
    HttpResponse response;
    response.status = status;
    response.headers.append({QByteArrayLiteral("Content-Type"), contentType});
    response.body = body;
    return response;
}

} // namespace berth
