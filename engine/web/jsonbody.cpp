#include "web/jsonbody.h"

#include <QJsonDocument>
#include <QJsonParseError>

using namespace Qt::StringLiterals;

namespace berth::JsonBody {

Result<QJsonObject> parseObject(const QByteArray &body)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return Error {Error::Kind::BadRequest, u"Malformed JSON: "_s + parseError.errorString()};
    if (!document.isObject())
        return Error {Error::Kind::BadRequest, u"Request body must be a JSON object"_s};
    return document.object();
}

} // namespace berth::JsonBody
