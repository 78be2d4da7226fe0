#pragma once

#include "http/requesthandler.h"
#include "lan/siteporthandler.h"

#include <optional>

namespace berth {

class AcmeChallenges;
class ApiRouter;
class CustomDomainTable;
class LanNames;
class SiteAddresses;
class SiteServer;

// The HTTP core's one handler: reads Host and sends the request to the management API or to a site. A Host that
// is neither is refused (421), so a DNS-rebinding page cannot reach the API. Runs on the serving threads: sites
// are answered there; management requests (which need the database) are carried to the engine's thread.
class HostDispatcher final : public RequestHandler, public SiteRequests
{
public:
    // engineContext: an object on the engine's thread that outlives the HTTP service.
    HostDispatcher(const SiteAddresses &addresses, ApiRouter &api, SiteServer &sites, QObject *engineContext);
    Q_DISABLE_COPY_MOVE(HostDispatcher)

    void handle(const HttpRequest &request, ResponseSink sink) override;
    // The limit of the route the head names, from the API's route table or the site's endpoints.
    BodyLimit bodyLimit(const RequestHead &head) const override;
    // A browser's form post to a site gets its 413 as a page; everyone else gets JSON.
    HttpResponse tooLarge(const RequestHead &head, const BodyLimit &limit) const override;
    void authorizeUpload(const RequestHead &head, AuthorizationDone done) override;

    // LAN sharing: <name>.local hosts (mDNS) are sites or the API as names says. Set once, before serving.
    void setLanNames(const LanNames *names) { m_lanNames = names; }
    // Custom domains: a Host that is one is its site's, in every respect. Set once, before serving.
    void setCustomDomains(const CustomDomainTable *domains) { m_customDomains = domains; }
    // ACME: /.well-known/acme-challenge/TOKEN over plain HTTP, for any Host, answered from these (404 for a token Berth
    // did not ask for). Set once, before serving.
    void setAcmeChallenges(const AcmeChallenges *challenges) { m_acmeChallenges = challenges; }
    // A request already known to be for the site (a site's own LAN port).
    void handleSite(const HttpRequest &request, const QString &slug, ResponseSink sink) override;
    BodyLimit siteBodyLimit(const RequestHead &head) const override;

private:
    std::optional<QString> siteFor(const QString &host) const;
    bool isApi(const QString &host) const;
    bool answeredAcmeChallenge(const HttpRequest &request, ResponseSink &sink) const;

    const SiteAddresses &m_addresses;
    ApiRouter &m_api;
    SiteServer &m_sites;
    QObject *m_engineContext;
    const LanNames *m_lanNames = nullptr;
    const AcmeChallenges *m_acmeChallenges = nullptr;
    const CustomDomainTable *m_customDomains = nullptr;
};

} // namespace berth
