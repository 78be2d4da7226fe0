#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QList>

namespace berth::McpTools {

// One MCP tool: what tools/list shows, and the API route a call becomes.
struct Tool
{
    QString name;
    QJsonObject definition; // name, title, description, inputSchema, outputSchema, annotations
    QJsonObject call; // {"method", "path", "query"?, "rename"?}; empty for a tool the session answers itself
};

QByteArray toolText(); // mcptooltext.cpp

const QList<Tool> &tools();
const Tool *find(const QString &name);
QJsonArray listing(); // the "tools" of tools/list

// The arguments against the tool's input schema: empty when they fit, else what is wrong, e.g.
// "Invalid arguments for deploy: \"slug\" must be a string".
QString validate(const Tool &tool, const QJsonObject &arguments);

// The API request a (validated) call makes.
struct ApiRequest
{
    QByteArray method;
    QString path; // percent-encoded where an argument went into it
    QByteArray query;
    QByteArray body; // JSON, or empty
};
ApiRequest apiRequest(const Tool &tool, const QJsonObject &arguments);

} // namespace berth::McpTools
