#pragma once

#include "http/requesthandler.h"
#include "site/privategate.h"
#include "site/staticresponder.h"
#include "site/versionloadbudget.h"

#include <functional>
#include <memory>

namespace berth {

class SiteEndpoints;
class Clock;
class SiteTable;
class TrafficRecorder;

// Answers visitors of http://<slug>.<site domain>: finds the live site in memory, lets a private
// site's gate decide, hands the built-in endpoints their paths, then resolves the path to a file.
// Runs on the serving threads; the built-in endpoints (which read and write the database) are carried to the
// engine's thread, named by engineContext.
class SiteServer final
{
public:
    SiteServer(const SiteTable &sites, const BlobStore &blobs, const SiteAddresses &addresses, PrivateGate &gate,
        const Clock &clock, QObject *engineContext);
    Q_DISABLE_COPY_MOVE(SiteServer)

    // The built-in endpoints (/_submit, /_counter); none until set.
    void setEndpoints(SiteEndpoints *endpoints) { m_endpoints = endpoints; }
    // Where answers to visitors are counted for the site's analytics; none until set.
    void setTrafficRecorder(TrafficRecorder *traffic) { m_traffic = traffic; }
    // Reads the file table of a site the SiteTable holds as a placeholder (berth::SiteLoader::loadSite): called on
    // the engine's thread, never on a serving thread. Null when the site is gone or its files cannot be read.
    using SiteLoader = std::function<std::shared_ptr<const Site>(const QString &slug)>;
    void setLoader(SiteLoader loader) { m_loader = std::move(loader); }
    // Reads a kept version of the site under slug (berth::SiteLoader::loadVersion), on the engine's thread.
    using VersionLoader = std::function<std::shared_ptr<const Site>(const QString &slug, int number)>;
    void setVersionLoader(VersionLoader loader) { m_versionLoader = std::move(loader); }

    // slug: the Host's label under the site domain, a site's slug or a kept version's "v<N>--<slug>" (served
    // read-only, with its site's access rules, marked noindex).
    void handle(const HttpRequest &request, const QString &slug, ResponseSink sink);
    // What a request to a site may carry, and whether it is for a built-in endpoint. On a serving thread: reads
    // nothing but the endpoints' rules.
    BodyLimit bodyLimit(const QByteArray &method, const QString &path) const;
    // The built-in page for a host under the site domain where nothing is published.
    static HttpResponse noSitePage();

private:
    void handleVersion(const HttpRequest &request, const QString &slug, int number, ResponseSink sink);
    // access: the live site, whose gate decides; content: what is served (the live site or one of its versions).
    void serve(const HttpRequest &request, const Site &access, std::shared_ptr<const Site> content, ResponseSink sink);

    const SiteTable &m_sites;
    PrivateGate &m_gate;
    StaticResponder m_files;
    SiteEndpoints *m_endpoints = nullptr;
    TrafficRecorder *m_traffic = nullptr;
    SiteLoader m_loader;
    VersionLoader m_versionLoader;
    VersionLoadBudget m_versionLoads;
    QObject *m_engineContext;
};

} // namespace berth
