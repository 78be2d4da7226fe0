#include "site/siteserver.h"

#include "domain/siterules/sitetable.h"
#include "site/siteendpoints.h"
#include "site/sitelimits.h"
#include "site/sitepathresolver.h"
#include "site/siterules.h"
#include "web/builtinpages.h"

using namespace Qt::StringLiterals;

namespace berth {

SiteServer::SiteServer(const SiteTable &sites, const BlobStore &blobs, const SiteAddresses &addresses,
    PrivateGate &gate, QObject *engineContext)
    : m_sites(sites)
    , m_gate(gate)
    , m_files(blobs, addresses)
    , m_engineContext(engineContext)
{
}

BodyLimit SiteServer::bodyLimit(const QByteArray &method, const QString &path) const
{
    if (m_endpoints) {
        if (auto limit = m_endpoints->bodyLimit(method, path))
            return *limit;
    }
    return {kMaxSiteBodyBytes, u"Request body too large"_s};
}

void SiteServer::handle(const HttpRequest &request, const QString &slug, ResponseSink sink)
{
    auto site = m_sites.find(slug);
    if (!site) {
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
            serve(request, std::move(loaded), std::move(sink));
        });
        return;
    }
    serve(request, std::move(site), std::move(sink));
}

void SiteServer::serve(const HttpRequest &request, std::shared_ptr<const Site> site, ResponseSink sink)
{
    // The gate comes first: a private site's files and its built-in endpoints need the same access.
    if (!m_gate.admit(request, *site, sink))
        return;
    if (m_endpoints && m_endpoints->claims(request.path)) {
        runOnThreadOf(
            m_engineContext, [endpoints = m_endpoints, context = m_engineContext, request, site, sink]() mutable {
                sink.continueOn(context);
                endpoints->handle(request, *site, sink);
            });
        return;
    }
    if (request.method != "GET" && request.method != "HEAD") {
        HttpResponse response = HttpResponse::jsonError(405, u"Method not allowed"_s);
        response.setHeader("Allow", "GET, HEAD");
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
            sink.send(BuiltinPages::response(404, u"not-found"_s));
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
