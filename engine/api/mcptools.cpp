#include "api/mcptools.h"

#include "api/openapitext.h"

#include <QJsonDocument>
#include <QRegularExpression>
#include <QUrl>
#include <cmath>

using namespace Qt::StringLiterals;

namespace berth::McpTools {

namespace {

// The schema with every {"$ref": "#/components/schemas/X"} replaced by X itself: an MCP client reads an output
// schema on its own, without the OpenAPI document around it.
QJsonValue inlined(const QJsonValue &value, const QJsonObject &components)
{
    if (value.isArray()) {
        QJsonArray array;
        for (const QJsonValue &item : value.toArray())
            array.append(inlined(item, components));
        return array;
    }
    if (!value.isObject())
        return value;
    const QJsonObject object = value.toObject();
    if (const QString ref = object.value(u"$ref"_s).toString(); !ref.isEmpty())
        return inlined(components.value(ref.section(u'/', -1)), components);
    QJsonObject result;
    for (auto it = object.constBegin(); it != object.constEnd(); ++it)
        result.insert(it.key(), inlined(it.value(), components));
    return result;
}

// The schema of an argument that goes into the API's path, which a call must fit before any path is built: the
// shape of a deployment's id or of a slug (domain/deploy/slugrules.h), a submission's or a webhook's id. None can hold
// a '/', '?', '%' or dot segment, so none can name another route.
QJsonObject pathArgumentSchema(const QString &name)
{
    if (name == u"submission_id")
        return {{u"type"_s, u"string"_s}, {u"pattern"_s, u"^sub_[0-9A-Za-z]{1,40}$"_s},
            {u"description"_s, u"The submission id (sub_...)."_s}};
    if (name == u"webhook_id")
        return {{u"type"_s, u"string"_s}, {u"pattern"_s, u"^wh_[0-9A-Za-z]{1,40}$"_s},
            {u"description"_s, u"The webhook id (wh_...)."_s}};
    if (name == u"link_id")
        return {{u"type"_s, u"string"_s}, {u"pattern"_s, u"^lnk_[0-9A-Za-z]{1,40}$"_s},
            {u"description"_s, u"The share link's id (lnk_...)."_s}};
    return {{u"type"_s, u"string"_s}, {u"pattern"_s, u"^(dep_[0-9A-Za-z]{1,40}|[a-z0-9]+(-[a-z0-9]+)+)$"_s},
        {u"maxLength"_s, 63}, {u"description"_s, u"The deployment id (dep_...)."_s}};
}

// The input schema with every argument the path names ({id}) held to pathArgumentSchema().
QJsonObject inputSchema(const QJsonObject &input, const QString &path)
{
    static const QRegularExpression kPlaceholder(u"\\{([a-z_]+)\\}"_s);
    QJsonObject properties = input.value(u"properties"_s).toObject();
    for (const QRegularExpressionMatch &match : kPlaceholder.globalMatch(path)) {
        const QString name = match.captured(1);
        QJsonObject schema = pathArgumentSchema(name);
        if (const QJsonValue description = properties.value(name)[u"description"_s]; description.isString())
            schema.insert(u"description"_s, description);
        properties.insert(name, schema);
    }
    QJsonObject result = input;
    result.insert(u"properties"_s, properties);
    return result;
}

QList<Tool> parseTools()
{
    const QJsonObject components = QJsonDocument::fromJson(OpenApiText::components()).object();
    QList<Tool> tools;
    for (const QJsonValue &value : QJsonDocument::fromJson(toolText()).array()) {
        const QJsonObject entry = value.toObject();
        Tool tool;
        tool.name = entry.value(u"name"_s).toString();
        tool.call = entry.value(u"call"_s).toObject();
        tool.definition = {{u"name"_s, tool.name}, {u"title"_s, entry.value(u"title"_s)},
            {u"description"_s, entry.value(u"description"_s)},
            {u"inputSchema"_s, inputSchema(entry.value(u"input"_s).toObject(), tool.call.value(u"path"_s).toString())},
            {u"outputSchema"_s, inlined(components.value(entry.value(u"output"_s).toString()), components)},
            {u"annotations"_s, entry.value(u"annotations"_s)}};
        tools.append(tool);
    }
    return tools;
}

// A whole number that a double holds exactly (|n| <= 2^53; JSON's numbers are doubles). Compared without converting
// first: converting a number beyond qint64's range is undefined behaviour (the mcpmessage fuzz target found -1.1e27).
bool isWholeNumber(double number)
{
    constexpr double kLargestExact = 9007199254740992.0; // 2^53
    return std::isfinite(number) && std::trunc(number) == number && std::fabs(number) <= kLargestExact;
}

bool hasType(const QJsonValue &value, const QString &type)
{
    if (type == u"string"_s)
        return value.isString();
    if (type == u"boolean"_s)
        return value.isBool();
    if (type == u"integer"_s)
        return value.isDouble() && isWholeNumber(value.toDouble());
    if (type == u"number"_s)
        return value.isDouble();
    if (type == u"array"_s)
        return value.isArray();
    if (type == u"object"_s)
        return value.isObject();
    return true;
}

QString article(const QString &type)
{
    return (type == u"integer"_s || type == u"array"_s || type == u"object"_s ? u"an "_s : u"a "_s) + type;
}

// The subset of JSON Schema the tool table uses: type, required, properties, additionalProperties: false, items,
// enum, minimum, maximum, maxLength, pattern.
QString check(const QJsonObject &schema, const QJsonValue &value, const QString &where)
{
    const QString type = schema.value(u"type"_s).toString();
    if (!type.isEmpty() && !hasType(value, type))
        return u"\"%1\" must be %2"_s.arg(where, article(type));
    if (const QJsonArray options = schema.value(u"enum"_s).toArray(); !options.isEmpty() && !options.contains(value))
        return u"\"%1\" must be one of: %2"_s.arg(
            where, QString::fromUtf8(QJsonDocument(options).toJson(QJsonDocument::Compact)));
    if (schema.contains(u"minimum"_s) && value.toDouble() < schema.value(u"minimum"_s).toDouble())
        return u"\"%1\" must be at least %2"_s.arg(where).arg(schema.value(u"minimum"_s).toDouble());
    if (schema.contains(u"maximum"_s) && value.toDouble() > schema.value(u"maximum"_s).toDouble())
        return u"\"%1\" must be at most %2"_s.arg(where).arg(schema.value(u"maximum"_s).toDouble());
    if (schema.contains(u"maxLength"_s) && value.toString().size() > schema.value(u"maxLength"_s).toInt())
        return u"\"%1\" must be at most %2 characters"_s.arg(where).arg(schema.value(u"maxLength"_s).toInt());
    // The table's patterns are whole-value ones (^...$); anchored so that, as in JSON Schema, "$" does not also
    // match before a final newline as it does in PCRE.
    if (const QString pattern = schema.value(u"pattern"_s).toString(); !pattern.isEmpty()
        && !QRegularExpression(QRegularExpression::anchoredPattern(pattern)).match(value.toString()).hasMatch())
        return u"\"%1\" must match %2"_s.arg(where, pattern);
    if (value.isArray()) {
        const QJsonArray array = value.toArray();
        for (qsizetype i = 0; i < array.size(); ++i) {
            if (QString error = check(schema.value(u"items"_s).toObject(), array.at(i), u"%1[%2]"_s.arg(where).arg(i));
                !error.isEmpty())
                return error;
        }
    }
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        const QJsonObject properties = schema.value(u"properties"_s).toObject();
        const QString prefix = where.isEmpty() ? QString() : where + u'.';
        for (const QJsonValue &name : schema.value(u"required"_s).toArray()) {
            if (!object.contains(name.toString()))
                return u"\"%1\" is required"_s.arg(prefix + name.toString());
        }
        for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
            if (!properties.contains(it.key())) {
                if (schema.value(u"additionalProperties"_s) == QJsonValue(false))
                    return u"unknown argument \"%1\""_s.arg(prefix + it.key());
                continue;
            }
            if (QString error = check(properties.value(it.key()).toObject(), it.value(), prefix + it.key());
                !error.isEmpty())
                return error;
        }
    }
    return {};
}

} // namespace

