#include "instance/hostdispatcher.h"

#include "api/apirouter.h"
#include "domain/acme/acmechallenges.h"
#include "domain/siterules/customdomaintable.h"
#include "domain/siterules/siteaddresses.h"
#include "http/hostheader.h"
#include "lan/lannames.h"
#include "site/sitelimits.h"
#include "site/siteserver.h"
#include "web/builtinpages.h"

using namespace Qt::StringLiterals;

namespace berth {

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
    if (answeredAcmeChallenge(request, sink))
        return;
    const QString host = request.host();
    if (const auto slug = siteFor(host)) {
        m_sites.handle(request, *slug, std::move(sink));
        return;
    }
    if (isApi(host)) {
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
    if (siteFor(host)) { // most requests to a site have no body, and are not for its built-in endpoints ("/_...")
        if (head.contentLength > 0 || head.target.startsWith("/_"))
            return siteBodyLimit(head);
        BodyLimit files;
        files.kind = RequestKind::Site;
        return files;
    }
    if (isApi(host)) {
        QString path;
        QByteArray query;
        HttpRequest::splitTarget(head.target, &path, &query);
        BodyLimit limit = m_api.bodyLimit(head.method, path);
        limit.kind = RequestKind::Api;
        return limit;
    }
    return {kMaxSiteBodyBytes, u"Request body too large"_s}; // answered 421 once read
}

HttpResponse HostDispatcher::tooLarge(const RequestHead &head, const BodyLimit &limit) const
{
    HttpResponse refusal = RequestHandler::tooLarge(head, limit);
    if (siteFor(normalisedHost(head.host)) && BuiltinPages::prefersPage(head.accept, head.contentType))
        return BuiltinPages::refusalPage(refusal, u"/"_s);
    return refusal;
}

void HostDispatcher::handleSite(const HttpRequest &request, const QString &slug, ResponseSink sink)
{
    m_sites.handle(request, slug, std::move(sink));
}

BodyLimit HostDispatcher::siteBodyLimit(const RequestHead &head) const
{
    QString path;
    QByteArray query;
    HttpRequest::splitTarget(head.target, &path, &query);
    return m_sites.bodyLimit(head.method, path);
}

std::optional<QString> HostDispatcher::siteFor(const QString &host) const
{
    if (auto slug = m_addresses.slugForHost(host))
        return slug;
    if (const auto lan = m_lanNames ? m_lanNames->find(host) : std::nullopt; lan && !lan->api)
        return lan->slug;
    return m_customDomains ? m_customDomains->slugFor(host) : std::nullopt;
}

bool HostDispatcher::answeredAcmeChallenge(const HttpRequest &request, ResponseSink &sink) const
{
    // The CA's validator asks on the plain port with the name being validated as Host, which need not be a site yet.
    const auto token = m_acmeChallenges && !request.secure ? AcmeChallenges::tokenOf(request.path) : std::nullopt;
    if (!token)
        return false;
    const auto answer = m_acmeChallenges->answer(*token);
    const auto respond = [](ResponseSink &to, const std::optional<QByteArray> &found) {
        to.send(found ? HttpResponse::bytes(200, "application/octet-stream", *found)
                      : HttpResponse::jsonError(404, u"Not found"_s));
    };
    if (!answer && m_acmeChallenges->isShared() && m_acmeChallenges->isOrderedElsewhere(request.host())) {
        // Another server of the database is ordering that name: its answer is read on the engine's thread.
        runOnThreadOf(m_engineContext,
            [challenges = m_acmeChallenges, token = *token, host = request.host(), sink, respond]() mutable {
                respond(sink, challenges->answerShared(token, host));
            });
        return true;
    }
    respond(sink, answer);
    return true;
}

bool HostDispatcher::isApi(const QString &host) const
{
    if (m_addresses.isApiHost(host))
        return true;
    const auto lan = m_lanNames ? m_lanNames->find(host) : std::nullopt;
    return lan && lan->api;
}

void HostDispatcher::authorizeUpload(const RequestHead &head, AuthorizationDone done)
{
    // The key lookup reads the database: on the engine's thread, never on a serving one.
    runOnThreadOf(m_engineContext, [this, authorization = head.authorization, done = std::move(done)] {
        done(m_api.uploadRefusal(authorization));
    });
}

} // namespace berth
