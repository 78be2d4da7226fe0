#include "api/openapidocument.h"

#include "api/archiveupload.h"
#include "api/openapitext.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace berth::OpenApiDocument {

namespace {

QJsonObject parsed(const QByteArray &text)
{
    return QJsonDocument::fromJson(text).object(); // malformed text gives an empty object: tst_openapi fails on it
}

const QJsonObject &operationTable()
{
    static const QJsonObject table = parsed(OpenApiText::operations());
    return table;
}

QString keyOf(const ApiRouter::RouteInfo &route)
{
    return QString::fromLatin1(route.method) + u' ' + route.pattern;
}

QJsonObject ref(const QString &schema)
{
    return {{u"$ref"_s, u"#/components/schemas/"_s + schema}};
}

QJsonObject jsonContent(const QString &schema)
{
    return {{u"application/json"_s, QJsonObject {{u"schema"_s, ref(schema)}}}};
}

// A route that also takes a deployment's files as a tar archive: its bytes, the other fields in the query string.
void addArchiveContent(QJsonObject &content)
{
    for (const QByteArray &type : ArchiveUpload::mediaTypes()) {
        content.insert(QString::fromLatin1(type),
            QJsonObject {{u"schema"_s,
                QJsonObject {{u"type"_s, u"string"_s}, {u"contentMediaType"_s, QString::fromLatin1(type)}}}});
    }
}

// One response per status, with every text the API sends under it as a named example.
QJsonObject errorResponse(const QJsonArray &texts)
{
    QJsonObject examples;
    QStringList descriptions;
    for (qsizetype i = 0; i < texts.size(); ++i) {
        const QString text = texts.at(i).toString();
        examples.insert(u"e%1"_s.arg(i + 1), QJsonObject {{u"value"_s, QJsonObject {{u"error"_s, text}}}});
        descriptions.append(u"`"_s + text + u'`');
    }
    return {{u"description"_s, descriptions.join(u"; "_s)},
        {u"content"_s,
            QJsonObject {
                {u"application/json"_s, QJsonObject {{u"schema"_s, ref(u"Error"_s)}, {u"examples"_s, examples}}}}}};
}

// What every 401 carries besides its body (RFC 6750; docs/auth-and-keys.md).
QJsonObject unauthorizedHeaders()
{
    return {{u"WWW-Authenticate"_s,
        QJsonObject {{u"description"_s,
                         u"Bearer realm=\"berth\"; when a key was sent and refused, also error=\"invalid_request\" "
                         "(the header is not \"Bearer <API key>\") or error=\"invalid_token\" (unknown, revoked or "
                         "expired key) and an error_description."_s},
            {u"schema"_s, QJsonObject {{u"type"_s, u"string"_s}}}}}};
}

QJsonObject successResponse(const QJsonObject &ok)
{
    if (ok.value(u"empty"_s).toBool())
        return {{u"description"_s, u"Done; no body."_s}};
    QJsonObject content;
    if (ok.contains(u"schema"_s))
        content = jsonContent(ok.value(u"schema"_s).toString());
    if (ok.value(u"html"_s).toBool() || ok.value(u"alsoHtml"_s).toBool())
        content.insert(u"text/html"_s, QJsonObject {{u"schema"_s, QJsonObject {{u"type"_s, u"string"_s}}}});
    if (ok.value(u"text"_s).toBool())
        content.insert(u"text/plain"_s, QJsonObject {{u"schema"_s, QJsonObject {{u"type"_s, u"string"_s}}}});
    if (ok.value(u"alsoCsv"_s).toBool())
        content.insert(u"text/csv"_s, QJsonObject {{u"schema"_s, QJsonObject {{u"type"_s, u"string"_s}}}});
    return {{u"description"_s, u"OK"_s}, {u"content"_s, content}};
}

QJsonObject operation(const ApiRouter::RouteInfo &route, const QJsonObject &described)
{
    QJsonObject op;
    const QString key = keyOf(route);
    QString id = key.toLower();
    for (QChar &c : id) {
        if (!c.isLetterOrNumber())
            c = u'_';
    }
    op.insert(u"operationId"_s, id);
    op.insert(u"summary"_s, described.value(u"summary"_s).toString(key));
    if (described.contains(u"description"_s))
        op.insert(u"description"_s, described.value(u"description"_s));
    if (described.contains(u"tag"_s))
        op.insert(u"tags"_s, QJsonArray {described.value(u"tag"_s)});

    QJsonArray parameters;
    for (const QString &segment : route.pattern.split(u'/', Qt::SkipEmptyParts)) {
        if (segment.startsWith(u':'))
            parameters.append(QJsonObject {{u"name"_s, segment.mid(1)}, {u"in"_s, u"path"_s}, {u"required"_s, true},
                {u"schema"_s, QJsonObject {{u"type"_s, u"string"_s}}}});
    }
    for (const QJsonValue &query : described.value(u"query"_s).toArray()) {
        QJsonObject parameter = query.toObject();
        parameter.insert(u"in"_s, u"query"_s);
        if (!parameter.contains(u"schema"_s))
            parameter.insert(u"schema"_s, QJsonObject {{u"type"_s, u"string"_s}});
        parameters.append(parameter);
    }
    if (!parameters.isEmpty())
        op.insert(u"parameters"_s, parameters);
    if (const QString body = described.value(u"body"_s).toString(); !body.isEmpty()) {
        QJsonObject content = jsonContent(body);
        if (route.body == RouteBody::Files)
            addArchiveContent(content);
        op.insert(u"requestBody"_s,
            QJsonObject {
                {u"required"_s, route.method != "POST" || body != u"NewKeyRequest"_s}, {u"content"_s, content}});
    }

    const QJsonObject ok = described.value(u"ok"_s).toObject();
    QJsonObject responses {{ok.value(u"status"_s).toString(u"200"_s), successResponse(ok)}};
    if (ok.value(u"accepted"_s).toBool())
        responses.insert(
            u"202"_s, QJsonObject {{u"description"_s, u"Accepted: only notifications or responses; no body."_s}});
    QJsonObject errors = described.value(u"errors"_s).toObject();
    if (route.access == RouteAccess::ApiKey) {
        // Every keyed route: no live key, or the key's requests per minute used up.
        errors.insert(u"401"_s, QJsonArray {u"Unauthorized"_s});
        errors.insert(u"429"_s, QJsonArray {u"Rate limit exceeded"_s});
    } else {
        op.insert(u"security"_s, QJsonArray()); // public: no key needed
    }
    for (auto it = errors.constBegin(); it != errors.constEnd(); ++it) {
        QJsonObject response = errorResponse(it.value().toArray());
        if (it.key() == u"401"_s)
            response.insert(u"headers"_s, unauthorizedHeaders());
        responses.insert(it.key(), response);
    }
    op.insert(u"responses"_s, responses);
    return op;
}

} // namespace

