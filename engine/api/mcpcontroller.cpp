#include "api/mcpcontroller.h"

#include "api/apiorigins.h"
#include "api/mcptools.h"
#include "domain/accounts/accountservice.h"
#include "web/apierror.h"
#include "web/ratelimited.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <memory>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

constexpr int kFullRetrySeconds = 60; // a full session table: sessions end as their clients stop

// JSON-RPC 2.0 error codes.
constexpr int kParseError = -32700;
constexpr int kInvalidRequest = -32600;
constexpr int kMethodNotFound = -32601;
constexpr int kInvalidParams = -32602;

QJsonObject rpcResult(const QJsonValue &id, const QJsonObject &result)
{
    return {{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, id}, {u"result"_s, result}};
}

QJsonObject rpcError(const QJsonValue &id, int code, const QString &message)
{
    return {{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, id.isUndefined() ? QJsonValue(QJsonValue::Null) : id},
        {u"error"_s, QJsonObject {{u"code"_s, code}, {u"message"_s, message}}}};
}

// The text content is the API's own JSON text when there is one: an agent reads it in the API's key order (a
// submission's fields as the form sent them); structuredContent is for machines, which read JSON objects unordered.
QJsonObject toolResult(const QJsonObject &structured, const QByteArray &text = {})
{
    const QByteArray written = text.isEmpty() ? QJsonDocument(structured).toJson(QJsonDocument::Compact) : text;
    return {{u"content"_s, QJsonArray {QJsonObject {{u"type"_s, u"text"_s}, {u"text"_s, QString::fromUtf8(written)}}}},
        {u"structuredContent"_s, structured}, {u"isError"_s, false}};
}

QJsonObject toolError(const QString &text)
{
    return {{u"content"_s, QJsonArray {QJsonObject {{u"type"_s, u"text"_s}, {u"text"_s, text}}}}, {u"isError"_s, true}};
}

HttpResponse jsonValue(int status, const QJsonValue &value)
{
    const QJsonDocument document = value.isArray() ? QJsonDocument(value.toArray()) : QJsonDocument(value.toObject());
    return HttpResponse::bytes(status, "application/json", document.toJson(QJsonDocument::Compact));
}

QByteArray bearerSecret(const QByteArray &authorization)
{
    static constexpr QByteArrayView kScheme = "Bearer ";
    return authorization.startsWith(kScheme) ? authorization.mid(kScheme.size()).trimmed() : QByteArray();
}

} // namespace

McpController::McpController(ApiRouter &router, AccountService &accounts, const ApiOrigins &origins, const Clock &clock)
    : m_router(router)
    , m_accounts(accounts)
    , m_origins(origins)
    , m_sessions(clock)
{
}

QStringList McpController::supportedVersions()
{
    return {u"2025-11-25"_s, u"2025-06-18"_s, u"2025-03-26"_s};
}

void McpController::registerRoutes(ApiRouter &router)
{
    // Public routes: MCP authenticates itself, so that a loopback client with no key can get an agent identity.
    static const ControllerRoute<McpController> kRoutes[] = {
        // The deploy and update tools carry a deployment's files. An agent on loopback may call them without a key,
        // so this endpoint checks its callers itself.
        {"POST", "/mcp", &McpController::post, RouteAccess::Public, RouteBody::Deployment},
        {"DELETE", "/mcp", &McpController::remove, RouteAccess::Public},
    };
    router.addRoutes(this, kRoutes);
}

bool McpController::admitted(ApiCall &call) const
{
    if (!m_origins.allows(call.request)) {
        call.sink.send(HttpResponse::jsonError(403, u"Origin not allowed"_s));
        return false;
    }
    // Parameters (charset) aside, exactly JSON: a page may post text/plain anywhere without a preflight.
    const QByteArray mediaType = call.request.header("content-type").split(';').constFirst().trimmed().toLower();
    if (call.request.method == "POST" && mediaType != "application/json") {
        call.sink.send(HttpResponse::jsonError(415, u"Content-Type must be application/json"_s));
        return false;
    }
    return true;
}

