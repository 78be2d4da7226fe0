#include "site/siteserver.h"

#include "domain/siterules/siteaddresses.h"
#include "domain/siterules/sitetable.h"
#include "site/siteendpoints.h"
#include "site/sitelimits.h"
#include "site/sitepathresolver.h"
#include "site/siterules.h"
#include "site/trafficrecorder.h"
#include "web/builtinpages.h"

using namespace Qt::StringLiterals;

namespace berth {

SiteServer::SiteServer(const SiteTable &sites, const BlobStore &blobs, const SiteAddresses &addresses,
    PrivateGate &gate, const Clock &clock, QObject *engineContext)
    : m_sites(sites)
    , m_gate(gate)
    , m_files(blobs, addresses)
    , m_versionLoads(clock)
    , m_engineContext(engineContext)
{
}

BodyLimit SiteServer::bodyLimit(const QByteArray &method, const QString &path) const
{
    BodyLimit limit {kMaxSiteBodyBytes, u"Request body too large"_s};
    if (m_endpoints) {
        if (auto endpoint = m_endpoints->bodyLimit(method, path))
            limit = *endpoint;
    }
    const bool builtin = (m_endpoints && m_endpoints->claims(path)) || path == QLatin1String(PrivateGate::kGatePath);
    limit.kind = builtin ? RequestKind::Builtin : RequestKind::Site;
    return limit;
}

void SiteServer::handle(const HttpRequest &request, const QString &slug, ResponseSink sink)
{
    auto site = m_sites.find(slug);
    if (!site) {
        if (const auto version = SiteAddresses::versionLabel(slug))
            handleVersion(request, version->slug, version->number, std::move(sink));
        else
            sink.send(noSitePage());
        return;
    }
    if (!site->loaded) {
        // Its files are read on the engine's thread; the request goes on from there with the site as loaded (the
        // gate included, in case the deployment changed meanwhile), its answer carried back by the sink.
        runOnThreadOf(m_engineContext, [this, request, slug, sink]() mutable {
            auto loaded = m_loader ? m_loader(slug) : nullptr;
            if (!loaded) {
                sink.send(m_sites.find(slug) ? HttpResponse::jsonError(503, u"The site could not be loaded"_s)
                                             : noSitePage());
                return;
            }
            sink.continueOn(m_engineContext);
            serve(request, *loaded, loaded, std::move(sink));
        });
        return;
    }
    serve(request, *site, site, std::move(sink));
}

void SiteServer::handleVersion(const HttpRequest &request, const QString &slug, int number, ResponseSink sink)
{
    const auto live = m_sites.find(slug);
    if (!live) {
        sink.send(noSitePage());
        return;
    }
    if (auto version = m_sites.findVersion(live->deployment.id, number)) {
        serve(request, *live, std::move(version), std::move(sink));
        return;
    }
    // Its files are read on the engine's thread, and kept in the SiteTable for the next requests; how often is bounded.
    if (!m_versionLoads.take()) {
        HttpResponse busy
            = HttpResponse::jsonError(503, u"Too many versions are being opened; try again in a moment"_s);
        busy.setHeader("Retry-After", QByteArray::number(VersionLoadBudget::kRetryAfterSeconds));
        sink.send(busy);
        return;
    }
    runOnThreadOf(m_engineContext, [this, request, slug, number, sink]() mutable {
        const auto site = m_sites.find(slug);
        auto version = site && m_versionLoader ? m_versionLoader(slug, number) : nullptr;
        sink.continueOn(m_engineContext);
        if (!version) { // which versions a private site keeps is for admitted visitors only
            if (site && m_gate.admit(request, *site, sink))
                sink.send(BuiltinPages::response(404, u"not-found"_s));
            else if (!site)
                sink.send(noSitePage());
            return;
        }
        serve(request, *site, std::move(version), std::move(sink));
    });
}

void SiteServer::serve(
    const HttpRequest &request, const Site &access, std::shared_ptr<const Site> content, ResponseSink sink)
{
    // The gate comes first: a private site's files and its built-in endpoints need the same access; a version has
    // its site's.
    if (!m_gate.admit(request, access, sink))
        return;
    const std::shared_ptr<const Site> site = std::move(content);
    if (site->version > 0 && m_endpoints && m_endpoints->claims(request.path)) {
        // A version is read-only: no form posts or counters of its own.
        HttpResponse response = BuiltinPages::response(404, u"not-found"_s);
        SiteRules::markVersion(response, *site);
        sink.send(std::move(response));
        return;
    }
    if (m_endpoints && m_endpoints->claims(request.path)) {
        runOnThreadOf(
            m_engineContext, [endpoints = m_endpoints, context = m_engineContext, request, site, sink]() mutable {
                sink.continueOn(context);
                endpoints->handle(request, *site, sink);
            });
        return;
    }
    if (m_traffic) // the site's own files and pages, not its built-in endpoints or its gate
        m_traffic->watch(request, *site, sink);
    if (request.method != "GET" && request.method != "HEAD") {
        HttpResponse response = HttpResponse::jsonError(405, u"Method not allowed"_s);
        response.setHeader("Allow", "GET, HEAD");
        SiteRules::markVersion(response, *site);
        if (site->deployment.isProtected) { // only admitted visitors get here: not for shared caches either
            response.setHeader("Cache-Control", "private, no-store");
            response.setHeader("Vary", "Cookie");
        }
        sink.send(std::move(response));
        return;
    }

    SitePathResolution resolution = resolveSitePath(*site, request.path);
    if (resolution.outcome != SitePathResolution::Outcome::BadPath && !site->redirects.isEmpty()) {
        // The deployment's _redirects: a rule without "!" gives way to a file of that very path.
        const bool fileExists = resolution.outcome == SitePathResolution::Outcome::Found && !resolution.fallback;
        if (const auto match = site->redirects.match(request.path, request.query, fileExists)) {
            if (match->kind == RedirectMatch::Kind::Redirect) {
                sink.send(SiteRules::redirect(*site, *match));
                return;
            }
            // A rewrite or a custom 404 serves another file of the same deployment, found like any request path.
            resolution = resolveSitePath(*site, match->path);
            if (resolution.outcome == SitePathResolution::Outcome::BadPath)
                resolution = {};
            if (match->kind == RedirectMatch::Kind::NotFound && resolution.file)
                resolution.outcome = SitePathResolution::Outcome::NotFound;
        }
    }
    switch (resolution.outcome) {
    case SitePathResolution::Outcome::BadPath:
        sink.send(HttpResponse::jsonError(400, u"Invalid path"_s));
        return;
    case SitePathResolution::Outcome::NotFound:
        if (!resolution.file) {
            HttpResponse missing = BuiltinPages::response(404, u"not-found"_s);
            SiteRules::markVersion(missing, *site);
            sink.send(std::move(missing));
            return;
        }
        break;
    case SitePathResolution::Outcome::Found:
        break;
    }
    const int status = resolution.outcome == SitePathResolution::Outcome::Found ? 200 : 404;
    if (StaticResponder::isRenderedDocument(*site, resolution.path)) {
        m_files.respondRendered(request, site, *resolution.file, status, std::move(sink));
        return;
    }
    m_files.respondFile(request, site, resolution.path, *resolution.file, status, std::move(sink));
}

HttpResponse SiteServer::noSitePage()
{
    return BuiltinPages::response(404, u"no-site"_s);
}

} // namespace berth
