#include "mcpproxy.h"

#include "cli.h"
#include "clientsession.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <cstdio>
#include <iostream>
#include <string>

using namespace Qt::StringLiterals;

namespace berth::McpProxy {

namespace {

constexpr int kTransportError = -32000; // JSON-RPC: implementation-defined server error

void writeLine(const QByteArray &json)
{
    std::fwrite(json.constData(), 1, size_t(json.size()), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

// An error answer for every request (a message with an id) in what was sent: the client is never left waiting.
void answerWithError(const QByteArray &sent, const QString &message)
{
    const QJsonDocument document = QJsonDocument::fromJson(sent);
    const QJsonArray messages = document.isArray() ? document.array() : QJsonArray {document.object()};
    for (const QJsonValue &value : messages) {
        const QJsonValue id = value.toObject().value(u"id"_s);
        if (id.isUndefined() || !value.toObject().contains(u"method"_s))
            continue;
        writeLine(QJsonDocument(QJsonObject {{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, id},
                                    {u"error"_s, QJsonObject {{u"code"_s, kTransportError}, {u"message"_s, message}}}})
                      .toJson(QJsonDocument::Compact));
    }
}

} // namespace

int run(const QStringList &arguments)
{
    QCommandLineParser parser;
    if (const auto exit = ClientSession::parse(parser, arguments, u"mcp"_s, QString(),
            u"Speak MCP on standard input and output for desktop AI clients, with the tools of a running Berth\n"
            "(deploy, update, list_deploys, ...). Key from BERTH_API_KEY, else an agent of this machine."_s,
            {}, 0, 0))
        return *exit;
    int exit = ExitOk;
    const auto client = ClientSession::connect(parser, &exit);
    if (!client)
        return exit;

    QByteArray sessionId;
    std::string line;
    while (std::getline(std::cin, line)) {
        const QByteArray message = QByteArray::fromStdString(line).trimmed();
        if (message.isEmpty())
            continue;
        QList<QPair<QByteArray, QByteArray>> headers {
            {"Content-Type", "application/json"}, {"Accept", "application/json, text/event-stream"}};
        if (!sessionId.isEmpty())
            headers.append({"Mcp-Session-Id", sessionId});
        const ApiClient::Reply reply = client->send("POST", u"/mcp"_s, message, headers);
        if (!reply.reached) {
            answerWithError(
                message, u"Cannot reach Berth at %1: %2"_s.arg(client->baseUrl().toString(), reply.networkError));
            continue;
        }
        if (!reply.sessionId.isEmpty())
            sessionId = reply.sessionId;
        if (reply.status == 200)
            writeLine(reply.body);
        else if (reply.status != 202)
            answerWithError(message, reply.error().isEmpty() ? u"HTTP status %1"_s.arg(reply.status) : reply.error());
    }
    if (!sessionId.isEmpty())
        client->send("DELETE", u"/mcp"_s, {}, {{"Mcp-Session-Id", sessionId}});
    return ExitOk;
}

} // namespace berth::McpProxy