QString openApiPath(const QString &pattern)
{
    QStringList segments = pattern.split(u'/');
    for (QString &segment : segments) {
        if (segment.startsWith(u':'))
            segment = u'{' + segment.mid(1) + u'}';
    }
    return segments.join(u'/');
}

QJsonObject build(const QList<ApiRouter::RouteInfo> &routes, const QString &baseUrl, const QString &version)
{
    QJsonObject paths;
    for (const ApiRouter::RouteInfo &route : routes) {
        const QString path = openApiPath(route.pattern);
        QJsonObject item = paths.value(path).toObject();
        item.insert(QString::fromLatin1(route.method).toLower(),
            operation(route, operationTable().value(keyOf(route)).toObject()));
        paths.insert(path, item);
    }
    return {
        {u"openapi"_s, u"3.1.0"_s},
        {u"info"_s,
            QJsonObject {{u"title"_s, u"Berth"_s}, {u"version"_s, version},
                {u"description"_s,
                    u"Publish static sites to a live URL. Every error is {\"error\": \"<text>\"}; the texts listed "
                    "are the exact ones sent (\"<...>\" marks a part that varies). HEAD is answered wherever GET is; "
                    "another "
                    "method on a known path is 405 with Allow."_s}}},
        {u"servers"_s, QJsonArray {QJsonObject {{u"url"_s, baseUrl}}}},
        {u"security"_s, QJsonArray {QJsonObject {{u"bearer"_s, QJsonArray()}}}},
        {u"paths"_s, paths},
        {u"components"_s,
            QJsonObject {{u"securitySchemes"_s,
                             QJsonObject {{u"bearer"_s,
                                 QJsonObject {{u"type"_s, u"http"_s}, {u"scheme"_s, u"bearer"_s},
                                     {u"description"_s,
                                         u"An API key (bk_...): berthd key create, POST /auth/verify, "
                                         "POST /auth/session or POST /auth/keys."_s}}}}},
                {u"schemas"_s, parsed(OpenApiText::components())}}},
    };
}

QStringList describedRoutes()
{
    return operationTable().keys();
}

QStringList undescribedRoutes(const QList<ApiRouter::RouteInfo> &routes)
{
    QStringList missing;
    for (const ApiRouter::RouteInfo &route : routes) {
        if (!operationTable().contains(keyOf(route)))
            missing.append(keyOf(route));
    }
    return missing;
}

} // namespace berth::OpenApiDocument
