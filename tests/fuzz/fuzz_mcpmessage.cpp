// An MCP JSON-RPC message (one, or a batch) as a client posts it to /mcp: every tools/call in it is checked against
// its tool's input schema and, when it fits, turned into the API request it makes. The schema check must answer in
// the documented form; the request must stay inside the tool's route (arguments percent-encoded into the path, never
// a new segment, query or fragment) and carry every argument meant for the query through Berth's own query parser
// unchanged; the body must be a JSON object.
#include "fuzzcheck.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <api/mcptools.h>
#include <http/formencoding.h>

using namespace berth;
using berth::fuzz::check;

namespace {

void checkCall(const QJsonObject &params)
{
    const McpTools::Tool *tool = McpTools::find(params.value(QStringLiteral("name")).toString());
    if (!tool || tool->call.isEmpty())
        return;
    const QJsonObject arguments = params.value(QStringLiteral("arguments")).toObject();
    if (const QString invalid = McpTools::validate(*tool, arguments); !invalid.isEmpty()) {
        check(invalid.startsWith(QStringLiteral("Invalid arguments for ") + tool->name + QStringLiteral(": ")));
        return;
    }
    const McpTools::ApiRequest request = McpTools::apiRequest(*tool, arguments);
    check(request.method == tool->call.value(QStringLiteral("method")).toString().toLatin1());

    // The route's fixed parts stay where they were, and arguments add no segment, query or fragment.
    const QString route = tool->call.value(QStringLiteral("path")).toString();
    check(request.path.startsWith(route.left(route.indexOf(u'{'))));
    check(request.path.count(u'/') == route.count(u'/'));
    for (const QChar c : request.path)
        check(c > u' ' && c < QChar(0x7f) && c != u'?' && c != u'#');

    const FormFields query = parseUrlEncoded(request.query);
    for (const QJsonValue &name : tool->call.value(QStringLiteral("query")).toArray()) {
        const QJsonValue value = arguments.value(name.toString());
        if (value.isUndefined())
            continue;
        const QString sent = value.isDouble() ? QString::number(value.toInteger()) : value.toString();
        check(formValue(query, name.toString()) == sent);
    }
    if (!request.body.isEmpty())
        check(QJsonDocument::fromJson(request.body).isObject());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QJsonDocument document = QJsonDocument::fromJson(fuzz::bytes(data, size));
    const QJsonArray messages = document.isArray() ? document.array() : QJsonArray {document.object()};
    for (const QJsonValue &message : messages) {
        const QJsonObject object = message.toObject();
        if (object.value(QStringLiteral("method")).toString() == QStringLiteral("tools/call"))
            checkCall(object.value(QStringLiteral("params")).toObject());
    }
    return 0;
}
