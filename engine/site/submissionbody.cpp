#include "site/submissionbody.h"

#include "http/formencoding.h"
#include "http/multipartform.h"
#include "storage/orderedjson.h"
#include "web/jsonbody.h"

#include <QHash>
#include <QJsonArray>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

Error badRequest(const QString &message)
{
    return {Error::Kind::BadRequest, message};
}

// Form fields in arrival order; a repeated name (checkboxes, multi-selects) collects its values in an array. Values
// are gathered first and the object built once: adding to a stored array would copy it per repeat (quadratic).
class FieldCollector final
{
public:
    void add(const QString &name, const QString &value)
    {
        auto it = m_values.find(name);
        if (it == m_values.end()) {
            it = m_values.insert(name, {});
            m_order.append(name);
        }
        it->append(value);
    }
    const QStringList &order() const { return m_order; }
    QJsonObject toObject() const
    {
        QJsonObject object;
        for (auto it = m_values.cbegin(); it != m_values.cend(); ++it)
            object.insert(it.key(), it->size() == 1 ? QJsonValue(it->constFirst()) : QJsonArray::fromStringList(*it));
        return object;
    }

private:
    QHash<QString, QStringList> m_values;
    QStringList m_order;
};

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
        parsed.order = OrderedJson::keys(body);
        parsed.isJson = true;
    } else if (mediaType == "application/x-www-form-urlencoded") {
        FieldCollector collected;
        for (const auto &[name, value] : parseUrlEncoded(body))
            collected.add(name, value);
        parsed.fields = collected.toObject();
        parsed.order = collected.order();
    } else if (mediaType == "multipart/form-data") {
        const auto parts = parseMultipartForm(contentType, body);
        if (!parts)
            return badRequest(u"Malformed multipart/form-data body"_s);
        FieldCollector collected;
        for (const MultipartPart &part : *parts) {
            if (part.isFile)
                return badRequest(u"File uploads are not accepted"_s);
            collected.add(part.name, QString::fromUtf8(part.content));
        }
        parsed.fields = collected.toObject();
        parsed.order = collected.order();
    } else {
        return badRequest(u"Unsupported Content-Type: send application/json, application/x-www-form-urlencoded "
                          "or multipart/form-data"_s);
    }
    return parsed;
}

} // namespace berth