const QList<Tool> &tools()
{
    static const QList<Tool> table = parseTools();
    return table;
}

const Tool *find(const QString &name)
{
    for (const Tool &tool : tools()) {
        if (tool.name == name)
            return &tool;
    }
    return nullptr;
}

QJsonArray listing()
{
    QJsonArray array;
    for (const Tool &tool : tools())
        array.append(tool.definition);
    return array;
}

QString validate(const Tool &tool, const QJsonObject &arguments)
{
    const QString error = check(tool.definition.value(u"inputSchema"_s).toObject(), arguments, QString());
    return error.isEmpty() ? error : u"Invalid arguments for %1: %2"_s.arg(tool.name, error);
}

ApiRequest apiRequest(const Tool &tool, const QJsonObject &arguments)
{
    ApiRequest request;
    request.method = tool.call.value(u"method"_s).toString().toLatin1();
    QJsonObject body = arguments;
    QString path = tool.call.value(u"path"_s).toString();
    for (auto it = arguments.constBegin(); it != arguments.constEnd(); ++it) {
        const QString placeholder = u'{' + it.key() + u'}';
        if (path.contains(placeholder)) {
            path.replace(placeholder, QString::fromLatin1(QUrl::toPercentEncoding(it.value().toString())));
            body.remove(it.key());
        }
    }
    request.path = path;
    // Every byte but the unreserved ones percent-encoded: QUrlQuery would leave '+', which a form decoder (Berth's
    // too) reads as a space.
    QByteArrayList query;
    for (const QJsonValue &name : tool.call.value(u"query"_s).toArray()) {
        const QJsonValue value = body.take(name.toString());
        if (!value.isUndefined())
            query.append(QUrl::toPercentEncoding(name.toString()) + '='
                + QUrl::toPercentEncoding(value.isDouble() ? QString::number(value.toInteger()) : value.toString()));
    }
    request.query = query.join('&');
    const QJsonObject rename = tool.call.value(u"rename"_s).toObject();
    for (auto it = rename.constBegin(); it != rename.constEnd(); ++it) {
        if (body.contains(it.key()))
            body.insert(it.value().toString(), body.take(it.key()));
    }
    if (request.method != "GET" && request.method != "DELETE")
        request.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
    return request;
}

} // namespace berth::McpTools
