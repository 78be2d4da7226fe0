#include "hostdispatcher.h"

#include "api/apirouter.h"
#include "domain/siteaddresses.h"
#include "http/hostheader.h"
#include "site/builtinendpoints.h"
#include "site/siteserver.h"

using namespace Qt::StringLiterals;

namespace berth {

QString HostDispatcher::deployBodyTooLarge()
{
    return u"Request body exceeds the %1 MB limit"_s.arg(kMaxDeployBodyBytes / (1024 * 1024));
}

HostDispatcher::HostDispatcher(
    const SiteAddresses &addresses, ApiRouter &api, SiteServer &sites, QObject *engineContext)
    : m_addresses(addresses)
    , m_api(api)
    , m_sites(sites)
    , m_engineContext(engineContext)
{
}

void HostDispatcher::handle(const HttpRequest &request, ResponseSink sink)
{
    const QString host = request.host();
    if (const auto slug = m_addresses.slugForHost(host)) {
        m_sites.handle(request, *slug, std::move(sink));
        return;
    }
    if (m_addresses.isApiHost(host)) {
        runOnThreadOf(m_engineContext, [this, request, sink]() mutable {
            sink.continueOn(m_engineContext);
            m_api.handle(request, std::move(sink));
        });
        return;
    }
    sink.send(HttpResponse::jsonError(421, u"Unknown host"_s));
}

BodyLimit HostDispatcher::bodyLimit(const RequestHead &head) const
{
    const QString host = normalisedHost(head.host);
    const qsizetype query = head.target.indexOf('?');
    const QByteArray path = query < 0 ? head.target : head.target.left(query);
    if (m_addresses.slugForHost(host)) {
        // A form submission is small: refuse a bigger one before reading it (the endpoint checks again).
        if (head.method == "POST" && (path == "/_submit" || path == "/_submit/"))
            return {BuiltinEndpoints::kMaxSubmissionBytes, BuiltinEndpoints::tooLargeMessage()};
    } else if (m_addresses.isApiHost(host)) {
        const bool isDeploy = (head.method == "POST" && (path == "/deploy" || path == "/deploy/"))
            || (head.method == "PUT" && path.startsWith("/deploy/"));
        if (isDeploy) // only key holders may send a large body: checked from the head
            return {kMaxDeployBodyBytes, deployBodyTooLarge(), true, true};
        if (head.method == "POST" && path == "/mcp") // MCP's deploy and update tools carry the same content; an
            // agent on loopback may call them without a key, so the MCP endpoint checks its callers itself
            return {kMaxDeployBodyBytes, deployBodyTooLarge(), true, false};
        return {kMaxOtherBodyBytes, u"Request body too large"_s, true};
    }
    return {kMaxOtherBodyBytes, u"Request body too large"_s};
}

void HostDispatcher::authorizeUpload(const RequestHead &head, AuthorizationDone done)
{
    // The key lookup reads the database: on the engine's thread, never on a serving one.
    runOnThreadOf(m_engineContext, [this, authorization = head.authorization, done = std::move(done)] {
        done(m_api.isAuthorized(authorization));
    });
}

} // namespace berth
