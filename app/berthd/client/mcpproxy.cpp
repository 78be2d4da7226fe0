#include "app/berthd/client/mcpproxy.h"

#include "app/berthd/cli.h"
#include "app/berthd/client/clientsession.h"

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

bool isInitializeRequest(const QByteArray &message)
{
    const QJsonObject object = QJsonDocument::fromJson(message).object();
    return object.value(u"method"_s) == u"initialize"_s && object.contains(u"id"_s);
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
    QByteArray initializeMessage; // the client's own, sent again for a new session when Berth restarted
    const auto post = [&client](const QByteArray &message, const QByteArray &session) {
        QList<QPair<QByteArray, QByteArray>> headers {
            {"Content-Type", "application/json"}, {"Accept", "application/json, text/event-stream"}};
        if (!session.isEmpty())
            headers.append({"Mcp-Session-Id", session});
        return client->send("POST", u"/mcp"_s, message, headers);
    };
    // A restarted Berth knows no session from before (404): the client's initialize is replayed (its answer is
    // the one the client already had) and the message sent again in the new session, so that the client goes on
    // as if nothing happened.
    const auto renewSession = [&]() {
        const ApiClient::Reply opened = post(initializeMessage, {});
        if (opened.status != 200 || opened.sessionId.isEmpty())
            return false;
        sessionId = opened.sessionId;
        post(R"({"jsonrpc":"2.0","method":"notifications/initialized"})", sessionId);
        std::fputs("berthd mcp: Berth was restarted; continuing in a new MCP session\n", stderr);
        return true;
    };
    std::string line;
    while (std::getline(std::cin, line)) {
        const QByteArray message = QByteArray::fromStdString(line).trimmed();
        if (message.isEmpty())
            continue;
        const bool isInitialize = isInitializeRequest(message);
        if (isInitialize)
            initializeMessage = message;
        ApiClient::Reply reply = post(message, isInitialize ? QByteArray() : sessionId);
        if (reply.reached && reply.status == 404 && !isInitialize && !sessionId.isEmpty()
            && !initializeMessage.isEmpty() && renewSession())
            reply = post(message, sessionId);
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
