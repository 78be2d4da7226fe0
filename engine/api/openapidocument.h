#pragma once

#include "api/apirouter.h"

#include <QJsonObject>
#include <QStringList>

namespace berth::OpenApiDocument {

// The OpenAPI 3.1 document of the management API: one operation per row of the router's table (so the document
// cannot list a route that does not exist, nor miss one), described by the table in openapitext.cpp.
QJsonObject build(const QList<ApiRouter::RouteInfo> &routes, const QString &baseUrl, const QString &version);

// "METHOD /pattern" of every described operation, and of every route build() found no description for.
QStringList describedRoutes();
QStringList undescribedRoutes(const QList<ApiRouter::RouteInfo> &routes);

// "/deploy/:id/slug" -> "/deploy/{id}/slug"
QString openApiPath(const QString &pattern);

} // namespace berth::OpenApiDocument
