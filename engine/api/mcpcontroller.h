#pragma once

#include "api/apirouter.h"
#include "api/mcpsessions.h"

#include <QJsonObject>
#include <functional>

namespace berth {

class AccountService;
class ApiOrigins;
class Clock;

// MCP (Model Context Protocol) over Streamable HTTP at /mcp: JSON-RPC 2.0 (initialize with version negotiation,
// ping, tools/list, tools/call; batches too), answered with application/json. Every tool call is one request of
// this API sent through the router with the session's key, so its checks, limits, rate limits and error texts
// are the API's own. A session is made by initialize (Mcp-Session-Id) and bound to the Authorization it was made
// with; with no key, from where POST /auth/session is answered, it gets an agent identity that way. Requests
// from a browser page of another origin than the API's own are refused (403), against DNS rebinding, and a POST must
// say Content-Type: application/json (415), which a page cannot send elsewhere without the browser asking first.
class McpController final
{
public:
    McpController(ApiRouter &router, AccountService &accounts, const ApiOrigins &origins, const Clock &clock);
    Q_DISABLE_COPY_MOVE(McpController)

    void registerRoutes(ApiRouter &router);

    static QStringList supportedVersions(); // newest first

private:
    using Reply = std::function<void(const QJsonValue &response)>; // undefined: nothing to answer (a notification)

    void post(ApiCall &call);
    void remove(ApiCall &call);

    // The Origin (403) and, for a POST, the Content-Type (415): false when refused, the refusal sent.
    bool admitted(ApiCall &call) const;
    McpSessions::Session *findSession(const HttpRequest &request, QByteArray *id);
    void open(const ResponseSink &sink, const QJsonValue &id, McpSessions::Session session);
    void initialize(ApiCall &call, const QJsonObject &message);
    void handle(const HttpRequest &request, QObject *context, const QByteArray &sessionId, const QJsonObject &message,
        const Reply &reply);
    void callTool(const HttpRequest &request, QObject *context, const QByteArray &sessionId, const QJsonObject &params,
        const Reply &reply);
    // One API request on behalf of the session: `done` gets the status, the JSON answer and the answer itself (whose
    // body keeps the API's key order, unlike QJsonObject: a form's fields in the order the visitor sent them).
    void callApi(const HttpRequest &outer, QObject *context, const QByteArray &key, const QByteArray &method,
        const QString &path, const QByteArray &query, const QByteArray &body,
        const std::function<void(int status, const QJsonObject &json, const HttpResponse &answer)> &done);

    ApiRouter &m_router;
    AccountService &m_accounts;
    const ApiOrigins &m_origins;
    McpSessions m_sessions;
};

} // namespace berth
