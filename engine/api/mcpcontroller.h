#pragma once

#include "api/apirouter.h"

#include <QDateTime>
#include <QHash>
#include <QHostAddress>
#include <QJsonObject>
#include <functional>

namespace berth {

class AccountService;
class Clock;
class SiteAddresses;

// MCP (Model Context Protocol) over Streamable HTTP at /mcp: JSON-RPC 2.0 (initialize with version negotiation,
// ping, tools/list, tools/call; batches too), answered with application/json. Every tool call is one request of
// this API sent through the router with the session's key, so its checks, limits, rate limits and error texts
// are the API's own. A session is made by initialize (Mcp-Session-Id) and bound to the Authorization it was made
// with; with no key, from where POST /auth/session is answered, it gets an agent identity that way. Requests
// from a browser page of another origin than the API's own are refused (403), against DNS rebinding.
class McpController final
{
public:
    McpController(ApiRouter &router, AccountService &accounts, const SiteAddresses &addresses, const Clock &clock);
    Q_DISABLE_COPY_MOVE(McpController)

    void registerRoutes(ApiRouter &router);

    static QStringList supportedVersions(); // newest first

private:
    struct Session
    {
        QByteArray authorizationHash; // of the Authorization header initialize came with; empty: none
        QByteArray key; // the key tool calls use: an agent's or verify's; empty: the caller's own
        QByteArray signedInKey; // set by verify, cleared by logout
        QString protocolVersion;
        QDateTime lastUsed;
    };
    using Reply = std::function<void(const QJsonValue &response)>; // undefined: nothing to answer (a notification)

    void post(ApiCall &call);
    void remove(ApiCall &call);

    bool originAllowed(const HttpRequest &request) const;
    Session *findSession(const HttpRequest &request, QByteArray *id);
    void initialize(ApiCall &call, const QJsonObject &message);
    void handle(const HttpRequest &request, QObject *context, const QByteArray &sessionId, const QJsonObject &message,
        const Reply &reply);
    void callTool(const HttpRequest &request, QObject *context, const QByteArray &sessionId, const QJsonObject &params,
        const Reply &reply);
    // One API request on behalf of the session: `done` gets the status, the JSON answer and its text as the API wrote
    // it (whose key order, unlike QJsonObject's, is the API's: a form's fields in the order the visitor sent them).
    void callApi(const HttpRequest &outer, QObject *context, const QByteArray &key, const QByteArray &method,
        const QString &path, const QByteArray &query, const QByteArray &body,
        const std::function<void(int status, const QJsonObject &json, const QByteArray &text)> &done);
    void evictIdle();

    ApiRouter &m_router;
    AccountService &m_accounts;
    const SiteAddresses &m_addresses;
    const Clock &m_clock;
    QHash<QByteArray, Session> m_sessions;
};

} // namespace berth