McpSessions::Session *McpController::findSession(const HttpRequest &request, QByteArray *id)
{
    *id = request.header("mcp-session-id");
    const QByteArray authorization = request.header("authorization");
    return m_sessions.use(*id, authorization.isEmpty() ? QByteArray() : AccountService::hashSecret(authorization));
}

void McpController::post(ApiCall &call)
{
    const HttpRequest &request = call.request;
    if (!admitted(call))
        return;
    if (const QByteArray version = request.header("mcp-protocol-version");
        !version.isEmpty() && !supportedVersions().contains(QString::fromLatin1(version))) {
        call.sink.send(
            HttpResponse::jsonError(400, u"Unsupported MCP-Protocol-Version: "_s + QString::fromLatin1(version)));
        return;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(request.body, &parseError);
    if (parseError.error != QJsonParseError::NoError || document.isNull()) {
        call.sink.send(jsonValue(400, rpcError({}, kParseError, u"Parse error"_s)));
        return;
    }
    if (document.isObject() && document.object().value(u"method"_s) == u"initialize"_s) {
        initialize(call, document.object());
        return;
    }
    QByteArray sessionId;
    if (!request.hasHeader("mcp-session-id")) {
        call.sink.send(HttpResponse::jsonError(400, u"Bad Request: Mcp-Session-Id header is required"_s));
        return;
    }
    if (!findSession(request, &sessionId)) {
        call.sink.send(HttpResponse::jsonError(404, u"Session not found"_s));
        return;
    }

    // One message or a batch: the answer goes out once every request in it has its response, in their order.
    const bool batch = document.isArray();
    const QJsonArray messages = batch ? document.array() : QJsonArray {document.object()};
    if (messages.isEmpty()) {
        call.sink.send(jsonValue(400, rpcError({}, kInvalidRequest, u"Empty batch"_s)));
        return;
    }
    struct Pending
    {
        QList<QJsonValue> responses;
        qsizetype left = 0;
    };
    auto pending = std::make_shared<Pending>();
    pending->responses.resize(messages.size());
    pending->left = messages.size();
    const ResponseSink sink = call.sink;
    for (qsizetype i = 0; i < messages.size(); ++i) {
        handle(request, sink.context(), sessionId, messages.at(i).toObject(),
            [pending, i, batch, sink](const QJsonValue &response) {
                pending->responses[i] = response;
                if (--pending->left > 0)
                    return;
                QJsonArray answers;
                for (const QJsonValue &answer : std::as_const(pending->responses)) {
                    if (!answer.isUndefined())
                        answers.append(answer);
                }
                if (answers.isEmpty()) {
                    HttpResponse accepted;
                    accepted.status = 202;
                    sink.send(std::move(accepted));
                } else {
                    sink.send(jsonValue(200, batch ? QJsonValue(answers) : answers.at(0)));
                }
            });
    }
}

void McpController::remove(ApiCall &call)
{
    if (!admitted(call))
        return;
    if (!call.request.hasHeader("mcp-session-id")) {
        call.sink.send(HttpResponse::jsonError(400, u"Bad Request: Mcp-Session-Id header is required"_s));
        return;
    }
    QByteArray id;
    if (!findSession(call.request, &id)) {
        call.sink.send(HttpResponse::jsonError(404, u"Session not found"_s));
        return;
    }
    m_sessions.remove(id);
    HttpResponse done;
    done.status = 204;
    call.sink.send(std::move(done));
}

void McpController::open(const ResponseSink &sink, const QJsonValue &id, McpSessions::Session session)
{
    const QString version = session.protocolVersion;
    const Result<QByteArray> sessionId = m_sessions.open(std::move(session));
    if (!sessionId) {
        HttpResponse refused = rateLimited({false, kFullRetrySeconds}, sessionId.error().message);
        if (sessionId.error().kind != Error::Kind::RateLimited)
            refused.status = 503;
        sink.send(std::move(refused));
        return;
    }
    HttpResponse response = jsonValue(200,
        rpcResult(id,
            {{u"protocolVersion"_s, version},
                {u"capabilities"_s, QJsonObject {{u"tools"_s, QJsonObject {{u"listChanged"_s, false}}}}},
                {u"serverInfo"_s,
                    QJsonObject {{u"name"_s, u"berth"_s}, {u"title"_s, u"Berth"_s},
                        {u"version"_s, QStringLiteral(BERTH_VERSION)}}},
                {u"instructions"_s,
                    u"Berth publishes static sites to live URLs. deploy takes html or files and "
                    "answers with the url (and share_url for private sites); whoami shows what is left "
                    "of the plan's limits."_s}}));
    response.setHeader("Mcp-Session-Id", sessionId.value());
    sink.send(std::move(response));
}

void McpController::initialize(ApiCall &call, const QJsonObject &message)
{
    const QJsonValue id = message.value(u"id"_s);
    const QString requested = message.value(u"params"_s).toObject().value(u"protocolVersion"_s).toString();
    McpSessions::Session session;
    session.protocolVersion = supportedVersions().contains(requested) ? requested : supportedVersions().constFirst();

    const ResponseSink sink = call.sink;
    if (const QByteArray authorization = call.request.header("authorization"); !authorization.isEmpty()) {
        const Result<User> user = m_accounts.authenticate(authorization);
        if (!user) {
            sink.send(ApiRouter::refused(authorization, user.error()));
            return;
        }
        session.authorizationHash = AccountService::hashSecret(authorization);
        session.keyHash = AccountService::hashSecret(AccountService::bearerSecret(authorization));
        session.userId = user.value().id;
        open(sink, id, std::move(session));
        return;
    }
    // No key: an agent identity, exactly as POST /auth/session gives one (its policy and its rate limit).
    callApi(call.request, sink.context(), {}, "POST", u"/auth/session"_s, {}, {},
        [this, sink, id, session](int status, const QJsonObject &json, const HttpResponse &answer) mutable {
            if (status == 200) {
                session.key = json.value(u"api_key"_s).toString().toLatin1();
                session.keyHash = AccountService::hashSecret(session.key);
                session.userId = json.value(u"agent_id"_s).toString();
                open(sink, id, std::move(session));
                return;
            }
            if (status == 429) {
                HttpResponse limited = HttpResponse::jsonError(429, json.value(u"error"_s).toString());
                limited.setHeader("Retry-After", answer.header("retry-after"));
                sink.send(std::move(limited));
                return;
            }
            // No key was offered: the challenge carries no error code (RFC 6750 section 3.1).
            sink.send(errorResponse({Error::Kind::Unauthorized,
                u"Unauthorized: send Authorization: Bearer <API key> (%1)"_s.arg(json.value(u"error"_s).toString())}));
        });
}

void McpController::handle(const HttpRequest &request, QObject *context, const QByteArray &sessionId,
    const QJsonObject &message, const Reply &reply)
{
    const QJsonValue id = message.value(u"id"_s);
    if (message.value(u"jsonrpc"_s) != u"2.0"_s) {
        reply(rpcError(id, kInvalidRequest, u"Invalid Request"_s));
        return;
    }
    if (!message.contains(u"method"_s) || id.isUndefined()) {
        reply(QJsonValue(QJsonValue::Undefined)); // a notification, or a response to us: nothing to answer
        return;
    }
    const QString method = message.value(u"method"_s).toString();
    if (method == u"ping"_s)
        reply(rpcResult(id, {}));
    else if (method == u"tools/list"_s)
        reply(rpcResult(id, {{u"tools"_s, McpTools::listing()}}));
    else if (method == u"tools/call"_s)
        callTool(
            request, context, sessionId, message.value(u"params"_s).toObject(), [reply, id](const QJsonValue &result) {
                reply(result.toObject().contains(u"error"_s)
                        ? rpcError(id, kInvalidParams, result[u"error"_s].toString())
                        : rpcResult(id, result.toObject()));
            });
    else if (method == u"initialize"_s)
        reply(rpcError(id, kInvalidRequest, u"Already initialized"_s));
    else
        reply(rpcError(id, kMethodNotFound, u"Method not found: "_s + method));
}

void McpController::callTool(const HttpRequest &request, QObject *context, const QByteArray &sessionId,
    const QJsonObject &params, const Reply &reply)
{
    const QString name = params.value(u"name"_s).toString();
    const McpTools::Tool *tool = McpTools::find(name);
    if (!tool) {
        reply(QJsonObject {{u"error"_s, u"Unknown tool: "_s + name}});
        return;
    }
    const QJsonValue arguments = params.value(u"arguments"_s);
    if (!arguments.isUndefined() && !arguments.isObject()) {
        reply(toolError(u"Invalid arguments for %1: arguments must be an object"_s.arg(name)));
        return;
    }
    if (const QString invalid = McpTools::validate(*tool, arguments.toObject()); !invalid.isEmpty()) {
        reply(toolError(invalid));
        return;
    }
    McpSessions::Session *found = m_sessions.find(sessionId);
    if (!found) { // ended by a DELETE of an earlier message in the same batch
        reply(toolError(u"Session not found"_s));
        return;
    }
    McpSessions::Session &session = *found;
    if (tool->name == u"logout"_s) {
        session.signedInKey.clear();
        reply(toolResult({{u"signed_out"_s, true}}));
        return;
    }
    QByteArray key = !session.signedInKey.isEmpty() ? session.signedInKey
        : !session.key.isEmpty()                    ? session.key
                                                    : bearerSecret(request.header("authorization"));
    const McpTools::ApiRequest api = McpTools::apiRequest(*tool, arguments.toObject());
    const bool signsIn = tool->name == u"verify"_s;
    callApi(request, context, key, api.method, api.path, api.query, api.body,
        [this, reply, sessionId, signsIn](int status, const QJsonObject &json, const HttpResponse &answer) {
            if (status / 100 != 2) {
                reply(toolError(json.value(u"error"_s).toString(u"HTTP status %1"_s.arg(status))));
                return;
            }
            if (signsIn) {
                if (McpSessions::Session *signedIn = m_sessions.find(sessionId))
                    signedIn->signedInKey = json.value(u"api_key"_s).toString().toLatin1();
            }
            reply(toolResult(json, answer.body.trimmed()));
        });
}

void McpController::callApi(const HttpRequest &outer, QObject *context, const QByteArray &key, const QByteArray &method,
    const QString &path, const QByteArray &query, const QByteArray &body,
    const std::function<void(int, const QJsonObject &, const HttpResponse &)> &done)
{
    HttpRequest inner;
    inner.method = method;
    inner.target = path.toLatin1() + (query.isEmpty() ? QByteArray() : '?' + query);
    HttpRequest::splitTarget(inner.target, &inner.path, &inner.query);
    inner.headers.append({"host", outer.header("host")});
    if (!key.isEmpty())
        inner.headers.append({"authorization", "Bearer " + key});
    if (outer.hasHeader("x-forwarded-for")) // per-IP limits see the same client behind a trusted proxy
        inner.headers.append({"x-forwarded-for", outer.header("x-forwarded-for")});
    if (!body.isEmpty())
        inner.headers.append({QByteArray("content-type"), QByteArray("application/json")});
    inner.body = body;
    inner.peer = outer.peer;
    m_router.handle(inner, ResponseSink(context, [done](HttpResponse response) {
        done(response.status, QJsonDocument::fromJson(response.body).object(), response);
    }));
}

} // namespace berth
