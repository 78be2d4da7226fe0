#include "submissionbody.h"

#include "api/jsonbody.h"
#include "http/formencoding.h"
#include "http/multipartform.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

Error badRequest(const QString &message) { return {Error::Kind::BadRequest, message}; }

// Adds a form field; a repeated name (checkboxes, multi-selects) collects its values in an array.
void addField(QJsonObject &fields, const QString &name, const QString &value)
{
    const auto existing = fields.constFind(name);
    if (existing == fields.constEnd()) {
        fields.insert(name, value);
        return;
    }
    QJsonArray values = existing->isArray() ? existing->toArray() : QJsonArray{*existing};
    values.append(value);
    fields.insert(name, values);
}

} // namespace

Result<SubmissionBody> SubmissionBody::parse(const QByteArray &contentType, const QByteArray &body)
{
    const QByteArray mediaType = contentType.split(';').constFirst().trimmed().toLower();
    SubmissionBody parsed;
    if (mediaType == "application/json") {
        if (body.trimmed().isEmpty())
            return badRequest(u"Submission is empty"_s);
        auto object = JsonBody::parseObject(body);
        if (!object)
            return object.error();
        parsed.fields = object.value();
        parsed.isJson = true;
    } else if (mediaType == "application/x-www-form-urlencoded") {
        for (const auto &[name, value] : parseUrlEncoded(body))
            addField(parsed.fields, name, value);
    } else if (mediaType == "multipart/form-data") {
        const auto parts = parseMultipartForm(contentType, body);
        if (!parts)
            return badRequest(u"Malformed multipart/form-data body"_s);
        for (const MultipartPart &part : *parts) {
            if (part.isFile)
                return badRequest(u"File uploads are not accepted"_s);
            addField(parsed.fields, part.name, QString::fromUtf8(part.content));
        }
    } else {
        return badRequest(u"Unsupported Content-Type: send application/json, application/x-www-form-urlencoded "
                          "or multipart/form-data"_s);
    }
    return parsed;
}

} // namespace berth
