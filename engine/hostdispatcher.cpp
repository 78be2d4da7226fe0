#include "hostdispatcher.h"

#include "api/apirouter.h"
#include "domain/siteaddresses.h"
#include "site/builtinendpoints.h"
#include "site/siteserver.h"

using namespace Qt::StringLiterals;

namespace berth {

HostDispatcher::HostDispatcher(const SiteAddresses &addresses, ApiRouter &api, SiteServer &sites)
    : m_addresses(addresses)
    , m_api(api)
    , m_sites(sites)
{
}

QString HostDispatcher::normalisedHost(const QByteArray &hostHeader)
{
    QString host = QString::fromLatin1(hostHeader.trimmed()).toLower();
    if (host.startsWith(u'['))
        return host.left(host.indexOf(u']') + 1);
    const qsizetype colon = host.lastIndexOf(u':');
    return colon < 0 ? host : host.left(colon);
}

void HostDispatcher::handle(const HttpRequest &request, ResponseSink sink)
{
    const QString host = request.host();
    if (const auto slug = m_addresses.slugForHost(host)) {
        m_sites.handle(request, *slug, std::move(sink));
        return;
    }
    if (m_addresses.isApiHost(host)) {
        m_api.handle(request, std::move(sink));
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
            || (head.method == "PUT" && path.startsWith("/deploy/"))
            || (head.method == "POST" && path == "/mcp"); // MCP's deploy and update tools carry the same content
        if (isDeploy)
            return {kMaxDeployBodyBytes, u"Total deployment size exceeds the 50 MB limit"_s};
    }
    return {kMaxOtherBodyBytes, u"Request body too large"_s};
}

} // namespace berth
