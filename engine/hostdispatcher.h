#pragma once

#include "http/requesthandler.h"
#include "lan/siteporthandler.h"

#include <optional>

namespace berth {

class ApiRouter;
class LanNames;
class SiteAddresses;
class SiteServer;

// The HTTP core's one handler: reads Host and sends the request to the management API or to a site. A Host that
// is neither is refused (421), so a DNS-rebinding page cannot reach the API. Runs on the serving threads: sites
// are answered there; management requests (which need the database) are carried to the engine's thread.
class HostDispatcher final : public RequestHandler, public SiteRequests
{
public:
    // Bodies: deploys carry up to 50 MiB of files, which is 66.7 MiB as base64, plus JSON around it.
    static constexpr qint64 kMaxDeployBodyBytes = 72 * 1024 * 1024;
    static constexpr qint64 kMaxOtherBodyBytes = 64 * 1024;
    // The 413 of a deploy body over kMaxDeployBodyBytes (the JSON itself, before its files are counted).
    static QString deployBodyTooLarge();

    // engineContext: an object on the engine's thread that outlives the HTTP service.
    HostDispatcher(const SiteAddresses &addresses, ApiRouter &api, SiteServer &sites, QObject *engineContext);
    Q_DISABLE_COPY_MOVE(HostDispatcher)

    void handle(const HttpRequest &request, ResponseSink sink) override;
    BodyLimit bodyLimit(const RequestHead &head) const override;
    void authorizeUpload(const RequestHead &head, AuthorizationDone done) override;

    // LAN sharing: <name>.local hosts (mDNS) are sites or the API as names says. Set once, before serving.
    void setLanNames(const LanNames *names) { m_lanNames = names; }
    // A request already known to be for the site (a site's own LAN port).
    void handleSite(const HttpRequest &request, const QString &slug, ResponseSink sink) override;
    BodyLimit siteBodyLimit(const RequestHead &head) const override;

private:
    const SiteAddresses &m_addresses;
    ApiRouter &m_api;
    SiteServer &m_sites;
    QObject *m_engineContext;
    const LanNames *m_lanNames = nullptr;

    std::optional<QString> siteFor(const QString &host) const;
    bool isApi(const QString &host) const;
};

} // namespace berth
