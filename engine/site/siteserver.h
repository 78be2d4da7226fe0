#pragma once

#include "http/requesthandler.h"
#include "site/privategate.h"
#include "site/staticresponder.h"

#include <functional>
#include <memory>

namespace berth {

class SiteEndpoints;
class SiteTable;

// Answers visitors of http://<slug>.<site domain>: finds the live site in memory, lets a private
// site's gate decide, hands the built-in endpoints their paths, then resolves the path to a file.
// Runs on the serving threads; the built-in endpoints (which read and write the database) are carried to the
// engine's thread, named by engineContext.
class SiteServer final
{
public:
    SiteServer(const SiteTable &sites, const BlobStore &blobs, const SiteAddresses &addresses, PrivateGate &gate,
        QObject *engineContext);
    Q_DISABLE_COPY_MOVE(SiteServer)

    // The built-in endpoints (/_submit, /_counter); none until set.
    void setEndpoints(SiteEndpoints *endpoints) { m_endpoints = endpoints; }
    // Reads the file table of a site the SiteTable holds as a placeholder (berth::SiteLoader::loadSite): called on
    // the engine's thread, never on a serving thread. Null when the site is gone or its files cannot be read.
    using SiteLoader = std::function<std::shared_ptr<const Site>(const QString &slug)>;
    void setLoader(SiteLoader loader) { m_loader = std::move(loader); }

    void handle(const HttpRequest &request, const QString &slug, ResponseSink sink);
    // What a request to a site may carry. On a serving thread: reads nothing but the endpoints' rules.
    BodyLimit bodyLimit(const QByteArray &method, const QString &path) const;
    // The built-in page for a host under the site domain where nothing is published.
    static HttpResponse noSitePage();

private:
    void serve(const HttpRequest &request, std::shared_ptr<const Site> site, ResponseSink sink);

    const SiteTable &m_sites;
    PrivateGate &m_gate;
    StaticResponder m_files;
    SiteEndpoints *m_endpoints = nullptr;
    SiteLoader m_loader;
    QObject *m_engineContext;
};

} // namespace berth
