#pragma once

#include "hotfilecache.h"
#include "http/requesthandler.h"

namespace berth {

class BlobStore;
class SiteEndpoints;
class SiteTable;
struct SiteFile;

// Answers visitors of http://<slug>.<site domain>: finds the live site in memory, resolves the path,
// and replies from the hot cache or by streaming the blob from disk.
class SiteServer final
{
public:
    SiteServer(const SiteTable &sites, const BlobStore &blobs);
    Q_DISABLE_COPY_MOVE(SiteServer)

    // The built-in endpoints (/_submit, /_counter); none until set.
    void setEndpoints(SiteEndpoints *endpoints) { m_endpoints = endpoints; }

    void handle(const HttpRequest &request, const QString &slug, ResponseSink sink);
    // The built-in page for a host under the site domain where nothing is published.
    static HttpResponse noSitePage();

private:
    HttpResponse fileResponse(const HttpRequest &request, const SiteFile &file, int status);
    static HttpResponse builtinPage(int status, const QString &resource);

    const SiteTable &m_sites;
    const BlobStore &m_blobs;
    HotFileCache m_cache;
    SiteEndpoints *m_endpoints = nullptr;
};

} // namespace berth
